"""Suite-wide guards: no test touches the real user's data or config directories."""

import pytest


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory, monkeypatch):
    # Journals hold secrets and the config holds the player's name: a test must never read or
    # write the real ones. Tests that need their own directories still set these themselves.
    root = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(root / "config"))
    monkeypatch.setenv("GASLIGHT_INTERFACES", "127.0.0.1")

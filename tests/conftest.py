"""Suite-wide guards: no test touches the real user's data or config directories. And how the
suite is spread over xdist's workers (`-n auto --dist loadgroup` in pyproject.toml)."""

import os

import pytest


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory, monkeypatch):
    # Journals hold secrets and the config holds the player's name: a test must never read or
    # write the real ones. Tests that need their own directories still set these themselves.
    root = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(root / "config"))
    monkeypatch.setenv("GASLIGHT_INTERFACES", "127.0.0.1")


WORKERS_BEYOND_CORES = 1
"""Workers `-n auto` starts beyond one a core: much of the suite waits (on servers, browsers,
apps drawing, bots' pace), and a worker that waits leaves its core to another's work."""


@pytest.hookimpl(optionalhook=True)  # a run without xdist has no such hook
def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return len(os.sched_getaffinity(0)) + WORKERS_BEYOND_CORES

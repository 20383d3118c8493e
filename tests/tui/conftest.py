"""Shared fixtures: a loopback backend, an app factory, and a waiter that wakes on messages."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tui.app import create_app  # noqa: E402
from tui.backend import Backend  # noqa: E402


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    """Never read or write the real user's config."""
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("GASLIGHT_NAME", raising=False)


@pytest.fixture
def backend_factory(tmp_path):
    def make(**kwargs) -> Backend:
        kwargs.setdefault("interfaces", ["127.0.0.1"])
        kwargs.setdefault("data_dir", tmp_path / "data")
        kwargs.setdefault("bot_delay", 0)
        kwargs.setdefault("seed", 7)
        kwargs.setdefault("discover", False)
        return Backend(**kwargs)

    return make


class Waiter:
    """Wakes whenever the app handles a message; `until` re-checks a condition each time."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def hook(self, message) -> None:
        self.event.set()

    async def until(self, pilot, predicate, what: str, timeout: float = 30.0):
        try:
            async with asyncio.timeout(timeout):
                while True:
                    await pilot.pause()
                    result = predicate()
                    if result:
                        return result
                    self.event.clear()
                    await self.event.wait()
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what}") from None


@pytest.fixture
def waiter() -> Waiter:
    return Waiter()


@pytest.fixture
def app_factory(backend_factory, tmp_path):
    def make(name: str | None = "Ann", **kwargs):
        # Each player has a data directory (their seat book) of their own, as on their own
        # computer; the same player's next app finds their seats there.
        kwargs.setdefault("data_dir", tmp_path / f"data-{name or 'new'}")
        return create_app(backend_factory(**kwargs), player_name=name)

    return make

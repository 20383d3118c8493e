"""Shared fixtures: a loopback backend, an app factory, and a waiter that wakes on messages."""

from __future__ import annotations

import pytest
from support.flows import Waiter
from textual.widgets import Input

from tui.app import create_app
from tui.backend import Backend


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


@pytest.fixture
def snap_compare(snap_compare):
    """The plugin's `snap_compare`, with every text box's cursor held still and drawn before
    the shot: Textual blinks it on a wall-clock timer, so a busy machine now and then caught it
    in its dark half and a snapshot failed for one cell."""

    def compare(app, *args, press=(), run_before=None, **kwargs):
        # The keys are pressed here, after `run_before` as the plugin would, so that a text box
        # they open is held still too.
        async def still_cursors(pilot):
            if run_before is not None:
                await run_before(pilot)
            await pilot.pause()
            await pilot.press(*press)
            await pilot.pause()
            for screen in pilot.app.screen_stack:
                for box in screen.query(Input):
                    box.cursor_blink = False
            await pilot.pause()

        return snap_compare(app, *args, run_before=still_cursors, **kwargs)

    return compare

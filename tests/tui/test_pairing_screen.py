"""The table code's dialog: asked once per host, and at every join of a private table."""

from __future__ import annotations

import pytest
from offline import offline_backend
from screen_text import screen_text

from tui.app import create_app
from tui.screens.pairing import PairingScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
def test_the_code_dialog_says_why_and_what_a_code_looks_like(snap_compare, size):
    async def run_before(pilot):
        await pilot.app.push_screen(PairingScreen("192.168.1.20:7420"))
        await pilot.press(*"1234", "enter")  # a code too short: the dialog says so
        await pilot.pause()

    assert snap_compare(create_app(offline_backend(), player_name="Ada"), terminal_size=size,
                        run_before=run_before)


async def test_the_dialog_gives_the_eight_digits_or_nothing():
    app = create_app(offline_backend(), player_name="Ada")
    results = []
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(PairingScreen("192.168.1.20:7420", private=True), results.append)
        await pilot.pause()
        assert "This table is private" in screen_text(app)
        await pilot.press(*"7788 6939", "enter")
        await pilot.pause()
        await app.push_screen(PairingScreen("192.168.1.20:7420"), results.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert results == ["77886939", None]

"""Below 80x24 (60x20 tried) a screen cannot show every button: the app says once that the
terminal is too small and how large it must be, on whatever screen it opens at, and not again
on every new screen (where it covered a player's row)."""

from __future__ import annotations

import pytest
from support.offline import (
    finished_game,
    lobby,
    offline_backend,
    open_table,
    seeded_game,
)
from support.screen_text import screen_text

from tui.app import TOO_SMALL_SHOWN, create_app
from tui.screens.end import EndScreen
from tui.screens.quick_play import QuickPlayScreen


async def at_lobby(application, pilot):
    pass


async def at_quick_play(application, pilot):
    await application.push_screen(QuickPlayScreen())


async def at_waiting_room(application, pilot):
    await open_table(application, None, 0, lobby(phase="waiting"))


async def at_table(application, pilot):
    await open_table(application, seeded_game(3), 0)


async def at_end(application, pilot):
    await open_table(application, finished_game(), 0, lobby(phase="over"))
    while not isinstance(application.screen, EndScreen):
        await pilot.pause()


@pytest.mark.parametrize("reach", [at_lobby, at_quick_play, at_waiting_room, at_table, at_end],
                         ids=["lobby", "quick play", "waiting room", "table", "end screen"])
async def test_every_screen_says_the_terminal_is_too_small_and_how_large_it_must_be(reach):
    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(60, 20), notifications=True) as pilot:
        await reach(application, pilot)
        for _ in range(4):
            await pilot.pause()
        text = screen_text(application)
        assert "Terminal too small" in text and "60x20" in text and "80x24" in text
        await pilot.resize_terminal(80, 24)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" not in screen_text(application)


async def test_the_notice_is_said_once_and_not_again_on_the_next_screen():
    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(60, 20), notifications=True) as pilot:
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" in screen_text(application)
        assert [n.timeout for n in application._notifications] == [TOO_SMALL_SHOWN]
        application.clear_notifications()  # as its timeout does
        await open_table(application, seeded_game(3), 0)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" not in screen_text(application)
        await pilot.resize_terminal(80, 24)
        await pilot.resize_terminal(60, 20)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" in screen_text(application)  # shrunk again: said again

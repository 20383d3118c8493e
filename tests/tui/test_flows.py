"""Pilot flows: the real app against a real in-process host on 127.0.0.1."""

from __future__ import annotations

from screen_text import screen_text

from tui.screens.end import EndScreen
from tui.screens.table import TableScreen
from tui.screens.timebomb_cut import CutScreen


def table_screen(app) -> TableScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)


async def test_play_against_bots_until_the_end_then_play_again(app_factory, waiter):
    """Lobby, b, cut wires by keyboard until the end screen, then play again."""
    app = app_factory()
    async with app.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
        await pilot.press("b")
        table = await waiter.until(pilot, lambda: table_screen(app), "the table screen")
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        cuts = 0
        while not isinstance(app.screen, EndScreen):
            await waiter.until(
                pilot,
                lambda: isinstance(app.screen, EndScreen)
                or (table.game_table.model and table.game_table.model.your_turn),
                "my turn or the end",
            )
            if isinstance(app.screen, EndScreen):
                break
            await pilot.press("enter")
            await waiter.until(pilot, lambda: isinstance(app.screen, CutScreen), "the wire picker")
            before = len(table.view["revealed"])
            await pilot.press("1")
            await waiter.until(
                pilot,
                lambda: len(table.view["revealed"]) > before or table.view["outcome"],
                "my cut to be revealed",
            )
            cuts += 1
        assert cuts > 0
        text = screen_text(app)
        assert "team wins" in text and "Play again" in text
        assert table.view["outcome"] is not None
        await pilot.press("p")
        await waiter.until(
            pilot,
            lambda: table.view["outcome"] is None and app.screen is table,
            "a new game after play again",
        )
        assert table.view["revealed"] == [] or table.view["round"] == 1

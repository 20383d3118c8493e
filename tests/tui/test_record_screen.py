"""The group's record from the lobby (issue 42): Ctrl+E shows the past evenings, each table's
games and who won them, and each game's players with their games, wins and rating, this
player marked, all made from the games kept on this computer."""

from __future__ import annotations

import re

from support.kept_games import kept_game
from support.screen_text import screen_text

from tui.screens.record import RecordScreen

START = 1_800_000_000.0


async def test_ctrl_e_shows_the_past_evenings_and_the_players_ratings(app_factory, waiter):
    app = app_factory("Ann")
    folder = app.backend.replays_folder()
    folder.mkdir(parents=True, exist_ok=True)
    me = app.backend.person.id
    people = [("Ann", me), ("Bob", "b" * 32), None, None, None]
    for n, seed in enumerate((3, 4)):  # two games at one table, one evening
        kept_game(folder, "timebomb", seed, people, START + 600 * n, table="aaaa0001",
                  name="Baker Street")
    kept_game(folder, "holmes", 5, [("Ann", me), None], START + 86_400, table="bbbb0002",
              name="Diogenes Club")
    async with app.run_test(size=(100, 40), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+e")
        await waiter.until(pilot, lambda: isinstance(app.screen, RecordScreen)
                           and "Past evenings" in screen_text(app), "the record")
        text = " ".join(screen_text(app).split())
        # The newest evening first, each with its games' tally.
        assert text.index("Diogenes Club") < text.index("Baker Street")
        assert "2 games · wins:" in text and "1 game · wins:" in text
        # Each game's players, rated, this player marked.
        assert "Time Bomb" in text and "Holmes" in text
        assert "Ann (you)" in text and "Bob" in text
        assert re.search(r"\d+\.\d ± \d+\.\d", text)
        await pilot.press("escape")
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby again")

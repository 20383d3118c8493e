"""The table code stays in sight (issue 35): the screen of the table this app hosts shows it
all game, and `?` and the command palette find it, for latecomers and spectators."""

from __future__ import annotations

from support.flows import host_for_bob
from support.screen_text import screen_text

from netplay.pairing import show_code
from tui.screens.keys import KeysScreen


async def test_the_hosts_table_shows_its_code_all_game(app_factory, waiter):
    app = app_factory("Ann")
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        table, bob = await host_for_bob(app, pilot, waiter)
        code = show_code(app.backend.hosts[0].table_code)
        assert f"code {code}" in screen_text(app).splitlines()[0]  # the status bar
        app.set_focus(None)
        await pilot.press("question_mark", "enter")
        await waiter.until(pilot, lambda: isinstance(app.screen, KeysScreen), "the keys")
        assert f"Table code {code}" in " ".join(screen_text(app).split())
        await pilot.press("escape")
        await waiter.until(pilot, lambda: app.screen is table, "the table")
        titles = [command.title for command in app.get_system_commands(table)]
        assert f"Table code {code}" in titles
        await bob.close()

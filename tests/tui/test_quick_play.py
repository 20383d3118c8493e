"""Quick play: `b`, a game, Enter: a table against bots on 127.0.0.1, set up as last time."""

from __future__ import annotations

import pytest
from support.flows import play_screen, question
from support.screen_text import screen_text

from engine.catalogue import CATALOGUE
from netplay.table import BOT_PACES
from tui.quick_play import PACE_WORDS, QuickPlay, remember, remembered
from tui.screens.quick_play import QuickPlayScreen
from tui.screens.rules import RulesScreen


def hosted_table(app):
    """The host of the table this app started last, and that table."""
    host = app.backend.hosts[-1]
    (table,) = host.tables.values()
    return host, table


@pytest.mark.parametrize("digit, game_id", [(str(n), g) for n, g in enumerate(CATALOGUE, 1)])
async def test_three_keys_reach_each_games_first_move(app_factory, waiter, digit, game_id):
    """`b`, the game's digit, Enter: the game runs against bots and this seat has a move."""
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g")
        await waiter.until(pilot, lambda: isinstance(app.screen, QuickPlayScreen), "the picker")
        await pilot.press(digit, "enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(
            pilot,
            lambda: table.view is not None
            and (table.seat in table.view["to_act"] or table.view["outcome"]),
            "my first move",
        )
        assert table.view["game"] == game_id and table.view["outcome"] is None
        assert table.board.legal, "the player's first move is offered"
        host, hosted = hosted_table(app)
        assert not host.advertise and host.address[0] == "127.0.0.1"
        assert [s.bot is not None for s in hosted.seats].count(False) == 1
        assert hosted.players == remembered()[1][game_id].players
    assert remembered()[0] == game_id


async def test_the_choice_is_remembered_and_enter_replays_it(app_factory, waiter):
    """Holmes with both villains and beginner bots, set in the picker, comes back with `b`
    then Enter in the next run of the app."""
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g")
        picker = await waiter.until(
            pilot, lambda: isinstance(app.screen, QuickPlayScreen) and app.screen, "the picker"
        )
        await pilot.press("4")
        await waiter.until(pilot, lambda: picker.built == "holmes", "Holmes's settings")
        text = screen_text(app)
        assert "Villains" in text and "Alternative start" in text and "Bots" in text
        assert "Play" in text and "Cancel" in text, "the buttons fit at 80x24"
        villains = picker.query_one("#qp-opt-villains")
        villains.value = list(villains._options).index(
            next(o for o in villains._options if o[0] == "both")
        )
        picker.query_one("#qp-bots").value = "random"
        await pilot.pause()
        await pilot.click("#qp-play")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(pilot, lambda: table.view is not None, "a state")
        _, hosted = hosted_table(app)
        assert hosted.game.options["villains"] == "both" and hosted.bot_level == "random"

    again = app_factory()
    async with again.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        # The first game is still on: the app offers its seat back first. Not now.
        await waiter.until(pilot, lambda: question(again), "the offer")
        await pilot.press("escape", "ctrl+g", "enter")
        table = await waiter.until(pilot, lambda: play_screen(again), "the table")
        await waiter.until(pilot, lambda: table.view is not None, "a state")
        _, hosted = hosted_table(again)
        assert hosted.game_id == "holmes"
        assert hosted.game.options["villains"] == "both" and hosted.bot_level == "random"


async def test_a_stale_remembered_choice_falls_back_to_the_defaults(app_factory):
    """A choice the catalogue no longer allows (9 players of Holmes) is not offered."""
    remember(QuickPlay("timebomb", 6, {"first_player": 5, "claims": False}, "novice"))
    from tui.config import load_setting, save_setting

    stored = load_setting("quick_play")
    stored["games"]["holmes"] = {"players": 9, "options": {"villains": "nobody"}}
    save_setting("quick_play", stored)
    last, choices = remembered()
    assert last == "timebomb" and choices["timebomb"].options["first_player"] == 5
    assert choices["holmes"] == QuickPlay(
        "holmes", 2, CATALOGUE["holmes"].validate_options(2, {}), "smart"
    )


async def test_f1_shows_the_rules_of_the_game_in_focus(app_factory, waiter):
    """In the picker, F1 opens the highlighted game's rules, not Time Bomb's."""
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g", "3", "f1")
        rules = await waiter.until(
            pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen, "the rules"
        )
        assert rules.game_id == "machinations"
        await pilot.press("escape", "escape")
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby")
        # In the lobby with no table listed, F1 follows the game last played against bots.
        remember(QuickPlay("holmes", 2, {}, "smart"))
        await pilot.press("f1")
        rules = await waiter.until(
            pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen, "the rules"
        )
        assert rules.game_id == "holmes"


async def test_the_lan_host_form_fills_the_seats_nobody_is_expected_in(app_factory, waiter):
    """The host form expects two people (you and a friend): bots take the other seats."""
    app = app_factory()
    async with app.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+n")
        form = await waiter.until(
            pilot, lambda: app.screen.query("#host-bots") and app.screen, "the form"
        )
        await waiter.until(pilot, lambda: form.query_one("#host-bots").value == 3, "3 bots at 5")
        form.query_one("#host-players").value = 7
        await waiter.until(pilot, lambda: form.query_one("#host-bots").value == 5, "5 bots at 7")
        form.query_one("#host-bots").value = 4
        await pilot.pause()
        form.query_one("#host-players").value = 6
        await waiter.until(pilot, lambda: form.query_one("#host-bots").value == 3, "3 people kept")


async def test_the_bot_pace_is_a_setting_sent_to_the_host_and_remembered(app_factory, waiter):
    """Slow bots, chosen in the picker: the table's lobby says so, and the next picker too."""
    from textual.widgets import Select

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        app.lobby.action_bots()
        picker = await waiter.until(
            pilot, lambda: isinstance(app.screen, QuickPlayScreen) and app.screen, "the picker"
        )
        await waiter.until(pilot, lambda: picker.query("#qp-pace"), "the pace")
        assert "Bot pace" in screen_text(app)
        picker.query_one("#qp-pace", Select).value = "slow"
        await pilot.pause()
        await pilot.click("#qp-play")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(pilot, lambda: table.lobby.bot_pace == "slow", "slow bots")
    assert remembered()[1][remembered()[0]].bot_pace == "slow"


async def test_the_host_form_sends_the_bot_pace(app_factory, waiter):
    from textual.widgets import Select

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        app.lobby.action_host()
        form = await waiter.until(
            pilot, lambda: app.screen.query("#host-pace") and app.screen, "the form")
        form.query_one("#host-pace", Select).value = "fast"
        await pilot.pause()
        await pilot.click("#host-go")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(pilot, lambda: table.lobby.bot_pace == "fast", "fast bots")


def test_every_bot_pace_of_the_host_has_words_in_the_picker():
    assert PACE_WORDS.keys() == BOT_PACES.keys()


async def open_picker(app, pilot, waiter):
    await pilot.press("ctrl+g")
    return await waiter.until(
        pilot, lambda: isinstance(app.screen, QuickPlayScreen) and app.screen, "the picker")


def row_of(picker, select_id: str):
    return picker.query_one(f"#{select_id}").parent


async def test_the_keyboard_stays_on_the_setting_just_changed(app_factory, waiter):
    """A new player count builds the options anew, and the count keeps the keyboard; so does
    any other setting."""
    from textual.widgets import Select

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        picker = await open_picker(app, pilot, waiter)
        await pilot.press("1", "tab")
        assert app.focused.id == "qp-players"
        more = picker.built_players + 1
        await pilot.press("enter", "down", "enter")
        await waiter.until(pilot, lambda: picker.built_players == more, "one more player")
        await pilot.pause()
        assert app.focused is picker.query_one("#qp-players", Select)
        await pilot.press("tab", "tab")
        claims = app.focused
        assert claims.id == "qp-opt-claims"
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        assert app.focused is claims and picker.read_settings().options["claims"] is False


async def test_the_focused_setting_is_marked_and_lit(app_factory, waiter):
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        picker = await open_picker(app, pilot, waiter)
        await pilot.press("1", "tab", "tab")
        await pilot.pause()
        focused, other = row_of(picker, "qp-opt-first_player"), row_of(picker, "qp-players")
        assert "▸ First cutter" in screen_text(app) and "▸ Players" not in screen_text(app)
        assert focused.styles.background != other.styles.background
        assert focused.styles.background.a > 0


async def test_an_open_list_stands_out_from_the_labels_beside_it(app_factory, waiter):
    from textual.widgets._select import SelectOverlay

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        picker = await open_picker(app, pilot, waiter)
        await pilot.press("1", "tab", "enter")
        await pilot.pause()
        overlay = row_of(picker, "qp-players").query_one(SelectOverlay)
        assert overlay.display and overlay.has_focus
        assert overlay.styles.border_top[0] != "" and overlay.styles.border_left[0] != ""
        assert overlay.styles.background != picker.query_one("#qp-settings").styles.background


async def test_a_tap_on_a_game_picks_it_and_shows_its_settings_without_playing(app_factory,
                                                                              waiter):
    """A finger (or a mouse) on a game's line picks it, as a digit does: its settings are
    shown and nothing starts until Play; a phone reaches Machinations' settings so."""
    from textual.widgets import Button

    from tui.screens.quick_play import GameList

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g")
        picker = await waiter.until(
            pilot, lambda: isinstance(app.screen, QuickPlayScreen) and app.screen, "the picker")
        games = picker.query_one(GameList)
        await pilot.click(GameList, offset=(4, 2))  # the third line: Moriarty's Machinations
        await waiter.until(pilot, lambda: picker.game_id == "machinations", "picked")
        assert app.screen is picker and not app.backend.hosts
        assert "First proposer" in screen_text(app)
        assert games.highlighted == 2
        await pilot.click(Button, offset=(2, 0))  # Play
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        assert table.ticket is not None and hosted_table(app)[1].game_id == "machinations"

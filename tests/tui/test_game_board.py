"""What every game's board shares, checked in every game at 80x24: whose turn the status bar
says, a number that picks and Enter that acts, a word for a key that does nothing, Ctrl+E
hiding the events only this seat may see, and "You won" or "You lost" at the end."""

from __future__ import annotations

import pytest
from support.flows import open_dialog
from support.offline import finished_game, lobby, offline_app, open_table
from support.positions import (
    MACHINATIONS_NAMES,
    arranged_game,
    cutter_game,
    evolution_lobby,
    holmes_game,
    holmes_lobby,
    machinations_game,
    machinations_lobby,
    proposing_at_0,
    variante_game,
)
from support.offline import offline_app as app
from support.screen_text import footer_misses, screen_text

import engine
from engine.catalogue import CATALOGUE
from tui.messages import StateChanged
from tui.models.table_words import play_again_text
from tui.screens.end import EndScreen
from tui.screens.host_table import HostTableScreen
from tui.widgets.event_log import HIDDEN, EventLog


def holmes_at_my_turn() -> engine.Game:
    return next(g for n in range(14, 60) if 0 in (g := holmes_game(n)).to_act())


def mm_lobby(game):
    return machinations_lobby(game.players)


def ev_lobby(game):
    return evolution_lobby(game.players)


def ho_lobby(game):
    return holmes_lobby()


def tb_lobby(game):
    return lobby()


POSITIONS = {
    "timebomb": (cutter_game, tb_lobby),
    "timebomb_evolution": (arranged_game, ev_lobby),
    "machinations": (proposing_at_0, mm_lobby),
    "holmes": (holmes_at_my_turn, ho_lobby),
}
ENDINGS = {
    "timebomb": (finished_game, tb_lobby),
    "timebomb_evolution": (lambda: variante_game(200), ev_lobby),
    "machinations": (lambda: machinations_game(lambda g: False), mm_lobby),
    "holmes": (lambda: holmes_game(1000), ho_lobby),
}


async def opened(application, pilot, game, seat, lobby_message):
    screen = await open_table(application, game, seat, lobby_message)
    await pilot.pause()
    await pilot.pause()
    return screen


def status_bar(application) -> str:
    return screen_text(application).splitlines()[0]


WHOSE_TURN = {
    "timebomb": (lambda g: g.cutter, "✂ your cut", "✂ {} cuts"),
    "timebomb_evolution": (lambda g: 0, "✂ your cut", "✂ {} cuts"),
    "machinations": (lambda g: 0, "your proposal", "{} proposes"),
    "holmes": (lambda g: 0, "your turn", "waiting for {}"),
}


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_the_status_bar_says_whose_turn_it_is(game_id):
    """From the seat the game waits on, and as a spectator, who is named."""
    seat_of, mine, theirs = WHOSE_TURN[game_id]
    build, lobby_of = POSITIONS[game_id]
    game = build()
    seat = seat_of(game)
    assert seat in game.to_act()
    for viewer, expected in ((seat, mine), (None, theirs.format(lobby_of(game)["seats"][seat]["name"]))):
        application = app()
        async with application.run_test(size=(80, 24)) as pilot:
            await opened(application, pilot, game, viewer, lobby_of(game))
            assert status_bar(application).strip().startswith(expected), status_bar(application)


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_the_board_alone_holds_the_view_its_legal_actions_and_its_seat(game_id):
    """The screen keeps no copy to drift from the board's (issue 26): a state's view and
    legal actions go to the board, the screen reads them there, and the board reads whose
    eyes the view is through from the view itself. The next state replaces them all."""
    build, lobby_of = POSITIONS[game_id]
    game = build()
    seat = min(game.to_act())
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        table = await opened(application, pilot, game, seat, lobby_of(game))
        board = table.board
        assert not {"view", "legal"} & vars(table).keys() and "seat" not in vars(board)
        assert table.view is board.view and board.view["viewer"] == board.seat == seat
        assert board.legal == game.legal_actions(seat)
        move = next(a for a in game.legal_actions(seat) if a["type"] not in game.FREE_ACTIONS)
        game.apply(seat, move)
        later, legal = game.view(seat), game.legal_actions(seat)
        table.post_message(StateChanged(later, legal, seat))
        await pilot.pause()
        await pilot.pause()
        assert table.view is later and board.view is later and board.legal is legal
        assert not {"view", "legal"} & vars(table).keys() and "seat" not in vars(board)
        waits = seat in later["to_act"]
        assert board.your_turn is waits
        assert table.query_one("#status-turn").has_class("-yours") is waits


async def test_machinations_status_bar_says_your_vote():
    game = machinations_game(lambda g: g.phase == "vote" and 0 not in g.votes and g.heists)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, 0, machinations_lobby(7))
        assert status_bar(application).strip().startswith("your vote")


async def test_evolution_status_bar_names_who_must_choose():
    game = variante_game(12)
    decider = game.pending["seat"]
    other = (decider + 1) % game.players
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, other, ev_lobby(game))
        name = ev_lobby(game)["seats"][decider]["name"]
        assert status_bar(application).strip().startswith(f"{name} chooses")


async def test_a_digit_picks_a_player_and_enter_acts():
    """Machinations: 2 then Enter adds the second player to the crew, once; the same again
    takes them off. Time Bomb: a number only moves the highlight (and shows in the line);
    Enter offers that player's wires."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, proposing_at_0(), 0, machinations_lobby(7))
        board = application.screen.board
        await pilot.press("2")
        assert board.crew == frozenset()
        await pilot.press("enter")
        assert board.crew == {1}
        await pilot.press("2", "enter")
        assert board.crew == frozenset()
    game = cutter_game()
    target = next(a["target"] for a in game.legal_actions(game.cutter) if a["type"] == "cut")
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        table = await opened(application, pilot, game, game.cutter, lobby())
        await pilot.press(str(target + 1))
        await pilot.pause()
        assert table.board.dialog is None
        assert table.board.choices.highlighted_seat == target
        assert table.query_one("#chat-input").value == str(target + 1)
        await pilot.press("enter")
        for _ in range(3):
            await pilot.pause()
        assert open_dialog(application) is not None
        assert lobby()["seats"][target]["name"] in open_dialog(application).panel_title
        assert table.query_one("#chat-input").value == ""


async def test_a_key_that_does_nothing_says_why():
    """Your own seat's number and Enter, a seat that is not there, a spectator's Enter: a short
    notice instead of silence, once the number is all the line holds at Enter."""
    game = cutter_game()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, game.cutter, lobby())
        await pilot.press(str(game.cutter + 1))
        await pilot.pause()
        assert not application._notifications  # a number may yet begin a sentence
        await pilot.press("enter")
        await pilot.press("7", "enter")
        await pilot.pause()
        messages = [n.message for n in application._notifications]
        assert any("cannot cut your own wires" in m for m in messages), messages
        assert any("There is no seat 7 at this table" in m for m in messages), messages
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, None, lobby())
        await pilot.press("enter")
        await pilot.pause()
        messages = [n.message for n in application._notifications]
        assert any("spectators cannot act" in m for m in messages), messages


def holmes_with_a_secret() -> engine.Game:
    """Holmes only has private events once a seat holds a hidden clue."""
    games = (holmes_game(n) for n in range(14, 100))
    return next(g for g in games if any(e["private"] for e in g.view(0)["events"]))


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_h_hides_the_events_only_this_seat_sees(game_id):
    """The engine marks each private event; Ctrl+E masks exactly those in the log."""
    build, lobby_of = POSITIONS[game_id]
    game = holmes_with_a_secret() if game_id == "holmes" else build()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, 0, lobby_of(game))
        log = application.screen.query_one(EventLog)
        events = game.view(0)["events"]
        private = [e for e in events if e["private"]]
        assert private, "a seat always has a private event: its role, hand or clues"
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert [log.line(e) == HIDDEN for e in events] == [e["private"] for e in events]
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert not any(log.line(e) == HIDDEN for e in events)


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_the_end_screen_says_whether_you_won(game_id):
    build, lobby_of = ENDINGS[game_id]
    game = build()
    assert game.outcome is not None
    for seat in (0, 1, None):
        application = app()
        async with application.run_test(size=(80, 24)) as pilot:
            await opened(application, pilot, game, seat, lobby_of(game))
            assert isinstance(application.screen, EndScreen)
            text = screen_text(application)
            if seat is None:
                assert "You won" not in text and "You lost" not in text
            else:
                expected = "You won" if seat in game.outcome.winners else "You lost"
                assert expected in text


# -- 80x24: what must be on screen without scrolling ----------------------------------------


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_the_end_screen_shows_who_asked_for_another_game_without_scrolling(game_id):
    """Issue 35: at 80x24 the line of who asked for another game was below the fold."""
    build, lobby_of = ENDINGS[game_id]
    game = build()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, 0, lobby_of(game))
        assert isinstance(application.screen, EndScreen)
        application.screen.show_play_again(play_again_text(["Bob"], ["you", "Cat"], False))
        await pilot.pause()
        text = screen_text(application)
        assert "Another game? Asked: Bob. Waiting for: you, Cat." in text
        assert footer_misses(application) == []


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_the_host_form_shows_its_buttons_at_80x24(game_id):
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(HostTableScreen("Ada", game_id))
        await pilot.pause()
        text = screen_text(application)
        assert "Host " in text and "Cancel" in text
        from engine.catalogue import CATALOGUE

        for option in CATALOGUE[game_id].options:
            assert f"{option.title} " in text, option.title
        assert "[" not in text and "random_one" not in text


async def test_the_host_form_takes_a_table_name_as_long_as_the_host_keeps():
    """The name box stops where the host would cut the name: nothing is lost silently."""
    from textual.widgets import Input

    from netplay.protocol import MAX_NAME

    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(HostTableScreen("Ada"))
        await pilot.pause()
        name = application.screen.query_one("#host-name", Input)
        name.focus()
        name.value = ""
        await pilot.press(*"x" * (MAX_NAME + 5))
        assert name.value == "x" * MAX_NAME


async def test_holmes_late_in_the_game_shows_both_areas_at_80x24():
    """Whose turn, what you hold, what you can do and your opponent's whole area, unscrolled:
    an area's side is written on its bottom border, so seeing both sides sees both areas."""
    game = next(g for n in range(88, 100) if 0 in (g := holmes_game(n)).to_act())
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, 0, holmes_lobby())
        text = screen_text(application)
        assert "Ada (you)" in text and "Your turn" in text and "^k Choose" in text
        assert "Bot 2 ─" in text and "Sherlock ─" in text and "Mycroft ─" in text
        assert "hidden 3: " in text and "The line" in text
        await pilot.press("ctrl+k")
        await pilot.pause()
        assert "↑↓, Enter" in screen_text(application)  # the dialog's keys


async def test_holmes_lays_itself_out_again_when_the_terminal_shrinks_or_grows():
    """From 120x40 to 80x24 the areas move to the top, side by side, and back again; the
    characters list keeps the keyboard."""
    game = next(g for n in range(88, 100) if 0 in (g := holmes_game(n)).to_act())
    application = app()
    async with application.run_test(size=(120, 40)) as pilot:
        await opened(application, pilot, game, 0, holmes_lobby())
        board = application.screen.board
        for size, short in (((80, 24), True), ((120, 40), False)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            text = screen_text(application)
            assert board.composed_short is short
            assert "Mycroft ─" in text and "The line" in text
            assert ("hidden 3: " in text) is short
            assert application.focused is application.screen.query_one("#chat-input")


async def test_machinations_at_ten_players_keeps_the_record_in_view():
    game = machinations_game(lambda g: g.phase == "vote" and len(g.heists) >= 4 and 0 not in g.votes,
                         n=10, seed=5)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, 0, machinations_lobby(10))
        text = screen_text(application)
        assert all(name in text for name in MACHINATIONS_NAMES[:10])
        assert "Heists" in text and "proposes" in text
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.pause()
        text = screen_text(application)
        assert "1 Approve" in text and "2 Object" in text


async def test_heist_card_dialog_a_digit_picks_and_enter_plays():
    """The first legal card is highlighted; 2 moves it to Foil; Enter plays Foil. An illegal
    card's number, with Enter, says why instead; a letter plays nothing."""
    from tui.games.machinations.dialogs import card_panel

    game = machinations_game(lambda g: g.phase == "heist" and 0 in g.to_act(), n=7, seed=5)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        table = await opened(application, pilot, game, 0, machinations_lobby(7))
        sent: list = []
        table.board.send = lambda action: sent.append(action)
        table.board.open_dialog(card_panel(("abet", "foil")), table.board.send,
                                [{"type": "play", "card": c} for c in ("abet", "foil")])
        for _ in range(3):
            await pilot.pause()
        await pilot.press("3", "enter")
        await pilot.pause()
        assert any("numbered 3" in n.message for n in application._notifications)
        await pilot.press("f", "o", "i", "l")
        assert sent == [] and open_dialog(application) is not None
        await pilot.press("ctrl+u", "2")  # the line emptied, then a number
        assert sent == []
        await pilot.press("enter")
        await pilot.pause()
    assert sent == [{"type": "play", "card": "foil"}]


def test_names_are_cut_by_terminal_cells_so_columns_stay_in_line():
    """An emoji or a CJK letter takes two cells: rows pad and cut by cells, not characters."""
    from rich.cells import cell_len

    from tui.widgets.player_list import fit_cells, name_cell

    for name in ("Ann", "Ann 🎩 the Great", "福尔摩斯先生福尔摩斯先生", "🎩🎩🎩🎩🎩🎩🎩🎩🎩"):
        assert cell_len(fit_cells(name, 10)) == 10
        cell = name_cell(name, you=True, status="", width=14)
        assert cell_len(cell) == 14 and cell.rstrip().endswith("(you)")
    assert fit_cells("Ann 🎩 the Great", 8) == "Ann 🎩 …"


async def test_the_log_wraps_again_after_a_resize():
    game = cutter_game()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await opened(application, pilot, game, game.cutter, lobby())
        log = application.screen.query_one(EventLog)
        narrow = len(log.lines)
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        await pilot.pause()
        assert len(log.lines) < narrow
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert len(log.lines) == narrow


async def test_the_game_keys_work_when_the_table_opened_before_its_first_state():
    """A table opens in its waiting room, before any board: the chat line has the keyboard
    from the first, and the board's keys work as soon as it is drawn, whatever has the
    focus (the keyboard, not the focus, decides where a key goes)."""
    game = cutter_game()
    target = next(a["target"] for a in game.legal_actions(game.cutter) if a["type"] == "cut")
    application = offline_app()
    async with application.run_test(size=(80, 24)) as pilot:
        table = await open_table(application, None, game.cutter, lobby(phase="waiting"))
        await pilot.pause()
        assert table.focused is table.query_one("#chat-input")
        table.post_message(StateChanged(game.view(game.cutter), game.legal_actions(game.cutter),
                                        game.cutter))
        for _ in range(3):
            await pilot.pause()
        application.set_focus(None)
        await pilot.press(str(target + 1), "enter")
        for _ in range(3):
            await pilot.pause()
        assert open_dialog(application) is not None


async def test_switching_game_in_the_host_form_keeps_the_seats_it_can_and_says_what_changed():
    """Issue 35: Time Bomb's 5 seats and 3 bots stay 5 and 3 at Évolution (4-6); Holmes (2)
    takes 2 seats and 0 bots, and says so."""
    from textual.widgets import Select

    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(HostTableScreen("Ada", "timebomb"))
        await pilot.pause()
        form = application.screen
        assert (form.players, form.bots) == (5, 3)
        form.query_one("#host-game", Select).value = "timebomb_evolution"
        await pilot.pause()
        assert (form.game_id, form.players, form.bots) == ("timebomb_evolution", 5, 3)
        assert not application._notifications
        form.query_one("#host-game", Select).value = "holmes"
        await pilot.pause()
        assert (form.players, form.bots) == (2, 0)
        [said] = [n.message for n in application._notifications]
        assert "Players 5 → 2" in said and "Bots 3 → 0" in said
        assert form.request().players == 2 and form.request().bots == 0


async def test_ctrl_n_starts_from_the_last_table_hosted(tmp_path, monkeypatch):
    """The host form remembers the last table: its game, name, seats, bots, pace and options
    (issue 42); a stale remembered table gives the defaults."""
    from textual.widgets import Input, Select

    from tui.config import save_setting
    from tui.table_request import SETTING, TableRequest, last_table, remember_table

    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    remember_table(TableRequest("timebomb_evolution", 6, {"variante": True}, "Friday Club", 3,
                                "slow"))
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(HostTableScreen("Ada", last=last_table()))
        await pilot.pause()
        await pilot.pause()
        form = application.screen
        request = form.request()
        assert request == TableRequest("timebomb_evolution", 6,
                                       {**request.options, "variante": True}, "Friday Club", 3,
                                       "slow")
        assert form.query_one("#host-name", Input).value == "Friday Club"
        assert form.query_one("#host-pace", Select).value == "slow"
    save_setting(SETTING, {"game": "timebomb", "players": 99})
    assert last_table() is None

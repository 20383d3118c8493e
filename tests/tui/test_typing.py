"""Typing is safe: a sentence typed at a table without pressing anything first goes to the chat
whole, and asks the host for nothing else, on the waiting room, the table and the end screen."""

from __future__ import annotations

import pytest
from support.flows import SENTENCE, play_screen, post_burst
from support.offline import (
    finished_game,
    lobby,
    open_table,
    seeded_game,
    skip_claim_offer,
)
from support.positions import (
    TIMEBOMB_EVOLUTION,
    arranged_game,
    holmes_game,
    holmes_lobby,
    machinations_lobby,
    proposing_at_0,
)
from support.offline import offline_app as app
from support.screen_text import screen_text

from engine.catalogue import CATALOGUE
from netplay.protocol import Chat, PlayAgain
from tui.messages import ChatReceived
from tui.screens.confirm import ConfirmScreen
from tui.screens.end import EndScreen
from tui.screens.keys import KeysScreen
from tui.screens.play import PlayScreen


def recording(screen: PlayScreen) -> list[dict]:
    """What the screen sends the host, recorded instead of sent."""
    sent: list[dict] = []
    screen.send = sent.append
    return sent


async def type_sentence(pilot) -> None:
    await pilot.press(*SENTENCE, "enter")
    await pilot.pause()


async def test_typing_in_the_waiting_room_goes_to_the_chat_only():
    """The table's host, in the waiting room with a free seat: nothing starts, no bot sits."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        waiting = lobby(phase="waiting")
        waiting["seats"][4] = {"seat": 4, "name": "", "kind": "empty", "connected": False}
        screen = await open_table(application, None, 0, waiting)
        await pilot.pause()
        assert screen.check_action("start", ()) and screen.check_action("add_bot", ())
        sent = recording(screen)
        await type_sentence(pilot)
        assert sent == [Chat(SENTENCE)]
        assert application.screen is screen
        assert screen.query_one("#chat-input").value == ""


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_typing_at_the_table_goes_to_the_chat_only(game_id):
    """At the player's turn, with claims and dialogs on offer: only the chat line is sent,
    and no dialog opened."""
    build, lobby_message = {
        "timebomb": (lambda: seeded_game(0), lambda g: lobby()),
        "timebomb_evolution": (arranged_game, lambda g: lobby(players=g.players, game=TIMEBOMB_EVOLUTION)),
        "machinations": (proposing_at_0, lambda g: machinations_lobby(g.players)),
        "holmes": (lambda: next(g for n in range(14, 60) if 0 in (g := holmes_game(n)).to_act()),
                   lambda g: holmes_lobby()),
    }[game_id]
    game = build()
    seat = min(game.to_act()) if game_id == "timebomb" else 0
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat, lobby_message(game))
        await pilot.pause()
        await pilot.pause()
        sent = recording(screen)
        await type_sentence(pilot)
        assert sent == [Chat(SENTENCE)]
        assert application.screen is screen
        assert not screen.board.secret_hidden


async def at_the_end(application, pilot):
    """A finished game's table, opened at seat 0, once its end screen is up: the table."""
    screen = await open_table(application, finished_game(), 0)
    while not isinstance(application.screen, EndScreen):
        await pilot.pause()
    return screen


async def test_typing_on_the_end_screen_goes_to_the_chat_only():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await at_the_end(application, pilot)
        sent = recording(screen)
        await type_sentence(pilot)
        assert sent == [Chat(SENTENCE)]
        assert isinstance(application.screen, EndScreen)
        # What the host says back shows in the end screen's chat.
        screen.on_chat_received(ChatReceived("Ada", "gg", "table"))
        await pilot.pause()
        assert "Ada: gg" in screen_text(application)


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
async def test_quitting_at_a_running_game_asks_first(key):
    """Ctrl+C, a terminal's stop key, quits as Ctrl+Q does instead of Textual's quit hint."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        application.set_focus(None)  # the chat line's own Ctrl+C copies
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(application.screen, ConfirmScreen)
        assert "Quit Gaslight?" in screen_text(application)
        await pilot.press("escape")
        await pilot.pause()
        assert application.screen is screen and application.is_running


async def test_the_keys_list_shows_each_key_once_and_each_description_whole():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(application.screen, KeysScreen)
        await pilot.pause(0.2)
        # The dialog's lines, between its side borders.
        text = " ".join(" ".join(line.split("█")[1:-1]) for line in screen_text(application)
                        .splitlines() if line.count("█") >= 2)
        text = " ".join(text.split())
        for whole in ("Any letter you type goes to the chat (Enter sends, Esc comes back)",
                      "Claim in public what you hold (a bluff is fine)",
                      "Hide your hand and your private log lines from onlookers",
                      "Quit Gaslight (at a running game it asks first)"):
            assert whole in text
        keys = [row[0] for row in application.screen.keys]
        assert len(keys) == len(set(keys))
        assert text.count("^q") == 1


async def test_a_sentence_in_a_hosted_waiting_room_starts_nothing(app_factory, waiter):
    """The issue's evening, on a real host: the table's host types a sentence in the waiting
    room; the table still waits, with the same seats, and the sentence comes back as chat."""
    from textual.widgets import RichLog

    application = app_factory("Ann")
    async with application.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        application.lobby.action_host()
        await waiter.until(pilot, lambda: application.screen.query("#host-go"), "the form")
        application.screen.query_one("#host-players").value = 4
        await pilot.pause()
        await pilot.click("#host-go")
        table = await waiter.until(pilot, lambda: play_screen(application), "the table")
        await waiter.until(pilot, lambda: table.lobby.phase == "waiting", "the lobby")
        seats = table.lobby.seats
        await type_sentence(pilot)
        chat = table.query_one("#chat-log", RichLog)
        await waiter.until(
            pilot, lambda: f"Ann: {SENTENCE}" in " ".join(
                " ".join(line.text for line in chat.lines).split()), "the chat line"
        )
        assert table.lobby.phase == "waiting" and table.lobby.seats == seats
        assert table.view is None and application.screen is table


async def test_a_sentence_typed_in_one_burst_reaches_the_chat_whole():
    """A terminal delivers a fast typist's keys together, before the chat box has the focus:
    a `?` or a digit inside the sentence is text too, on the table and the end screen."""
    burst = "gg, 2 more? yes"
    for game in (seeded_game(0), finished_game()):
        application = app()
        async with application.run_test(size=(80, 24)) as pilot:
            screen = await open_table(application, game, 0)
            await pilot.pause()
            while game.outcome is not None and not isinstance(application.screen, EndScreen):
                await pilot.pause()
            sent = recording(screen)
            post_burst(application, burst)
            await pilot.pause()
            await pilot.pause()
            assert sent == [Chat(burst)]


async def test_a_key_that_reaches_the_chat_late_goes_where_it_was_typed():
    """A busy machine (a browser's keys come in bursts) can hand the chat line a key typed
    before the keys it took itself: the first keys of a sentence reach the board, which had
    the keyboard, and come to the line through the screen. Each goes where it was typed."""
    from textual import events
    from textual.widgets import OptionList

    from tui.widgets.chat_panel import ChatInput

    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        sent = recording(screen)
        board_list = screen.board.query(OptionList).first()
        g, o, o_again, d = (events.Key(c, c) for c in "good")  # pressed in this order
        board_list.post_message(g)  # comes to the screen: the line takes the keyboard
        await pilot.pause()
        line = screen.query_one(ChatInput)
        assert application.focused is line and line.value == "g"
        line.post_message(o_again)  # these two reach the line itself first...
        line.post_message(d)
        await pilot.pause()
        board_list.post_message(o)  # ...and the key typed before them, through the board
        await pilot.pause()
        assert line.value == "good" and line.cursor_position == 4
        await pilot.press("enter")
        await pilot.pause()
        assert sent == [Chat("good")]


async def test_a_digit_right_behind_a_sentence_and_enter_picks_a_player():
    """"cutting Bob now", Enter and 3, as fast as a terminal sends them, all reaching the board
    before the chat line has the keyboard: the line goes without the digit, and the digit
    picks its seat (not the one highlighted already), as it would have after a pause."""
    from support.positions import cutter_game
    from textual import events

    from tui.games.timebomb.board import TargetList

    game = cutter_game()
    seat = game.cutter
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        await pilot.pause()
        targets = screen.query_one(TargetList)
        picked = next(s for s in range(game.players) if s not in (seat, targets.highlighted_seat))
        sent = recording(screen)
        post_burst(application, "cutting Bob now")
        application.post_message(events.Key(str(picked + 1), str(picked + 1)))
        for _ in range(8):
            await pilot.pause()
        assert sent == [Chat("cutting Bob now")]
        assert application.focused is targets and targets.highlighted_seat == picked


async def test_a_sentence_typed_at_an_open_dialog_closes_it_and_goes_to_the_chat():
    """The cutter picked a player and the wires are offered; an Évolution decider has the
    decision open: a sentence typed there, slowly or in one burst, is chat and answers
    nothing. The dialog is gone, and the turn still waits for the player."""
    from support.positions import cutter_game, evolution_lobby, variante_game

    from tui.games.timebomb.dialogs import CutScreen
    from tui.widgets.action_picker import ActionPicker

    decision = variante_game(12)
    for game, lobby_message, dialog in ((cutter_game(), lobby(), CutScreen),
                                        (decision, evolution_lobby(decision.players),
                                         ActionPicker)):
        seat = min(game.to_act())
        for typing in ("slowly", "in one burst"):
            application = app()
            async with application.run_test(size=(80, 24)) as pilot:
                screen = await open_table(application, game, seat, lobby_message)
                await pilot.pause()
                await skip_claim_offer(pilot)
                if dialog is CutScreen:
                    target = next(a["target"] for a in game.legal_actions(seat)
                                  if a["type"] == "cut")
                    await pilot.press(str(target + 1), "enter")
                else:
                    await pilot.press("ctrl+d")
                await pilot.pause()
                assert isinstance(application.screen, dialog), typing
                sent = recording(screen)
                if typing == "slowly":
                    await type_sentence(pilot)
                else:
                    post_burst(application, SENTENCE)
                    await pilot.pause()
                    await pilot.pause()
                assert sent == [Chat(SENTENCE)], typing
                assert application.screen is screen
                assert screen.board.your_turn


# -- a sentence is chat from its first key (issue 35) ------------------------------------------


async def test_a_sentence_that_starts_with_a_digit_is_chat_whole_and_picks_nothing():
    """The cutter's own seat number, then a space: the line arrives whole, the pick the digit
    made is undone, and no refusal is shown, then or later."""
    from support.positions import cutter_game

    from tui.widgets.player_list import PlayerList
    from tui.widgets.sentence_start import SENTENCE_GAP

    game = cutter_game()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, game.cutter, lobby())
        await skip_claim_offer(pilot)
        players = screen.query_one(PlayerList)
        highlighted = players.highlighted
        sent = recording(screen)
        line = f"{game.cutter + 1} defusing here, honest"
        await pilot.press(*line, "enter")
        await pilot.pause(SENTENCE_GAP + 0.2)
        assert sent == [Chat(line)]
        assert players.highlighted == highlighted
        assert not [n for n in application._notifications if "cannot" in n.message]


async def test_a_sentence_typed_in_the_cut_dialog_never_cuts():
    from support.positions import cutter_game

    from tui.games.timebomb.dialogs import CutScreen

    game = cutter_game()
    target = next(a["target"] for a in game.legal_actions(game.cutter) if a["type"] == "cut")
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, game.cutter, lobby())
        await skip_claim_offer(pilot)
        await pilot.press(str(target + 1), "enter")
        await pilot.pause()
        assert isinstance(application.screen, CutScreen)
        sent = recording(screen)
        await pilot.press(*"3 secs, thinking", "enter")
        await pilot.pause()
        assert sent == [Chat("3 secs, thinking")]
        assert application.screen is screen and screen.board.your_turn


async def test_after_a_chat_line_the_games_keys_work_at_once():
    """Enter sends the line and gives the keyboard back to the board: Ctrl+K claims at
    once, and Esc from the chat box goes back to the board, never offering to leave."""
    from tui.widgets.action_picker import ActionPicker
    from tui.widgets.player_list import PlayerList

    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        await pilot.press(*"5 is lying", "enter")
        await pilot.pause()
        assert isinstance(screen.focused, PlayerList)
        assert screen.check_action("claim", ()) is not False
        await pilot.press("ctrl+k")
        await pilot.pause()
        assert isinstance(application.screen, ActionPicker)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press(*"hm")
        await pilot.press("escape")
        await pilot.pause()
        assert application.screen is screen and isinstance(screen.focused, PlayerList)


async def test_play_again_shows_at_once_that_you_asked():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await at_the_end(application, pilot)
        sent = recording(screen)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert sent == [PlayAgain()]
        assert any("You asked for another game" in n.message
                   for n in application._notifications)
        # And the end screen's line of who asked, below its fold at 80x24, says so too.
        assert "You asked." in str(application.screen.query_one("#end-again").render())


async def test_a_game_key_pressed_with_the_line_still_in_the_chat_box_reaches_the_game():
    """A terminal delivers Ctrl+K as fast as the Enter before it, while the chat box still
    has the keyboard: the box does not take it for its own editing, the table does."""
    from tui.widgets.action_picker import ActionPicker

    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        await pilot.press(*"hmm")
        assert screen.focused is screen.query_one("#chat-input")
        await pilot.press("ctrl+k")
        await pilot.pause()
        assert isinstance(application.screen, ActionPicker)
        assert screen.query_one("#chat-input").value == "hmm"  # kept for later

"""Every key where its person put it (issue 41; tui/README.md, "The table's keyboard").

Text arrives exactly as typed, at any speed: key by key, and in bursts posted back to back
(a fast typist, a terminal's one write, a phone keyboard's word), on every screen that takes
text, with every table dialog of the four games open and another player moving meanwhile. A
sentence never makes a choice, a key typed against one state never chooses in the next, and
typing never closes what is open.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from support.flows import SENTENCE, claim_offer, open_dialog, post_burst, question
from support.offline import (
    finished_game,
    lobby,
    open_table,
    seeded_game,
    skip_claim_offer,
)
from support.offline import offline_app as app
from support.positions import (
    TIMEBOMB_EVOLUTION,
    cutter_game,
    evolution_lobby,
    holmes_game,
    holmes_lobby,
    machinations_game,
    machinations_lobby,
    proposing_at_0,
    variante_game,
)
from support.screen_text import screen_text
from support.sentences import sentences
from textual import events
from textual.keys import _character_to_key

import engine
from netplay.protocol import Act, Chat, PlayAgain
from tui.messages import ChatReceived, StateChanged
from tui.screens.end import EndScreen
from tui.screens.keys import KeysScreen
from tui.screens.leaving import LOBBY, QUIT, STAY
from tui.screens.play import PlayScreen
from tui.widgets.chat_panel import ChatInput


def recording(screen: PlayScreen) -> list:
    """What the screen sends the host, recorded instead of sent."""
    sent: list = []
    screen.send = sent.append
    return sent


def key(character: str) -> events.Key:
    return events.Key(_character_to_key(character), character)


# -- sentences as people type them -------------------------------------------------------------

def post_keys(application, text: str) -> None:
    for character in text:
        application.post_message(key(character))


def post_lines(application, lines: list[str], meanwhile: Callable[[], None]) -> None:
    """Every line and its Enter posted back to back, before the app takes the first key, with
    another player's move posted halfway."""
    keys = [k for line in lines for k in [*map(key, line), events.Key("enter", "\r")]]
    for n, event in enumerate(keys):
        if n == len(keys) // 2:
            meanwhile()
        application.post_message(event)


async def settle(pilot, rounds: int = 4) -> None:
    for _ in range(rounds):
        await pilot.pause()


# -- every table dialog of the four games, with another player moving meanwhile ----------------


def claimed_by_another(game: engine.Game, seat: int) -> engine.Game:
    """The same moment, after another seat's claim: a move that changes nothing of `seat`'s
    choices."""
    other = next(s for s in range(game.players) if s != seat and any(
        a["type"] == "claim" for a in game.legal_actions(s)))
    game.apply(other, next(a for a in game.legal_actions(other) if a["type"] == "claim"))
    return game


def voted_by_another(game: engine.Game, seat: int) -> engine.Game:
    other = next(s for s in sorted(game.to_act()) if s != seat)
    game.apply(other, next(a for a in game.legal_actions(other) if a["type"] == "vote"))
    return game


async def open_claim_offer(pilot, screen, game, seat) -> None:
    for _ in range(10):
        if claim_offer(pilot.app):
            return
        await pilot.pause()
    raise AssertionError("no claim offer")


async def pick_a_target(pilot, screen, game, seat) -> None:
    await skip_claim_offer(pilot)
    target = next(a["target"] for a in game.legal_actions(seat) if a["type"] == "cut")
    await pilot.press(*str(target + 1), "enter")


def evolution_decision() -> engine.Game:
    return variante_game(12)


def holmes_at_my_turn() -> engine.Game:
    return next(g for n in range(14, 60) if 0 in (g := holmes_game(n)).to_act())


def machinations_vote() -> engine.Game:
    return machinations_game(lambda g: g.phase == "vote" and 0 not in g.votes and g.heists)


def machinations_heist() -> engine.Game:
    return machinations_game(lambda g: g.phase == "heist" and 0 in g.proposal["crew"]
                             and 0 not in g.cards_in)


def machinations_accusation() -> engine.Game:
    return machinations_game(lambda g: g.phase == "accusation")


def first_accuser_target(game, seat) -> int:
    return next(a["target"] for a in game.legal_actions(seat) if a["type"] == "accuse")


DIALOGS: dict[str, tuple[Callable[[], engine.Game], Callable[[engine.Game], int], dict,
                         Any, Callable | None]] = {
    # name: (the game, the seat, its lobby, how to open the dialog, another player's move)
    "timebomb claim offer": (lambda: seeded_game(0), lambda g: (g.cutter + 1) % 5, lobby(),
                             open_claim_offer, claimed_by_another),
    "timebomb wires to cut": (cutter_game, lambda g: g.cutter, lobby(), pick_a_target,
                              claimed_by_another),
    "timebomb claim (ctrl+k)": (cutter_game, lambda g: g.cutter, lobby(), "ctrl+k",
                                claimed_by_another),
    "évolution claim offer": (lambda: engine.new_game(TIMEBOMB_EVOLUTION, 5, {}, 7),
                              lambda g: (next(iter(g.to_act())) + 1) % 5,
                              evolution_lobby(), open_claim_offer, claimed_by_another),
    "évolution decision": (evolution_decision, lambda g: g.pending["seat"], evolution_lobby(),
                           None, None),
    "machinations vote": (machinations_vote, lambda g: 0, machinations_lobby(7), "ctrl+t",
                          voted_by_another),
    "machinations heist card": (machinations_heist, lambda g: 0, machinations_lobby(7),
                                "ctrl+k", None),
    "machinations accusation": (machinations_accusation, lambda g: min(g.to_act()),
                                machinations_lobby(7), "accuse", None),
    "holmes move": (holmes_at_my_turn, lambda g: 0, holmes_lobby(), "ctrl+k", None),
}


@pytest.mark.parametrize("name", list(DIALOGS))
async def test_bursts_of_sentences_at_every_dialog_are_chat_whole_and_the_dialog_stays(name):
    """Ten generated sentences, each with its Enter, posted back to back with the dialog open
    and another player moving (or talking) halfway: each reaches the chat as typed, in order,
    no action is sent, no "no seat" notice shows, and the dialog is still open, its highlight
    where it was."""
    build, seat_of, lobby_message, opening, another_moves = DIALOGS[name]
    game = build()
    seat = seat_of(game)
    lines = sentences(list(DIALOGS).index(name), 10)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat, lobby_message)
        await settle(pilot)
        if isinstance(opening, str) and opening != "accuse":
            await skip_claim_offer(pilot)
            await pilot.press(opening)
        elif opening == "accuse":
            await pilot.press(*str(first_accuser_target(game, seat) + 1), "enter")
        elif opening is not None:
            await opening(pilot, screen, game, seat)
        await settle(pilot)
        dialog = open_dialog(application)
        assert dialog is not None, name
        highlighted = dialog.choice_list.highlighted
        sent = recording(screen)

        def meanwhile() -> None:
            if another_moves is None:
                screen.post_message(ChatReceived("Bot 2", "hmm", "table"))
                return
            moved = another_moves(game, seat)
            screen.post_message(StateChanged(moved.view(seat), moved.legal_actions(seat), seat))

        post_lines(application, lines, meanwhile)
        await settle(pilot, 8)
        assert sent == [Chat(line) for line in lines], name
        assert open_dialog(application) is dialog
        assert dialog.choice_list.highlighted == highlighted
        assert not [n for n in application._notifications if "no seat" in n.message]


async def test_bursts_on_the_table_in_every_game_the_waiting_room_and_as_a_spectator():
    """The same, with no dialog: the table of each game (its list of players or characters
    under the keys), the waiting room, and a spectator's seat."""
    tables = [
        (cutter_game(), lambda g: g.cutter, lobby()),
        (variante_game(10), lambda g: min(g.to_act()), evolution_lobby()),
        (proposing_at_0(), lambda g: 0, machinations_lobby(7)),
        (holmes_at_my_turn(), lambda g: 0, holmes_lobby()),
        (None, lambda g: 0, lobby(phase="waiting")),
        (cutter_game(), lambda g: None, lobby()),
    ]
    for n, (game, seat_of, lobby_message) in enumerate(tables):
        seat = seat_of(game)
        lines = sentences(100 + n, 8)
        application = app()
        async with application.run_test(size=(80, 24)) as pilot:
            screen = await open_table(application, game, seat, lobby_message)
            await settle(pilot)
            await skip_claim_offer(pilot)
            chosen = screen.board.choices.highlighted if screen.board else None
            sent = recording(screen)
            post_lines(application, lines,
                       lambda: screen.post_message(ChatReceived("Bot 2", "hmm", "table")))
            await settle(pilot, 8)
            assert sent == [Chat(line) for line in lines], n
            assert screen.board is None or screen.board.dialog is None
            if screen.board is not None and screen.board.choices is not None:
                assert screen.board.choices.highlighted == chosen


async def test_bursts_on_the_end_screen():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await at_the_end(application, pilot)
        lines = sentences(7, 8)
        sent = recording(screen)
        post_lines(application, lines, lambda: None)
        await settle(pilot, 6)
        assert sent == [Chat(line) for line in lines]
        assert isinstance(application.screen, EndScreen)
        # What the host says back shows in the end screen's chat.
        screen.on_chat_received(ChatReceived("Ada", "gg", "table"))
        await pilot.pause()
        assert "Ada: gg" in screen_text(application)


async def at_the_end(application, pilot):
    """A finished game's table, opened at seat 0, once its end screen is up: the table."""
    screen = await open_table(application, finished_game(), 0)
    while not isinstance(application.screen, EndScreen):
        await pilot.pause()
    await pilot.pause()
    return screen


async def test_key_by_key_is_the_same_as_in_a_burst():
    """Keys pressed one at a time, the app idle between them, at the cut dialog."""
    game = cutter_game()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, game.cutter, lobby())
        await settle(pilot)
        await pick_a_target(pilot, screen, game, game.cutter)
        await settle(pilot)
        assert open_dialog(application) is not None
        sent = recording(screen)
        for line in sentences(3, 3) + [SENTENCE]:
            await pilot.press(*map(_character_to_key, line), "enter")
        assert sent == [Chat(line) for line in sentences(3, 3) + [SENTENCE]]
        assert open_dialog(application) is not None


async def test_a_paste_is_one_piece_in_the_line_and_never_sends_or_chooses():
    """A bracketed paste with line breaks, at the claim offer: it lands in the line as one
    line, nothing is sent or claimed until the person presses Enter."""
    game = seeded_game(0)
    seat = (game.cutter + 1) % 5
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        await open_claim_offer(pilot, screen, game, seat)
        sent = recording(screen)
        application.post_message(events.Paste("3 of us here\n\nand 2 safe\n"))
        await settle(pilot)
        assert sent == [] and claim_offer(application)
        assert screen.query_one(ChatInput).value == "3 of us here  and 2 safe"
        await pilot.press("enter")
        await pilot.pause()
        assert sent == [Chat("3 of us here  and 2 safe")]


# -- a sentence never makes a choice -----------------------------------------------------------


async def test_a_sentence_at_the_secret_vote_casts_no_vote():
    """The issue's "all good here" at Machinations' vote: chat whole, no vote, the vote still
    open; then its digit and Enter vote."""
    game = machinations_vote()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, 0, machinations_lobby(7))
        await settle(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)
        sent = recording(screen)
        await pilot.press(*"all good here", "enter")
        assert sent == [Chat("all good here")] and open_dialog(application) is not None
        await pilot.press("1", "enter")
        await pilot.pause()
        assert sent == [Chat("all good here"), Act({"type": "vote", "approve": True})]


async def test_a_sentence_that_starts_with_a_number_picks_nothing_and_raises_no_notice():
    """"7th" at a table of five, the cutter's own number, "3rd cut is mine": each arrives
    whole; the highlight the number moved goes back; nothing is refused."""
    game = cutter_game()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, game.cutter, lobby())
        await settle(pilot)
        await skip_claim_offer(pilot)
        players = screen.board.choices
        highlighted = players.highlighted
        sent = recording(screen)
        lines = ["7th wire is mine", f"{game.cutter + 1} defusing here, honest",
                 "3rd cut is mine", "10 wires to go, 3 safe"]
        for line in lines:
            await pilot.press(*map(_character_to_key, line))
            assert players.highlighted == highlighted
            await pilot.press("enter")
        post_burst(application, "2 more secs, thinking")
        await settle(pilot)
        assert sent == [Chat(line) for line in lines] + [Chat("2 more secs, thinking")]
        assert players.highlighted == highlighted and screen.board.dialog is None
        assert not application._notifications


async def test_a_number_then_enter_picks_and_a_number_and_a_space_is_said():
    game = cutter_game()
    target = next(a["target"] for a in game.legal_actions(game.cutter) if a["type"] == "cut")
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, game.cutter, lobby())
        await settle(pilot)
        await skip_claim_offer(pilot)
        sent = recording(screen)
        await pilot.press(str(target + 1), "space", "enter")
        assert sent == [Chat(str(target + 1))] and screen.board.dialog is None
        await pilot.press(str(target + 1), "enter")
        await settle(pilot)
        assert open_dialog(application) is not None


# -- Enter after a line, game keys after a line ------------------------------------------------


async def test_every_enter_after_a_chat_line_acts():
    """"cutting Bob now", Enter, then Enter again, in one burst: the first sends the line,
    the second acts on the highlighted player (the cut opens); a digit right behind the
    line picks its seat."""
    game = cutter_game()
    seat = game.cutter
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat, lobby())
        await settle(pilot)
        await skip_claim_offer(pilot)
        targets = screen.board.choices
        picked = next(s for s in range(game.players)
                      if s not in (seat, targets.highlighted_seat)
                      and {"type": "cut", "target": s} in game.legal_actions(seat))
        sent = recording(screen)
        post_burst(application, "cutting Bob now")
        post_keys(application, str(picked + 1))
        application.post_message(events.Key("enter", "\r"))
        await settle(pilot)
        assert sent == [Chat("cutting Bob now")]
        dialog = open_dialog(application)
        assert dialog is not None and f"{screen.seats[picked].name}'s" in dialog.panel_title


async def test_a_game_key_right_behind_a_line_reaches_the_game_and_leaves_the_line():
    game = seeded_game(0)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, 0)
        await skip_claim_offer(pilot)
        await pilot.press(*"hmm")
        await pilot.press("ctrl+k")
        await settle(pilot)
        assert open_dialog(application) is not None
        assert screen.query_one(ChatInput).value == "hmm"  # kept for later


async def test_esc_clears_a_line_of_words_and_then_asks_to_leave():
    game = seeded_game(0)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, 0)
        await skip_claim_offer(pilot)
        await pilot.press(*"oops")
        await pilot.press("escape")
        assert screen.query_one(ChatInput).value == "" and application.screen is screen
        await pilot.press("escape")
        await settle(pilot)
        assert question(application) is not None


# -- a key typed against one state never chooses in the next -----------------------------------


async def test_an_enter_typed_before_the_cut_was_offered_cuts_nothing():
    """The race: Enter is typed (stamped) while it is not this player's turn; the state that
    makes it their turn is drawn before the Enter is taken. It picks nobody and says why; an
    Enter typed after it opens the cut."""
    earlier, game = next(
        (before, after) for seed in range(7, 40) for cuts in range(6, 12)
        if (after := seeded_game(cuts, seed)).outcome is None and after.cutter in (0, 2, 4)
        and (before := seeded_game(cuts - 1, seed)).round == after.round)
    seat = game.cutter
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, earlier, seat, lobby())
        await settle(pilot)
        await skip_claim_offer(pilot)
        assert not screen.board.your_turn
        typed_early = events.Key("enter", "\r")
        screen.post_message(StateChanged(game.view(seat), game.legal_actions(seat), seat))
        await settle(pilot)
        assert screen.board.your_turn
        application.post_message(typed_early)
        await settle(pilot)
        assert screen.board.dialog is None
        assert any("The table changed" in n.message for n in application._notifications)
        await pilot.press("enter")
        await settle(pilot)
        assert open_dialog(application) is not None


async def test_an_enter_typed_before_the_claim_offer_opened_claims_nothing():
    """A deal drawn between an Enter's typing and its taking: the offer that came with the
    deal does not take it."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        seat = 1
        screen = await open_table(application, seeded_game(4), seat)
        await settle(pilot)
        await skip_claim_offer(pilot)
        sent = recording(screen)
        typed_early = events.Key("enter", "\r")
        dealt = seeded_game(5)
        screen.post_message(StateChanged(dealt.view(seat), dealt.legal_actions(seat), seat))
        await open_claim_offer(pilot, screen, dealt, seat)
        application.post_message(typed_early)
        await settle(pilot)
        assert sent == [] and claim_offer(application)


async def test_a_key_typed_before_a_question_was_drawn_does_not_answer_it():
    """"2" and Enter typed at the table as Esc's question opens: the Enter was typed before
    the question was on screen, so it does not take the answer the 2 highlighted."""
    game = seeded_game(0)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, 0)
        await skip_claim_offer(pilot)
        typed_early = [key("2"), events.Key("enter", "\r")]
        await screen.action_leave()
        await settle(pilot)
        assert question(application) is not None
        for event in typed_early:
            application.post_message(event)
        await settle(pilot)
        assert question(application) is not None and application.screen is not screen


# -- the same question everywhere --------------------------------------------------------------


@pytest.mark.parametrize("key_name", ["escape", "ctrl+q", "ctrl+c"])
async def test_esc_ctrl_q_and_ctrl_c_ask_the_same_question_at_a_running_game(key_name):
    """Its first answer, and Esc's, ends nothing; a stray Enter stays; Ctrl+Q inside it only
    moves to "Quit"; a letter answers nothing."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        await pilot.press(key_name)
        await settle(pilot)
        asked = question(application)
        assert asked is not None and "Leave the game?" in screen_text(application)
        assert [a.value for a in asked.answers] == [STAY, LOBBY, QUIT]
        await pilot.press("q", "y", "ctrl+q")
        assert question(application) is asked
        assert asked.answers[asked.choice_list.highlighted].value == QUIT
        await pilot.press("escape")
        await settle(pilot)
        assert application.screen is screen and application.is_running
        await pilot.press(key_name)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert application.screen is screen and application.is_running


# -- the lists: ?, play again, the keys list ---------------------------------------------------


async def test_a_question_mark_is_text_and_alone_with_enter_lists_the_keys():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        sent = recording(screen)
        await pilot.press("question_mark", *"? who cut that", "enter")
        assert sent == [Chat("?? who cut that")]
        await pilot.press("question_mark", "enter")
        await settle(pilot)
        assert isinstance(application.screen, KeysScreen)


async def test_the_keys_list_shows_each_key_once_and_each_description_whole():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, seeded_game(0), 0)
        await skip_claim_offer(pilot)
        await pilot.press("question_mark", "enter")
        await pilot.pause()
        assert isinstance(application.screen, KeysScreen)
        await pilot.pause(0.2)
        # The dialog's lines, between its side borders.
        text = " ".join(" ".join(line.split("█")[1:-1]) for line in screen_text(application)
                        .splitlines() if line.count("█") >= 2)
        text = " ".join(text.split())
        for whole in ("Any letter you type goes to the chat",
                      "Claim in public what you hold (a bluff is fine)",
                      "Hide your hand and your private log lines from onlookers"):
            assert whole in text
        keys = [row[0] for row in application.screen.keys]
        assert len(keys) == len(set(keys))


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


async def test_a_sentence_in_a_hosted_waiting_room_starts_nothing(app_factory, waiter):
    """On a real host: the table's host types a sentence in the waiting room; the table still
    waits, with the same seats, and the sentence comes back as chat."""
    from support.flows import play_screen
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
        post_burst(application, SENTENCE)
        chat = table.query_one("#chat-log", RichLog)
        await waiter.until(
            pilot, lambda: f"Ann: {SENTENCE}" in " ".join(
                " ".join(line.text for line in chat.lines).split()), "the chat line"
        )
        assert table.lobby.phase == "waiting" and table.lobby.seats == seats
        assert table.view is None and application.screen is table


# -- the lobby's forms and the code prompt -----------------------------------------------------


@pytest.mark.parametrize("form", ["name", "address", "code"])
async def test_a_burst_in_the_lobbys_forms_and_the_code_prompt_arrives_whole(form):
    from textual.widgets import Input

    from tui.screens.join_address import JoinAddressScreen
    from tui.screens.name import NameScreen
    from tui.screens.pairing import PairingScreen

    screen, text = {
        "name": (NameScreen(""), "Éloïse 2nd-row"),
        "address": (JoinAddressScreen(), "192.168.1.20:47321"),
        "code": (PairingScreen("127.0.0.1:47321"), "1234-5678"),
    }[form]
    answers: list = []
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(screen, answers.append)
        await settle(pilot)
        post_keys(application, text)
        await settle(pilot)
        assert screen.query_one(Input).value == text


async def test_the_heist_name_dialog_takes_a_burst_whole_into_its_own_line():
    """The one dialog that asks for words: a burst is the heist's name, whole, and its Enter
    proposes the crew under that name."""
    game = proposing_at_0()
    crew = min(a["crew"] for a in game.legal_actions(0) if a["type"] == "propose")
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, 0, machinations_lobby(7))
        await settle(pilot)
        for seat in crew:
            await pilot.press(*str(seat + 1), "enter")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert open_dialog(application) is not None
        sent = recording(screen)
        name = "3rd Bank of Élysée"
        post_burst(application, name)
        await settle(pilot)
        assert sent == [Act({"type": "propose", "crew": crew, "name": name})]

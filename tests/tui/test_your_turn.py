"""One meaning of "your turn" (issue 26): the table waits on this seat, the seat is in the
view's `to_act`. Every place that says so (the status bar's highlight and words, each panel
marked as where the game waits, the boards' prompts) agrees with `to_act`, in every game: live,
while an Évolution decision is pending (the table waits on a decision, not a cut), and in a
replay, whose steps have no legal actions. What a player may do now is another thing, read
from the legal actions: the keys a prompt offers show only then."""

from __future__ import annotations

import re

import pytest
from support.offline import finished_game, lobby, offline_app, open_table
from support.positions import (
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
from support.waiting import until_shown

import engine
from engine.catalogue import CATALOGUE
from netplay.game_record import GameRecord, Move, Player
from tui.backend import Backend
from tui.commands.replay import replay_app
from tui.screens.replay import ReplayScreen
from tui.widgets.chat_panel import ChatPanel
from tui.widgets.event_log import EventLog

SAYS_YOURS = re.compile(
    r"\byour (turn|cut|choice|proposal|vote|heist card|accusation)\b", re.IGNORECASE)
"""The words by which the table tells a player it waits on them."""


def your_turn_places(table) -> dict[str, bool]:
    """Whether each place of the table says it waits on this seat: the status bar's highlight,
    each panel marked as where the game waits, and every line of words outside the log and
    the chat (texts and panel titles)."""
    places = {"status bar highlight": table.query_one("#status-turn").has_class("-yours")}
    for widget in table.query("*"):
        if any(isinstance(w, (EventLog, ChatPanel)) for w in (widget, *widget.ancestors)):
            continue
        name = f"{type(widget).__name__}#{widget.id}"
        if widget.has_class("-your-turn"):
            places[f"{name} highlight"] = True
        words = " ".join(str(part) for part in (
            getattr(widget, "content", ""), widget.border_title or "", widget.border_subtitle or ""))
        if SAYS_YOURS.search(words):
            places[f"{name} words: {words.strip()}"] = True
    return places


def assert_agrees_with_to_act(table) -> None:
    view = table.board.view
    waits = table.board.seat in view["to_act"] and view["outcome"] is None
    places = your_turn_places(table)
    assert all(says is waits for says in places.values()), (waits, places)
    if waits:  # the status bar and at least one panel of the board say it
        assert len(places) >= 2, places


async def settled(pilot) -> None:
    await pilot.pause()
    await pilot.pause()


LIVE = {
    "timebomb": (cutter_game, lambda g: lobby()),
    "timebomb_evolution": (arranged_game, lambda g: evolution_lobby(g.players)),
    "machinations": (proposing_at_0, lambda g: machinations_lobby(g.players)),
    "holmes": (lambda: next(g for n in range(14, 60) if 0 in (g := holmes_game(n)).to_act()),
               lambda g: holmes_lobby()),
}


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_at_a_table_every_your_turn_agrees_with_to_act(game_id):
    """From the seat the table waits on, from one it does not, and as a spectator."""
    build, lobby_of = LIVE[game_id]
    game = build()
    waited_on = min(game.to_act())
    other = next(s for s in range(game.players) if s not in game.to_act())
    for seat in (waited_on, other, None):
        app = offline_app()
        async with app.run_test(size=(80, 24)) as pilot:
            table = await open_table(app, game, seat, lobby_of(game))
            await settled(pilot)
            assert table.board.your_turn is (seat == waited_on)
            assert_agrees_with_to_act(table)


def pending_decision() -> engine.Game:
    game = variante_game(12)
    assert game.pending is not None, "the seeded game waits on a decision after 12 actions"
    return game


async def test_while_an_evolution_decision_is_pending_the_decider_is_told_your_choice():
    """The table waits on the decider's choice: their status bar says so and the bombs board
    is marked; the players box is not (no cut is awaited). Nobody else is told it is theirs."""
    game = pending_decision()
    decider = game.pending["seat"]
    for seat in (decider, (decider + 1) % game.players, None):
        app = offline_app()
        async with app.run_test(size=(80, 24)) as pilot:
            table = await open_table(app, game, seat, evolution_lobby(game.players))
            await settled(pilot)
            assert_agrees_with_to_act(table)
            board = table.board
            bombs = str(board.query_one("#ev-board").content)
            players = board.query_one("#tb-players-box")
            assert not players.has_class("-your-turn") and players.border_title == "Players"
            if seat == decider:
                assert board.your_turn and board.your_choice and not board.your_cut
                assert board.turn_text() == "your choice"
                assert "Your choice" in bombs and "Ctrl+D" in bombs
                # Picking a player meanwhile says what the table waits on, and the key.
                refusal = board.refusal((decider + 1) % game.players)
                assert refusal.startswith("Your choice first: ") and refusal.endswith("Ctrl+D.")
            else:
                assert not board.your_turn and "is choosing" in bombs


def record_of(game: engine.Game) -> GameRecord:
    """A finished game as a replay file holds it."""
    assert game.outcome is not None
    return GameRecord(
        game="c0ffee00-1", table="c0ffee00", name="Baker Street", kind=game.id,
        players=game.players, options=dict(game.options), seed=game.seed, bot_level="random",
        turn_timer=0, started=None,
        seats=[Player(f"Player {s + 1}", "human") for s in range(game.players)],
        moves=[Move(seat, action, None, "person") for seat, action in game.history])


def first_step(game: engine.Game, holds) -> tuple[int, engine.Game]:
    """The first step of `game`'s record where `holds(game at that step)`, and that game."""
    for step in range(len(game.history) + 1):
        then = engine.replay(game.id, game.players, game.options, game.seed,
                             game.history[:step])
        if holds(then):
            return step, then
    raise AssertionError("no such step")


FINISHED = {
    "timebomb": (finished_game, lambda g: True),  # the deal: the first cutter's turn
    "timebomb_evolution": (lambda: variante_game(200), lambda g: g.pending is not None),
    "machinations": (lambda: machinations_game(lambda g: False),
                     lambda g: g.history and g.phase == "proposal"),
    "holmes": (lambda: holmes_game(1000), lambda g: len(g.history) >= 20),
}


@pytest.mark.parametrize("game_id", list(CATALOGUE))
async def test_in_a_replay_every_your_turn_agrees_with_to_act(tmp_path, monkeypatch, game_id):
    """A replay's step offers no legal action, yet through the eyes of a seat the table
    waited on, every place says it was their turn, and none offers a key to act; through
    other eyes, none says so. Évolution: the step where a decision is pending."""
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    build, wanted = FINISHED[game_id]
    game = build()
    step, then = first_step(game, wanted)
    waited_on = min(then.to_act())
    others = [s for s in range(game.players) if s not in then.to_act()]
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data", discover=False)
    app = replay_app(backend, record_of(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        await until_shown(pilot, lambda: screen.drawn == (0, "spectator"), "the link up")
        for eyes in (waited_on, *others[:1], "spectator", "all"):
            screen.ask(step, eyes)
            await until_shown(pilot, lambda: screen.drawn == (step, eyes),
                              f"step {step} through {eyes!r}")
            assert screen.board.legal == [] and screen.board.your_turn is (eyes == waited_on)
            assert_agrees_with_to_act(screen)
            words = " ".join(k for k in your_turn_places(screen) if "words" in k)
            assert not re.search(r"Ctrl\+|Enter|pick one", words), words
        if game_id == "timebomb_evolution":
            screen.ask(step, waited_on)
            await until_shown(pilot, lambda: screen.drawn == (step, waited_on), "the decision")
            assert "Your choice" in str(screen.board.query_one("#ev-board").content)

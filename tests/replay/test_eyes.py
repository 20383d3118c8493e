"""Whose eyes a replay shows: everything (the referee's view) draws every hand and role from
the deal on, and names whose each private log line was; a seat's eyes show that seat's
secrets alone, as it saw them."""

from __future__ import annotations

import pytest
from support.waiting import until_shown

import engine
from tui.backend import Backend
from tui.commands.replay import replay_app
from tui.games.timebomb.model import wire_symbol
from tui.games.timebomb_evolution.model import wire_letter
from tui.widgets.event_log import EventLog

from .test_screen import bots_game, screen_text, shown


def revealed_on_board(kind: str, board) -> list:
    """What the board draws of each seat's secrets: a role, a hand, hidden clues."""
    model = board.model
    if kind in ("timebomb", "timebomb_evolution"):
        return [(row.team, row.hand) for row in model.players]
    if kind == "machinations":
        return [row.role for row in model.players]
    return [area.hidden for area in model.areas]


def secrets(kind: str, game: engine.Game) -> list:
    """The same, from the engine's game itself."""
    view = game.view(engine.REFEREE)
    if kind in ("timebomb", "timebomb_evolution"):
        mark = wire_symbol if kind == "timebomb" else wire_letter
        hands = ["".join(mark(k) * hand.get(k, 0) for k in view["wire_kinds"])
                 for hand in view["hands"]]
        return list(zip(view["roles"], hands))
    if kind == "machinations":
        return list(view["roles"])
    return [tuple(area["hidden"]) for area in view["areas"]]


@pytest.mark.parametrize("kind, players", [("timebomb", 5), ("timebomb_evolution", 4),
                                           ("machinations", 5), ("holmes", 2)])
async def test_everything_shows_every_secret_from_the_deal_and_a_seat_its_own(
        tmp_path, monkeypatch, kind, players):
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    record = bots_game(kind, players, seed=4)
    history = [(m.seat, m.action) for m in record.moves]
    # A step before the end (which reveals everything to all), with a private line logged.
    step = next(n for n in range(min(8, len(history) - 1), len(history)) if any(
        e.audience for e in engine.replay(kind, players, record.options, record.seed,
                                          history[:n]).events))
    game = engine.replay(kind, players, record.options, record.seed, history[:step])
    names = [seat.name for seat in record.seats]
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data", discover=False)
    app = replay_app(backend, record)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: shown(app.screen, 0, "spectator")
                          if hasattr(app.screen, "drawn") else False, "the deal")
        screen = app.screen
        await pilot.press("a")
        await until_shown(pilot, lambda: shown(screen, 0, "all"), "everything at the deal")
        for _ in range(step):
            await pilot.press("right")
        await until_shown(pilot, lambda: shown(screen, step, "all"), "everything, steps on")
        text = screen_text(app)
        assert "You watch" not in text and "Spectating" not in text
        assert revealed_on_board(kind, screen.board) == secrets(kind, game)
        # Every private line says whose it was; at the table it read "You see your wires".
        log = screen.query_one(EventLog)
        private = [e for e in game.events if e.audience]
        lines = [log.line(e) for e in log.shown if e.get("audience")]
        assert len(lines) == len(private) > 0
        assert lines == [f"For {names[min(e.audience)]}: " + e.text.format(
            *(names[s] for s in e.seats)) for e in private]

        await pilot.press("2")  # the second seat's eyes, the place kept
        await until_shown(pilot, lambda: shown(screen, step, 1), "the second seat's eyes")
        seat_view = game.view(1)
        assert all("audience" not in e for e in seat_view["events"])
        assert not any(line.startswith("For ") for line in map(log.line, log.shown))
        drawn = revealed_on_board(kind, screen.board)
        others = [s for s in range(players) if s != 1]
        if kind == "holmes":
            assert drawn[0] is None and drawn[1] == tuple(game.view(1)["areas"][1]["hidden"])
        elif kind == "machinations":
            known = {s for entry in seat_view["knowledge"] for s in entry["seats"]}
            assert [drawn[s] for s in others if s not in known] == [
                seat_view["revealed"][s] or None for s in others if s not in known]
        else:
            assert all(drawn[s] == (None, "") for s in range(players))
            assert "Role:" in screen_text(app)

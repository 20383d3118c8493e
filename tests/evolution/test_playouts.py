"""Random playouts: 2,000 seeds for each player count, with and without the Variante.

At every step the game waits for exactly one seat, which has a move that advances play, and
the cards are conserved. On a sample of steps (every step of one game in `DEEP_EVERY`) every
legal move (and a few claims) is applied to a copy, and a battery of illegal actions must raise IllegalAction
and change nothing: the referee's view, the rng state and the history stay the same. Every game
ends with a valid outcome, and replaying its history rebuilds the same state.
"""

from __future__ import annotations

import random

import msgpack
import pytest

import engine
from engine.evolution.game import COLOURS, DEFUSE, DRAW_NUMBER, MOVE_APART

GAME = "timebomb-evolution"
SEEDS = 2000
CHUNK = 500
DEEP_EVERY = 100
REASONS = {"defused": "sherlock", "bomb": "moriarty", "pink": "moriarty",
           "time": "moriarty", "orange": "moriarty"}


def describe(game) -> str:
    return f"reproduce with: {game!r}"


def check_conservation(game) -> None:
    n = game.players
    in_play = [n] + [5 - r for r in game.removed[1:]]
    assert sum(game.removed) == n and all(0 <= r <= 5 for r in game.removed[1:])
    for kind in range(len(game.kinds)):
        assert sum(h[kind] for h in game.hands) + game.revealed_counts[kind] == in_play[kind]
        assert all(h[kind] >= 0 for h in game.hands)
    cuts = [e for e in game.events if e.type == "cut"]
    assert len(cuts) == sum(game.revealed_counts)
    found = game.revealed_counts[game.defusing_index]
    assert [w["number"] for w in game.defusing_wires] == list(range(1, found + 1))
    assert {w["on"]: w["number"] for w in game.defusing_wires if w["on"]} == game.wire_on
    assert all(not (w["on"] and w["moved_apart"]) for w in game.defusing_wires)
    if not game.variante:
        assert not game.wire_on and not game.draws and game.pending is None


def check_outcome(game) -> None:
    outcome = game.outcome
    assert outcome is not None
    assert REASONS[outcome.reason] == outcome.winning_team
    assert outcome.teams == tuple(game.roles)
    assert outcome.winners == {s for s, r in enumerate(game.roles) if r == outcome.winning_team}
    assert game.to_act() == frozenset() and all(not game.legal_actions(s) for s in range(game.players))
    if outcome.reason == "defused":
        assert game.revealed_counts[game.defusing_index] == game.players


def snapshot(game) -> tuple:
    return msgpack.packb(game.view(engine.REFEREE)), game.rng.getstate(), len(game.history)


def illegal_actions(game, seat: int, legal: list[dict]) -> list[tuple[int, object]]:
    """Actions the rules forbid now, by `seat` and by the others, plus malformed ones."""
    n = game.players
    candidates: list[tuple[int, object]] = []
    for who in range(n):
        for target in (*range(-1, n + 1),):
            candidates.append((who, {"type": "cut", "target": target}))
        for colour in (*COLOURS, "", "purple"):
            candidates.append((who, {"type": DEFUSE, "colour": colour}))
            candidates.append((who, {"type": MOVE_APART, "colour": colour}))
            for d in (-1, 0, 1, 6):
                candidates.append((who, {"type": "claim", "defusing": d, "colour": colour}))
        candidates.append((who, {"type": DRAW_NUMBER}))
    candidates += [
        (seat, {"type": "cut"}),
        (seat, {"type": "cut", "target": True}),
        (seat, {"type": "cut", "target": 1, "extra": 0}),
        (seat, {"type": "claim", "defusing": 0, "bomb": 0}),
        (seat, {"type": "shuffle"}),
        (seat, ["cut", 1]),
        (n, {"type": DRAW_NUMBER}),
    ]
    legal_by_seat = {s: game.legal_actions(s) for s in range(n)}
    return [(s, a) for s, a in candidates if not (0 <= s < n and a in legal_by_seat[s])]


def deep_check(game, seat: int, legal: list[dict], rng: random.Random) -> None:
    before = snapshot(game)
    for action in legal:
        if action["type"] == "claim":
            continue  # claims are applied to the game itself, in `play`
        trial = engine.replay(GAME, game.players, game.options, game.seed, game.history)
        trial.apply(seat, dict(action))
    for who, action in illegal_actions(game, seat, legal):
        with pytest.raises(engine.IllegalAction):
            game.apply(who, action)
    # One comparison after the whole battery: any change by any of them would show.
    assert snapshot(game) == before, describe(game)


def play(players: int, variante: bool, seed: int, deep: bool):
    game = engine.new_game(GAME, players, {"variante": variante}, seed)
    rng = random.Random(seed)
    steps = 0
    while game.outcome is None:
        to_act = game.to_act()
        assert len(to_act) == 1, describe(game)
        (seat,) = to_act
        legal = game.legal_actions(seat)
        moves = [a for a in legal if a["type"] != "claim"]
        assert moves, describe(game)
        if deep:
            deep_check(game, seat, legal, rng)
            # Claims are free actions: any seat's legal claim applies and play does not advance.
            for claimer in range(players):
                claims = [a for a in game.legal_actions(claimer) if a["type"] == "claim"]
                if claims:
                    game.apply(claimer, rng.choice(claims))
                    assert game.to_act() == to_act
        game.apply(seat, rng.choice(moves))
        steps += 1
        if deep or steps % 7 == 0:
            check_conservation(game)
        assert steps < 200, describe(game)
    check_conservation(game)
    check_outcome(game)
    return game


@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
@pytest.mark.parametrize("variante", [False, True], ids=["base", "variante"])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_random_playouts_keep_every_invariant(players, variante, first):
    outcomes = set()
    for seed in range(first, first + CHUNK):
        game = play(players, variante, seed, deep=seed % DEEP_EVERY == 0)
        outcomes.add(game.outcome.reason)
        replayed = engine.replay(GAME, players, game.options, seed, game.history)
        assert replayed.view(engine.REFEREE) == game.view(engine.REFEREE), describe(game)
        assert replayed.rng.getstate() == game.rng.getstate()
    # Across 500 games both teams win, and the Pink power fires (a time-out needs exactly 3 of
    # every colour out at 4 players, so it is not required here).
    expected = {"defused", "bomb"} | ({"pink"} if variante else set())
    assert expected <= outcomes, outcomes

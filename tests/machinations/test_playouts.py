"""Random playouts, 1,000 seeds per player count, checking the shared invariants at every step.

Every applied action comes from `legal_actions`; a sample of steps also applies *every* legal
action to a copy and tries illegal ones, which must raise `IllegalAction` and change nothing.
Each game must end with every seat won or lost as the win matrix (MM-34) says, conserve the
heist cards, and replay to the same state.
"""

from __future__ import annotations

import pickle
import random

import msgpack
import pytest

import engine
from engine.machinations.cards import TAKE_THE_FALL
from engine.machinations.roles import COPS, IRENE, MORIARTY, ROBBERS, SHERLOCK, team_of

SEEDS = 1000
CHUNKS = 2
DEEP_EVERY = 100  # one game in this many tries more legal actions and illegal ones at each step


def expected_winners(view: dict) -> set[int]:
    """The win matrix, MM-34, read off the final referee view."""
    roles, scores = view["roles"], view["scores"]
    points = COPS if scores[COPS] >= scores[ROBBERS] else ROBBERS
    if view["outcome"]["reason"] == "streak":
        team, irene = COPS, False
    else:
        a = roles[view["arrest"]] == MORIARTY
        m = view["murder"] is not None and roles[view["murder"]] == SHERLOCK
        if a and not m:
            team, irene = COPS, True
        elif m and not a:
            team, irene = ROBBERS, False
        elif a and m:
            team, irene = points, False
        else:
            accused = {roles[t] for t in (view["arrest"], view["murder"]) if t is not None}
            team, irene = points, points == ROBBERS and not accused & {MORIARTY, SHERLOCK}
    return {s for s, r in enumerate(roles) if team_of(r) == team or (r == IRENE and irene)}


def fingerprint(game) -> bytes:
    return pickle.dumps(vars(game))


def illegal_actions(game, seat: int) -> list[tuple[int, object]]:
    n = game.players
    outsider = next((s for s in range(n) if s not in game.to_act()), None)
    tries: list[tuple[int, object]] = [
        (seat, {"type": "dance"}),
        (seat, {"type": "vote"}),
        (seat, {"type": "vote", "approve": 1}),
        (seat, {"type": "accuse", "target": seat}),
        (seat, {"type": "accuse", "target": n}),
        (seat, {"type": "play", "card": "joker"}),
        (seat, {"type": "propose", "name": "", "crew": [seat, seat]}),
        (seat, {"type": "propose", "name": "x" * 99, "crew": [0, 1]}),
        (seat, {"type": "propose", "name": "", "crew": [0, 1], "extra": 1}),
        (n, {"type": "vote", "approve": True}),
        (seat, "vote"),
    ]
    if outsider is not None:
        tries += [(outsider, a) for a in game.legal_actions(seat)[:2]]
    if game.phase == "heist" and not game.may_take_the_fall(seat):
        tries.append((seat, {"type": "play", "card": TAKE_THE_FALL}))
    if game.phase == "proposal":
        legal = {tuple(a["crew"]) for a in game.legal_actions(seat)}
        blocked = [c for c in ((0, 1), (0, 1, 2), (1, 2), (2, 3)) if c not in legal]
        tries += [(seat, {"type": "propose", "name": "", "crew": list(c)}) for c in blocked]
    if game.phase != "vote":
        tries.append((seat, {"type": "vote", "approve": True}))
    return tries


def deep_checks(game, seat: int, rng: random.Random) -> None:
    """Apply a sample of `seat`'s legal actions to copies; illegal ones must change nothing."""
    snapshot = pickle.dumps(game)
    legal = game.legal_actions(seat)
    for action in rng.sample(legal, min(len(legal), 3)):
        pickle.loads(snapshot).apply(seat, action)
    before = fingerprint(game)
    for actor, action in illegal_actions(game, seat):
        with pytest.raises(engine.IllegalAction):
            game.apply(actor, action)
    assert fingerprint(game) == before, repr(game)


def check_cards(game) -> None:
    falls = 0
    for heist in game.heists:
        counts = heist["cards"]
        assert sum(counts.values()) == len(heist["crew"])  # one card each; 2 set aside each
        falls += counts[TAKE_THE_FALL]
    assert falls <= 1 and falls == game.fall_used
    assert sum(len(c) for c in game.own_cards) == sum(len(h["crew"]) for h in game.heists)
    assert game.scores[COPS] + game.scores[ROBBERS] == max(0, 2 * len(game.heists) - 1)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("n", range(5, 11))
def test_random_playouts_keep_every_invariant(n, chunk):
    per_chunk = SEEDS // CHUNKS
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        rng = random.Random(seed)
        options = {
            "accusation_trigger": rng.choice(("combined", "either_team")),
            "lestrade_reveals": rng.random() < 0.5,
        }
        game = engine.new_game("machinations", n, options, seed)
        deep = seed % DEEP_EVERY == 0
        while game.outcome is None:
            seat = rng.choice(sorted(game.to_act()))
            if deep:
                deep_checks(game, seat, rng)
            legal = game.legal_actions(seat)
            assert legal, f"seat {seat} must act but has no legal action: {game!r}"
            game.apply(seat, rng.choice(legal))
        assert game.to_act() == frozenset()
        assert all(game.legal_actions(s) == [] for s in range(n))
        check_cards(game)
        final = game.view(engine.REFEREE)
        assert set(game.outcome.winners) == expected_winners(final), repr(game)
        assert {team_of(game.roles[s]) for s in game.outcome.winners} - {"neutral"} == {
            game.outcome.winning_team}
        again = engine.replay("machinations", n, options, seed, game.history)
        assert msgpack.packb(again.view(engine.REFEREE)) == msgpack.packb(final)

"""Random playouts: 2,000 seeds for each player count, checking invariants at every step.

Each seed plays one game with random legal actions (claims included). At every step wires are
conserved; on a sample of steps every legal action is applied to a copy, and a battery of
illegal actions must raise `IllegalAction` and leave the state exactly as it was. Every game
must end with a valid outcome, and `engine.replay` must rebuild the same final state. A failure
names the game as an `engine.replay(...)` call.
"""

from __future__ import annotations

import random

import msgpack
import pytest
from timebomb_helpers import assert_conserved

import engine
from engine.timebomb.game import MORIARTY, SHERLOCK

SEEDS = 2000
CHUNKS = 4
CHECK_EVERY = 16
"""Steps between full checks (every legal action on a copy, every illegal action)."""


def state(game) -> tuple:
    return (msgpack.packb(game.view(engine.REFEREE)), game.rng.getstate(), len(game.history))


def illegal_actions(game, seat: int) -> list[tuple[object, object]]:
    """(seat, action) pairs the rules or the contract refuse now."""
    other = (seat + 1) % game.players
    target = next(t for t in range(game.players) if t != seat and sum(game.hands[t]))
    cut = {"type": "cut", "target": target}
    bad = [
        (seat, {"type": "cut", "target": seat}),  # own wire
        (other, cut if target != other else {"type": "cut", "target": seat}),  # out of turn
        (seat, {"type": "defuse", "target": target}),  # unknown type
        (seat, {"type": 3}),
        (seat, {}),
        (seat, "cut"),
        (seat, None),
        (seat, {"type": "cut"}),  # missing field
        (seat, {"type": "cut", "target": str(target)}),  # wrong field types
        (seat, {"type": "cut", "target": float(target)}),
        (seat, {"type": "cut", "target": [target]}),
        (seat, {"type": "cut", "target": None}),
        (seat, {"type": "cut", "target": target, "wire": 0}),  # extra field
        (seat, {"type": "cut", "target": True}),  # bools for ints
        (seat, {"type": "claim", "defusing": True, "bomb": 0}),
        (True, cut),
        (game.players, cut),  # not a seat
        (-1, cut),
        (engine.SPECTATOR, {"type": "claim", "defusing": 0, "bomb": 0}),
        (seat, {"type": "cut", "target": game.players}),
        (seat, {"type": "claim", "defusing": sum(game.hands[seat]) + 1, "bomb": 0}),
        (seat, {"type": "claim", "defusing": 0, "bomb": 2}),
    ]
    empty = [t for t in range(game.players) if t != seat and not sum(game.hands[t])]
    if empty:
        bad.append((seat, {"type": "cut", "target": empty[0]}))  # a player with no wires
    return bad


def copy_of(game):
    return engine.replay("timebomb", game.players, game.options, game.seed, game.history)


def check_step(game, seat: int, legal: list[dict]) -> None:
    # Every cut on its own copy; the claims, which change nothing but the claim shown, all on
    # one copy, in turn.
    claims = copy_of(game)
    for action in legal:
        trial = copy_of(game) if action["type"] == "cut" else claims
        trial.apply(seat, dict(action))
        assert_conserved(trial)
    before = state(game)
    quick = (game.rng.getstate(), len(game.events), len(game.history))
    for who, action in illegal_actions(game, seat):
        with pytest.raises(engine.IllegalAction):
            game.apply(who, action)
        assert (game.rng.getstate(), len(game.events), len(game.history)) == quick, (who, action)
    assert state(game) == before


def check_outcome(game) -> None:
    outcome = game.outcome
    n = game.players
    view = game.view(engine.REFEREE)
    counts = view["revealed_counts"]
    assert outcome.teams == tuple(game.roles)
    assert outcome.winning_team in (SHERLOCK, MORIARTY)
    assert outcome.winners == {s for s, r in enumerate(game.roles) if r == outcome.winning_team}
    assert outcome.winners  # the winning team has at least one player
    if outcome.reason == "defused":
        assert outcome.winning_team == SHERLOCK and counts["defusing"] == n
        assert counts["bomb"] == 0
    elif outcome.reason == "bomb":
        assert outcome.winning_team == MORIARTY and counts["bomb"] == 1
        assert counts["defusing"] < n
    else:
        assert outcome.reason == "time" and outcome.winning_team == MORIARTY
        assert game.round == 4 and game.cuts == n
        assert sum(map(sum, game.hands)) == n
        assert counts["bomb"] == 0 and counts["defusing"] < n
    assert sum(counts.values()) == len(view["revealed"]) <= 4 * n
    assert game.to_act() == frozenset()
    assert all(game.legal_actions(s) == [] for s in range(n))


def play_and_check(players: int, seed: int) -> None:
    game = engine.new_game("timebomb", players, {}, seed)
    rng = random.Random(seed)
    step = seed % CHECK_EVERY
    while game.outcome is None:
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        cuts = [a for a in legal if a["type"] == "cut"]
        assert cuts, game  # TB-17
        if step % CHECK_EVERY == 0:
            check_step(game, seat, legal)
        step += 1
        if rng.random() < 0.15:
            # A claim from anybody, in turn or not: free actions are always legal.
            claimer = rng.randrange(players)
            game.apply(claimer, rng.choice(game.legal_actions(claimer)[-len(game.claim_actions(claimer)):]))
        game.apply(seat, rng.choice(cuts))
        assert_conserved(game)
    check_outcome(game)
    again = engine.replay("timebomb", players, {}, seed, game.history)
    assert state(again) == state(game), game


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_random_playouts(players, chunk):
    size = SEEDS // CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        play_and_check(players, seed)

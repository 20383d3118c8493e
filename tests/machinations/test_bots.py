"""The Machinations bots: always legal, own view only, and playing their roles."""

from __future__ import annotations

import random

import msgpack

import pytest

import engine
from engine.machinations.bots import BOTS, reasoner
from engine.machinations.cards import ABET, FOIL
from engine.machinations.roles import (
    COMPOSITIONS,
    COPS,
    JACK,
    LESTRADE,
    MORAN,
    MORIARTY,
    ROBBERS,
    SHERLOCK,
    WATSON,
)

FIRST = {"first_proposer": 0, "accusation_trigger": "combined"}
"""Seat 0 proposes first, and the accusations come after few heists (the combined trigger)."""


def play(game, bots, seed):
    rngs = [random.Random(seed * 100 + s) for s in range(game.players)]
    while game.outcome is None:
        seat = min(game.to_act())
        view, legal = game.view(seat), game.legal_actions(seat)
        frozen = msgpack.packb((view, legal))
        action = bots[seat](view, legal, rngs[seat])
        assert msgpack.packb((view, legal)) == frozen, "a bot must not change what it is shown"
        assert action in legal or (action["type"] == "propose" and {**action, "name": ""}
                                   in legal), action
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("n", range(5, 11))
def test_every_bot_plays_legal_actions_to_the_end(n):
    for seed in range(3):
        mixed = [BOTS["smart"] if (s + seed) % 2 else BOTS["random"] for s in range(n)]
        for bots in ([BOTS["smart"]] * n, mixed):
            game = play(engine.new_game("machinations", n, {"lestrade_reveals": seed % 2 == 0},
                                        seed), bots, seed)
            assert game.outcome is not None


def _act(game, seat, rng_seed=0):
    return reasoner(game.view(seat), game.legal_actions(seat), random.Random(rng_seed))


def test_robbers_propose_crews_they_trust(rig):
    table = rig(COMPOSITIONS[7], FIRST)  # 0 Moriarty 1 Moran 2 Jack 3 Brutus 4 Sherlock
    game = table.game  # 5 Lestrade 6 Watson
    crew = _act(game, 0)["crew"]
    assert 0 in crew and not {5, 6} & set(crew)  # Moriarty keeps the Lestrade/Watson pair off
    table.fail()
    assert sorted(_act(game, 1)["crew"]) == [0, 1]  # Moran takes Moriarty, whom he knows


def test_robbers_object_to_a_crew_with_a_known_cop(rig):
    table = rig(COMPOSITIONS[7], FIRST)
    table.propose([0, 5])
    assert _act(table.game, 0) == {"type": "vote", "approve": False}  # 5 is Lestrade or Watson
    other = rig(COMPOSITIONS[7], FIRST)
    other.propose([0, 1])
    assert _act(other.game, 1) == {"type": "vote", "approve": True}  # Moran trusts Moriarty


def test_cops_foil_unless_it_would_expose_them(rig):
    table = rig(COMPOSITIONS[7], FIRST)
    game = table.game
    table.propose([0, 4, 6])
    table.vote(range(7))
    assert _act(game, 6)["card"] == FOIL  # Watson on a crew of three
    assert _act(game, 4)["card"] == FOIL  # Sherlock hides among two others
    game2 = rig(COMPOSITIONS[7], FIRST)
    game2.propose([0, 4])
    game2.vote(range(7))
    assert _act(game2.game, 4)["card"] == ABET  # a foil in a pair would point at Sherlock
    assert _act(game2.game, 0)["card"] == ABET  # a Robber abets


def test_lestrade_arrests_the_best_moriarty_suspect(rig):
    roles = (LESTRADE, WATSON, JACK, MORAN, SHERLOCK, MORIARTY, "brutus")
    table = rig(roles, FIRST)
    game = table.game
    # Moriarty (5) objects to every crew holding Lestrade (0); the others back them.
    for crew in ([0, 1], [0, 2, 3]):
        table.propose(crew)
        table.vote([s for s in range(7) if s != 5])
        table.play({s: FOIL if s == 0 else ABET for s in crew})
    table.heist_to(ROBBERS)
    assert game.phase == "accusation"
    assert _act(game, 0) == {"type": "accuse", "target": 5}


def test_jack_murders_the_best_sherlock_suspect(rig):
    table = rig(COMPOSITIONS[6], FIRST)  # 0 Moriarty 1 Moran 2 Jack 3 Sherlock 4 Lestrade
    game = table.game  # 5 Irene
    # Sherlock (3) foils a crew of three and objects to every crew he is not on.
    table.propose([0, 1])
    table.vote([0, 1, 2, 5])
    table.play({0: ABET, 1: ABET})
    table.propose([1, 2, 3])
    table.vote([0, 1, 2, 3, 5])
    table.play({1: ABET, 2: ABET, 3: FOIL})
    table.propose([2, 5])
    table.vote([0, 1, 2, 5])
    table.play({2: ABET, 5: ABET})
    assert game.phase == "accusation"
    assert _act(game, 2) == {"type": "accuse", "target": 3}


def _team_wins(n, team, smart_teams, games):
    wins = 0
    for seed in range(games):
        game = engine.new_game("machinations", n, {}, seed)
        teams = game.seat_teams()
        bots = [BOTS["smart" if t in smart_teams else "random"] for t in teams]
        play(game, bots, seed)
        wins += game.outcome.winning_team == team
    return wins / games


def test_reasoning_bots_beat_random_bots_for_each_team():
    games = 30
    robbers = _team_wins(7, ROBBERS, {ROBBERS}, games)
    random_robbers = _team_wins(7, ROBBERS, set(), games)
    assert robbers > random_robbers + 0.4, (robbers, random_robbers)
    # The Cops win most games against random Robbers whatever they do; measure them against
    # reasoning Robbers, where random Cops lose nearly every game.
    cops = _team_wins(7, COPS, {ROBBERS, COPS}, games)
    random_cops = _team_wins(7, COPS, {ROBBERS}, games)
    assert cops > random_cops + 0.15, (cops, random_cops)

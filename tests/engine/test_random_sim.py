"""Random games of every game, player count and option combination, every step checked by the
one harness (tests/support/random_sim.py). The suite runs a few seeds of each; benchmarks/random_sim.py runs
2,000 a combination."""

from __future__ import annotations


import pytest

from support.random_sim import cases, combination_id, play, reasons

SEEDS = {"timebomb": 24, "timebomb_evolution": 24, "machinations": 6, "holmes": 3}
"""Seeds per combination: about the same time for each game (Holmes has 40 combinations)."""

CASES = list(cases(lambda game_id, players: SEEDS[game_id]))


@pytest.mark.parametrize(
    "game_id, players, options, seeds", CASES,
    ids=[f"{g}-{n}-{combination_id(o)}" for g, n, o, _ in CASES])
def test_random_games_keep_every_invariant(game_id, players, options, seeds):
    games = [play(game_id, players, options, seed) for seed in seeds]
    assert sum(reasons(games).values()) == len(seeds)

"""Random playouts with every combination of options, checking the shared invariants at every
step (see holmes_invariants.py). The suite runs a sample of seeds per combination; the full
2,000 seeds per combination are in benchmarks/holmes_playouts.py."""

import random

import pytest

import engine
from holmes_invariants import OPTION_COMBOS, check_information_sets, combo_id, run_playout

SEEDS_PER_COMBO = 12


@pytest.mark.parametrize("options", OPTION_COMBOS, ids=combo_id)
def test_random_playouts_keep_every_invariant(options):
    for seed in range(SEEDS_PER_COMBO):
        run_playout(options, seed, branch_every=25 if seed < 2 else 0,
                    replay=seed % 3 == 0)


@pytest.mark.parametrize("options", OPTION_COMBOS[::3], ids=combo_id)
def test_information_set_invariance(options):
    """view(s) is byte-identical when what s cannot see changes."""
    for seed in range(2):
        game = engine.new_game("holmes", 2, options, seed)
        rng = random.Random(seed)
        step = changed = 0
        while game.outcome is None:
            if step % 4 == 0:
                changed += check_information_sets(game, rng)
            seat = min(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            step += 1
        changed += check_information_sets(game, rng)
        assert changed > 10  # the secrets really were changed, and no view noticed

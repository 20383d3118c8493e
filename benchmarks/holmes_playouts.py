"""Holmes random playouts, every option combination, with the shared invariants at every step.

    uv run python benchmarks/holmes_playouts.py [seeds per combination] [jobs]

Defaults: 2,000 seeds for each of the 40 combinations (80,000 games), 1 process. Each game
checks: every step has a seat to act and legal actions; sampled illegal actions raise
IllegalAction and change nothing (REFEREE view and rng state); clue cards and investigation
markers are conserved; exactly 7 days; a valid outcome; `engine.replay` rebuilds the same
state. The test suite runs a sample of this (tests/holmes/test_playouts.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "holmes"))

from holmes_invariants import OPTION_COMBOS, combo_id, run_playout  # noqa: E402


def run_combo(args: tuple[dict, int]) -> tuple[str, float, int]:
    options, seeds = args
    start = time.perf_counter()
    actions = 0
    for seed in range(seeds):
        game = run_playout(options, seed, illegal_every=11, branch_every=0, replay=True)
        actions += len(game.history)
    return combo_id(options), time.perf_counter() - start, actions


def main(seeds: int = 2000, jobs: int = 1) -> None:
    start = time.perf_counter()
    work = [(options, seeds) for options in OPTION_COMBOS]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(run_combo, work))
    else:
        results = [run_combo(w) for w in work]
    per_game = [elapsed / seeds * 1000 for _, elapsed, _ in results]
    actions = sum(a for _, _, a in results)
    games = seeds * len(OPTION_COMBOS)
    print(f"holmes playouts: {games} games ({seeds} seeds x {len(OPTION_COMBOS)} combinations),"
          f" {actions} actions, all invariants held")
    print(f"  median {statistics.median(per_game):.1f} ms per checked game; "
          f"wall {time.perf_counter() - start:.0f} s with {jobs} job(s)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))

"""The long run of the random-play harness: every game, player count and option combination,
2,000 seeds each by default, every step checked (tests/support/random_sim.py).

    uv run python benchmarks/random_sim.py [--seeds 2000] [--game holmes] [--jobs 2]

Prints, for each combination, the games played, how they ended and the time taken. The suite
runs a few seeds of each (tests/engine/test_random_sim.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from support.random_sim import cases, combination_id, play, reasons  # noqa: E402


def run(case: tuple[str, int, dict, range]) -> str:
    game_id, players, options, seeds = case
    start = time.perf_counter()
    games = [play(game_id, players, options, seed) for seed in seeds]
    ends = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons(games).items()))
    return (f"{game_id:<19} {players:>2}  {combination_id(options):<60} {len(games):>5} games"
            f"  {time.perf_counter() - start:6.1f} s  {ends}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2000, help="seeds per combination")
    parser.add_argument("--game", help="only this game id")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    work = [c for c in cases(lambda game_id, players: args.seeds)
            if args.game in (None, c[0])]
    if not work:
        parser.error(f"no game {args.game!r}")
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for line in pool.map(run, work):
            print(line, flush=True)
    print(f"{len(work)} combinations, {args.seeds} seeds each, every invariant held "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()

"""How long each game's reasoning bot takes to decide: p50, p99 and the slowest call.

    uv run python benchmarks/bot_decisions.py [--games 40] [--runs 3]

Smart bots fill every seat. Each call `bot(view, legal_actions, rng)` is timed on its own: the
view and the legal actions are built before the clock starts, since the host builds them anyway.
The figures are medians over the runs of each run's percentiles. Target: p99 under 200 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine

# A representative table for each game: the count players meet most.
TABLES = (
    ("timebomb", 5, {}),
    ("timebomb-evolution", 5, {"variante": True}),
    ("machinations", 7, {}),
    ("holmes", 2, {}),
)


def decision_times(game_id: str, players: int, options: dict, games: int, seed: int) -> list[float]:
    cls = engine.GAMES[game_id]
    bot = cls.BOTS["smart"]
    times = []
    for i in range(games):
        game = engine.new_game(game_id, players, options, seed + i)
        rng = random.Random(seed + i)
        while game.outcome is None:
            seat = min(game.to_act())
            view, legal = game.view(seat), game.legal_actions(seat)
            start = time.perf_counter()
            action = bot(view, legal, rng)
            times.append(time.perf_counter() - start)
            game.apply(seat, action)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per run (default 40)")
    parser.add_argument("--runs", type=int, default=3, help="runs to take the median of")
    args = parser.parse_args()
    print(f"{'game':<20} {'players':>7} {'decisions':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for game_id, players, options in TABLES:
        if game_id not in engine.GAMES or "smart" not in engine.GAMES[game_id].BOTS:
            continue
        runs = [
            decision_times(game_id, players, options, args.games, 1000 * run)
            for run in range(args.runs)
        ]
        p50 = statistics.median(percentile(r, 0.50) for r in runs) * 1000
        p99 = statistics.median(percentile(r, 0.99) for r in runs) * 1000
        slowest = statistics.median(max(r) for r in runs) * 1000
        count = statistics.median(len(r) for r in runs)
        print(f"{game_id:<20} {players:>7} {count:>10.0f} {p50:>8.2f} {p99:>8.2f} {slowest:>8.2f}")


if __name__ == "__main__":
    main()

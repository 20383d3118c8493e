"""How long each bot of each game takes to decide: p50, p99 and the slowest call.

    uv run python benchmarks/bot_decisions.py [--games 40] [--runs 3]

One bot fills every seat, asked as the host asks (`engine.bots.BotTurns`): every call, `act`
or `speak`, is timed on its own. The view and the legal actions are built before the clock
starts, since the host builds them anyway. The figures are medians over the runs of each run's
percentiles. Target: p99 under 50 ms for every bot.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import engine
from engine.bots import Bot
from engine.simulate import play

# A representative table for each game: the count players meet most.
TABLES = (
    ("timebomb", 5, {}),
    ("timebomb", 8, {}),  # the most hypotheses: 35 Moriarty trios times 7 Bomb holders
    ("timebomb_evolution", 5, {"variante": True}),
    ("machinations", 7, {}),
    ("holmes", 2, {}),
)


class Timed:
    """A bot whose every answer is timed into `times`."""

    def __init__(self, bot: Bot, times: list[float]):
        self.times = times
        self.bot = Bot(self._timed(bot.act), bot.speak and self._timed(bot.speak))

    def _timed(self, choose):
        def timed(view, legal_actions, rng):
            start = time.perf_counter()
            answer = choose(view, legal_actions, rng)
            self.times.append(time.perf_counter() - start)
            return answer

        return timed


def decision_times(game_id: str, bot_name: str, players: int, options: dict, games: int,
                   seed: int) -> list[float]:
    times: list[float] = []
    bot = Timed(engine.GAMES[game_id].BOTS[bot_name], times).bot
    for i in range(games):
        game = engine.new_game(game_id, players, options, seed + i)
        play(game, [bot] * players, random.Random(seed + i))
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per run (default 40)")
    parser.add_argument("--runs", type=int, default=3, help="runs to take the median of")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'game':<20} {'bot':<9} {'players':>7} {'decisions':>10} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'max ms':>8}")
    for game_id, players, options in TABLES:
        for bot_name in engine.GAMES[game_id].BOTS:
            runs = [
                decision_times(game_id, bot_name, players, options, args.games, 1000 * run)
                for run in range(args.runs)
            ]
            p50 = statistics.median(percentile(r, 0.50) for r in runs) * 1000
            p99 = statistics.median(percentile(r, 0.99) for r in runs) * 1000
            slowest = statistics.median(max(r) for r in runs) * 1000
            count = statistics.median(len(r) for r in runs)
            print(f"{game_id:<20} {bot_name:<9} {players:>7} {count:>10.0f} {p50:>8.2f} "
                  f"{p99:>8.2f} {slowest:>8.2f}", flush=True)

if __name__ == "__main__":
    main()

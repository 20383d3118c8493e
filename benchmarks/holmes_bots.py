"""Smart against random Holmes bots: `uv run python benchmarks/holmes_bots.py [games]`.

Each game seats the smart bot on alternate seats; bots get only their own view. Prints the
smart bot's win rate, draws, mean score margin and the time per game. (Until `gaslight
simulate` is on main this is the measurement; it uses the same contract.)
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import engine


def play(seed: int, bots: tuple[str, str], options: dict | None = None) -> engine.Game:
    game = engine.new_game("holmes", 2, options or {}, seed)
    players = [engine.GAMES["holmes"].BOTS[name] for name in bots]
    rng = random.Random(seed)
    while game.outcome is None:
        seat = min(game.to_act())
        action = players[seat](game.view(seat), game.legal_actions(seat), rng)
        game.apply(seat, action)
    return game


def main(games: int = 1000, options: dict | None = None) -> None:
    wins = draws = 0
    margins = []
    start = time.perf_counter()
    for seed in range(games):
        smart = seed % 2
        bots = ("smart", "random") if smart == 0 else ("random", "smart")
        game = play(seed, bots, options)
        totals = [s.total for s in game.scores]
        margins.append(totals[smart] - totals[1 - smart])
        wins += game.outcome.won(smart)
        draws += not game.outcome.winners
    elapsed = time.perf_counter() - start
    print(f"holmes smart vs random, {games} games, options {options or {}}")
    print(f"  smart wins {wins} ({wins / games:.1%}), draws {draws}, "
          f"losses {games - wins - draws}")
    print(f"  median score margin {statistics.median(margins):+.1f}, "
          f"mean {statistics.mean(margins):+.1f}")
    print(f"  {elapsed / games * 1000:.1f} ms per game")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)

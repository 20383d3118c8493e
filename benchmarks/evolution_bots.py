"""Win rates of the Évolution bots, team against team: `uv run python benchmarks/evolution_bots.py`.

Each line plays GAMES games (seeds 0..GAMES-1) for a player count, with or without the
Variante, with one bot for Sherlock's team and one for Moriarty's (by `seat_teams`), and prints
Sherlock's win rate with its 95% interval. Bots see only their own seat's view.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import engine

GAME = "timebomb-evolution"


def play(players: int, variante: bool, seed: int, sherlock_bot, moriarty_bot) -> str:
    game = engine.new_game(GAME, players, {"variante": variante}, seed)
    teams = game.seat_teams()
    bots = [sherlock_bot if team == "sherlock" else moriarty_bot for team in teams]
    rng = random.Random(seed)
    while game.outcome is None:
        (seat,) = game.to_act()
        game.apply(seat, bots[seat](game.view(seat), game.legal_actions(seat), rng))
    return game.outcome.winning_team


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="*", default=[4, 5, 6])
    args = parser.parse_args()
    bots = engine.GAMES[GAME].BOTS
    pairings = [("random", "random"), ("smart", "random"), ("random", "smart"), ("smart", "smart")]
    print(f"Sherlock's win rate over {args.games} games (95% interval)")
    print(f"{'N':>2} {'mode':<9} " + " ".join(f"{s + ' v ' + m:>17}" for s, m in pairings))
    for players in args.players:
        for variante in (False, True):
            cells = []
            for sherlock, moriarty in pairings:
                start = time.perf_counter()
                wins = sum(
                    play(players, variante, seed, bots[sherlock], bots[moriarty]) == "sherlock"
                    for seed in range(args.games)
                )
                rate = wins / args.games
                half = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
                cells.append(f"{rate:6.1%} ±{half:4.1%}")
            mode = "variante" if variante else "base"
            print(f"{players:>2} {mode:<9} " + " ".join(f"{c:>17}" for c in cells), flush=True)


if __name__ == "__main__":
    main()

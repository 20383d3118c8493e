"""Random-bot full games per second, for every registered game and player count.

    uv run python benchmarks/engine_speed.py [--seconds 1.0] [--runs 5] [--game timebomb] [--players 5]

Each game is played through the public contract only: `new_game`, `to_act`, `legal_actions`
and `apply`, with the views and events the engine makes as it goes. The figure printed is the
median of several timed runs, in CPU seconds of this one process: other
work on a shared machine slows the wall clock but not this count.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine


def play_random_games(game_id: str, players: int, seconds: float, first_seed: int) -> float:
    """Play random-bot games for about `seconds`; return full games per second."""
    bot = engine.GAMES[game_id].BOTS["random"]
    new_game = engine.new_game
    rng = random.Random(first_seed)
    games = 0
    seed = first_seed
    start = time.process_time()
    deadline = start + seconds
    while True:
        # Check the clock every 50 games: the clock is cheap but not free.
        for _ in range(50):
            game = new_game(game_id, players, None, seed)
            seed += 1
            while game.outcome is None:
                for seat in game.to_act():
                    game.apply(seat, bot(None, game.legal_actions(seat), rng))
                    break
            games += 1
        now = time.process_time()
        if now >= deadline:
            return games / (now - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs; the median is printed")
    parser.add_argument("--game", choices=sorted(engine.GAMES), help="only this game")
    parser.add_argument("--players", type=int, help="only this player count")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'players':>7} {'games/s (median)':>17}   runs")
    for game_id, cls in sorted(engine.GAMES.items()):
        if args.game and game_id != args.game:
            continue
        for players in range(cls.min_players, cls.max_players + 1):
            if args.players and players != args.players:
                continue
            play_random_games(game_id, players, min(0.2, args.seconds), 0)  # warm up
            rates = [
                play_random_games(game_id, players, args.seconds, run * 1_000_000)
                for run in range(args.runs)
            ]
            shown = " ".join(f"{r:,.0f}" for r in rates)
            print(f"{game_id:<16} {players:>7} {statistics.median(rates):>17,.0f}   {shown}")


if __name__ == "__main__":
    main()

"""Random-bot full games per second, for every registered game and player count.

    uv run python benchmarks/engine_speed.py [--seconds 1.0] [--runs 5] [--game timebomb] [--players 5]

Each game is played through the public contract only: `new_game`, `to_act`, `legal_actions`
and `apply`, with the events and history the engine keeps as it goes. No view is built: the
random bot reads none (it is handed None), and a view is made only for a viewer who asks for
it. Against the bare loop, each engine run and the bare run of the same seeds alternate, so
that load that comes or goes on a shared machine slows both alike. The figure printed is the
median of several timed runs, in CPU seconds of this one process: other
work on a shared machine slows the wall clock but not this count.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine.bots import as_bot


def play_random_games(game_id: str, players: int, seconds: float, first_seed: int) -> float:
    """Play random-bot games for about `seconds`; return full games per second."""
    # The bot's own choice, not its `Bot` wrapper: the figure is the engine's.
    bot = as_bot(engine.GAMES[game_id].BOTS["random"]).act
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


def play_bare_time_bomb(players: int, seconds: float, first_seed: int) -> float:
    """The reference: random Time Bomb games as a bare Python loop, with none of the contract
    (no views, events, history, legal lists or checks), only the rules' arithmetic: deal the
    roles and the wires, cut a random wire of a random other player with wires, redeal the
    face-down wires after each round, stop on the Bomb, the last Defusing wire or time.
    Returns full games per second, like `play_random_games`."""
    start = time.process_time()
    deadline = start + seconds
    seed = first_seed
    games = 0
    sherlocks, moriartys = {4: (3, 2), 5: (3, 2), 6: (4, 2), 7: (5, 3), 8: (5, 3)}[players]
    while True:
        for _ in range(50):
            rng = random.Random(seed)
            seed += 1
            random_ = rng.random
            roles = ["sherlock"] * sherlocks + ["moriarty"] * moriartys
            rng.shuffle(roles)
            roles = roles[:players]
            pool = [4 * players - 1, players, 1]  # safe, defusing, bomb
            found = 0
            cutter = int(random_() * players)
            over = False
            for round_ in range(1, 5):
                size = 6 - round_
                wires = [0] * pool[0] + [1] * pool[1] + [2] * pool[2]
                rng.shuffle(wires)
                hands = [[0, 0, 0] for _ in range(players)]
                for slot, kind in enumerate(wires):
                    hands[slot // size][kind] += 1
                for _ in range(players):
                    targets = [t for t in range(players) if t != cutter and sum(hands[t])]
                    target = targets[int(random_() * len(targets))]
                    hand = hands[target]
                    r = int(random_() * sum(hand))
                    kind = 0 if r < hand[0] else (1 if r < hand[0] + hand[1] else 2)
                    hand[kind] -= 1
                    pool[kind] -= 1
                    cutter = target
                    if kind == 2:
                        over = True
                        break
                    if kind == 1:
                        found += 1
                        if found == players:
                            over = True
                            break
                if over:
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
            against_bare = game_id == "timebomb" and players == 5
            rates, bare = [], []
            for run in range(args.runs):
                rates.append(play_random_games(game_id, players, args.seconds, run * 1_000_000))
                if against_bare:
                    # Each bare run right after the engine's run of the same seeds, so that
                    # a machine that gets busier or quieter meanwhile changes both alike:
                    # the ratio is the figure to compare.
                    bare.append(play_bare_time_bomb(players, args.seconds, run * 1_000_000))
            shown = " ".join(f"{r:,.0f}" for r in rates)
            print(f"{game_id:<16} {players:>7} {statistics.median(rates):>17,.0f}   {shown}")
            if against_bare:
                ratio = statistics.median(rates) / statistics.median(bare)
                print(f"{'bare loop':<16} {players:>7} {statistics.median(bare):>17,.0f}   "
                      + " ".join(f"{r:,.0f}" for r in bare))
                print(f"timebomb at 5 through the contract / bare loop: {ratio:.2f} "
                      "(goal: at least 0.65; issue 26)")
                # Each pair ran back to back: their spread shows how much the load moved.
                pairs = " ".join(f"{r / b:.2f}" for r, b in zip(rates, bare))
                print(f"  each run's pair: {pairs}")


if __name__ == "__main__":
    main()

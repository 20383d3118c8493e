"""Random-bot full games per second, for every registered game and player count.

    uv run python benchmarks/engine_speed.py [--seconds 1.0] [--runs 5] [--game timebomb] [--players 5]
    uv run python benchmarks/engine_speed.py --instructions [GAMES]

Each game is played through the public contract only: `new_game`, `to_act`, `legal_actions`
and `apply`, with the events and history the engine keeps as it goes. No view is built: the
random bot reads none (it is handed None), and a view is made only for a viewer who asks for
it. Against the bare loop, each engine run and the bare run of the same seeds alternate, so
that load that comes or goes on a shared machine slows both alike, and the ratio printed is
the median of those pairs' ratios. Each figure is the median of several timed runs, in CPU
seconds of this one process: other work on a shared machine slows the wall clock but not
this count.

The timed ratio still moves with the machine: the same code has read 0.53 to 0.79 from day to
day, and single pairs 0.44 to 0.75 within one invocation. The engine runs more distinct code
over more data than the bare loop (by callgrind's model, 2.4 times its instruction-cache
misses, 6.7 times its data-cache misses and 1.7 times its mispredicted branches a game), so
whatever costs a core's caches and predictors more (another process on it, another host
under the virtual machine) slows the engine more than the bare loop. With `--instructions`,
Time Bomb at 5 and the bare loop each play GAMES games (2,000 by default, after as many to
warm the engine's caches of events, as a timed run's are) under valgrind's callgrind, and the
ratio of their instructions per game is printed: a figure no load moves.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

import engine
from engine.bots import as_bot


def play_random_games(
    game_id: str, players: int, seconds: float, first_seed: int, games_at_most: float = math.inf
) -> float:
    """Play random-bot games for about `seconds`, or until `games_at_most` (a multiple of 50)
    are played; return full games per second."""
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
        if now >= deadline or games >= games_at_most:
            return games / (now - start)


def play_bare_time_bomb(
    players: int, seconds: float, first_seed: int, games_at_most: float = math.inf
) -> float:
    """The reference: random Time Bomb games as a bare Python loop, with none of the contract
    (no views, events, history, legal lists or checks), only the rules' arithmetic: deal the
    roles and the wires, cut a random wire of a random other player with wires, redeal the
    face-down wires after each round, stop on the Bomb, the last Defusing wire or time.
    Plays and returns like `play_random_games`."""
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
        if now >= deadline or games >= games_at_most:
            return games / (now - start)


SIDES = {
    "engine": lambda seconds, seed, games: play_random_games("timebomb", 5, seconds, seed, games),
    "bare": lambda seconds, seed, games: play_bare_time_bomb(5, seconds, seed, games),
}
"""The two sides of the ratio: Time Bomb at 5 through the contract, and the bare loop."""

WARM_SEED = 50_000_000
"""The seeds a side warms up on, apart from every timed or counted run's."""


def play_side(side: str, games: int, counted: bool) -> None:
    """Warm `side` up on `games` games, then, if `counted`, play `games` more: what
    `--instructions` runs under callgrind, both ways, to count the second part alone."""
    play = SIDES[side]
    play(math.inf, WARM_SEED, games)
    if counted:
        play(math.inf, 0, games)


def instructions_per_game(side: str, games: int) -> float:
    """`side`'s instructions per game, by callgrind: a run that warms up and plays `games`
    games, less one that only warms up (the interpreter's start and imports go with it)."""

    def count(counted: bool) -> int:
        command = [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
            sys.executable, os.path.abspath(__file__),
            "--instructions", str(games), "--play", side, *([] if counted else ["--warm-only"]),
        ]
        # A fixed string hash: the dicts' probes, and so the count, are the same every run.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        return int(re.search(r"Collected : (\d+)", done.stderr).group(1))

    return (count(True) - count(False)) / games


def print_instructions(games: int) -> None:
    print(f"instructions per game, by callgrind ({games:,} games of each side, after as many "
          "to warm up):")
    counts = {side: instructions_per_game(side, games) for side in SIDES}
    print(f"timebomb at 5 through the contract {counts['engine']:>11,.0f}")
    print(f"bare loop at 5 {counts['bare']:>31,.0f}")
    print(f"ratio (bare / engine, as games per second): {counts['bare'] / counts['engine']:.3f} "
          "(goal: at least 0.65; issue 26)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs; the median is printed")
    parser.add_argument("--game", choices=sorted(engine.GAMES), help="only this game")
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument(
        "--instructions", type=int, nargs="?", const=2000, metavar="GAMES",
        help="count instructions per game of Time Bomb at 5 and of the bare loop under "
        "callgrind instead of timing (default 2000 games; a multiple of 50)")
    parser.add_argument("--play", choices=sorted(SIDES),
                        help="with --instructions: play this side only (what callgrind runs)")
    parser.add_argument("--warm-only", action="store_true",
                        help="with --play: only warm up, for the count to subtract")
    args = parser.parse_args(argv)
    if args.instructions is not None:
        if args.instructions <= 0 or args.instructions % 50:
            parser.error("--instructions takes a positive multiple of 50 games")
        if args.play is None and shutil.which("valgrind") is None:
            parser.error("--instructions runs valgrind, which is not installed")
        if args.play:
            play_side(args.play, args.instructions, counted=not args.warm_only)
        else:
            print_instructions(args.instructions)
        return
    print(f"{'game':<16} {'players':>7} {'games/s (median)':>17}   runs")
    for game_id, cls in sorted(engine.GAMES.items()):
        if args.game and game_id != args.game:
            continue
        for players in range(cls.min_players, cls.max_players + 1):
            if args.players and players != args.players:
                continue
            against_bare = game_id == "timebomb" and players == 5
            warm_up = min(0.2, args.seconds)
            play_random_games(game_id, players, warm_up, WARM_SEED)
            if against_bare:
                play_bare_time_bomb(players, warm_up, WARM_SEED)  # both sides alike
            rates, bare = [], []
            for run in range(args.runs):
                rates.append(play_random_games(game_id, players, args.seconds, run * 1_000_000))
                if against_bare:
                    # Each bare run right after the engine's run of the same seeds, so that
                    # a machine that gets busier or quieter meanwhile changes both alike.
                    bare.append(play_bare_time_bomb(players, args.seconds, run * 1_000_000))
            shown = " ".join(f"{r:,.0f}" for r in rates)
            print(f"{game_id:<16} {players:>7} {statistics.median(rates):>17,.0f}   {shown}")
            if against_bare:
                print(f"{'bare loop':<16} {players:>7} {statistics.median(bare):>17,.0f}   "
                      + " ".join(f"{r:,.0f}" for r in bare))
                # The median of the pairs' ratios: each pair ran back to back, at one load,
                # so a pair that a burst of load fell on moves the figure least.
                pairs = [r / b for r, b in zip(rates, bare)]
                print(f"timebomb at 5 through the contract / bare loop: "
                      f"{statistics.median(pairs):.2f} (median of the pairs; goal: at least "
                      "0.65; issue 26)")
                print("  each run's pair: " + " ".join(f"{p:.2f}" for p in pairs))


if __name__ == "__main__":
    main()

"""The group's record rebuilt from 1,000 kept games: the time `gaslight record` takes.

    uv run python benchmarks/record.py [--games 1000] [--runs 3]

Bots play `--games` games of every kind in turn, at every table size, and each is kept as a
replay file, as an app keeps the games its person was at: eight people (each with a person's
id) and bots share the seats. Then the record is made from the folder, as `gaslight record`
and the app make it (`netplay.group_record`), `--runs` times: reading and checking each file
and playing its game through the engine to its end, then rating every game in order with
OpenSkill's Plackett-Luce. Printed: the seconds of each run (wall and CPU), split into reading
and rating, and the milliseconds per game. Quote the load average (printed) with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PEOPLE = 8


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def keep_games(folder: Path, count: int) -> None:
    """`count` games of the bots, kept in `folder` as an app keeps them."""
    import engine
    from engine.catalogue import CATALOGUE
    from netplay import replay_file
    from netplay.game_record import GameRecord, Move, Player

    rng = random.Random(1)
    people = [(f"Player {n}", f"{n:032x}") for n in range(PEOPLE)]
    kinds = [(kind, players) for kind, info in CATALOGUE.items()
             for players in info.player_counts]
    start = 1_800_000_000.0
    for number in range(count):
        kind, players = kinds[number % len(kinds)]
        game = engine.new_game(kind, players, {}, number)
        bot = engine.GAMES[kind].BOTS["random"] if "random" in engine.GAMES[kind].BOTS else \
            next(iter(engine.GAMES[kind].BOTS.values()))
        while game.outcome is None:
            seat = min(game.to_act())
            legal = [a for a in game.legal_actions(seat) if a["type"] not in game.FREE_ACTIONS]
            game.apply(seat, bot(game.view(seat), legal, rng))
        here = rng.sample(people, rng.randint(1, min(players, PEOPLE)))
        seats = [Player(name, "human", person) for name, person in here]
        seats += [Player(f"Bot {n + 1}", "bot") for n in range(len(here), players)]
        ended = start + 600 * number
        record = GameRecord(
            game=f"{number:08x}-1", table=f"{number:08x}", name="Benchmark", kind=kind,
            players=players, options=dict(game.options), seed=number, bot_level="random",
            turn_timer=0, started=ended - len(game.history),
            moves=[Move(seat, action, ended - len(game.history) + n, "person")
                   for n, (seat, action) in enumerate(game.history, 1)],
            seats=seats)
        replay_file.save(folder / replay_file.file_name(record), record.entries())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from netplay.group_record import group_record, read_folder

    print(f"load average before: {load()}")
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        began = time.monotonic()
        keep_games(folder, args.games)
        size = sum(path.stat().st_size for path in folder.iterdir())
        print(f"{args.games} games kept in {time.monotonic() - began:.1f} s, "
              f"{size / 2 ** 20:.1f} MB")
        walls = []
        for run in range(args.runs):
            wall, cpu = time.perf_counter(), time.process_time()
            games, problems = read_folder([folder])
            read_wall = time.perf_counter() - wall
            record = group_record(games, problems=problems)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            walls.append(wall)
            assert record.played == args.games and not problems
            print(f"run {run + 1}: {wall:.2f} s ({cpu:.2f} s CPU): reading and playing "
                  f"{read_wall:.2f} s, rating {wall - read_wall:.2f} s; "
                  f"{1000 * wall / args.games:.2f} ms a game")
        print(f"median {statistics.median(walls):.2f} s to rebuild the record of "
              f"{args.games} games")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()

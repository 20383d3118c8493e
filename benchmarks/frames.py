"""Frame cost: bytes per view and the time to build, encode and decode one, for each game in
`engine.GAMES` at each player count.

    uv run python benchmarks/frames.py [--games 10] [--runs 3] [--game timebomb]

Random-bot games are played through the public contract. At every step, each seat's `state`
frame is made as the host makes it: `game.view(seat)` and `game.legal_actions(seat)`, then
`netplay.protocol.encode` of the `state` message. Bytes are whole frames (length prefix
included). "build" is the view and legal actions, "encode" the msgpack frame, "decode" the
client's `decode_body` with its checks (each client pays it once per frame). Per run: the
median and largest frame, and the median times; the figures are the medians over the runs.
The largest frame of all is checked against the protocol's limit.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

# harness first: it keeps scripts in this folder from shadowing the engine package.
from harness import machine_note, median, percentile

import engine  # noqa: E402
from netplay.protocol import HEADER_SIZE, MAX_FRAME, decode_body, encode, message


@dataclass
class Run:
    sizes: list[int] = field(default_factory=list)
    build: list[float] = field(default_factory=list)
    encode: list[float] = field(default_factory=list)
    decode: list[float] = field(default_factory=list)


def one_run(game_id: str, players: int, games: int, rng: random.Random) -> Run:
    cls = engine.GAMES[game_id]
    bot = cls.BOTS["random"]
    clock = time.perf_counter
    run = Run()
    for _ in range(games):
        game = engine.new_game(game_id, players, {}, rng.randrange(2**32))
        while game.outcome is None:
            for seat in range(players):
                started = clock()
                view, legal = game.view(seat), game.legal_actions(seat)
                built = clock()
                frame = encode(message("state", view=view, legal=legal, seat=seat))
                encoded = clock()
                decode_body(frame[HEADER_SIZE:])
                run.decode.append(clock() - encoded)
                run.encode.append(encoded - built)
                run.build.append(built - started)
                run.sizes.append(len(frame))
            seat = rng.choice(sorted(game.to_act()))
            game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="measure only this game (repeatable)")
    parser.add_argument("--games", type=int, default=10, help="games played per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"frame cost per view, {args.runs} runs x {args.games} random-bot games "
          f"({machine_note()})")
    print(f"{'game':<22} {'players':>7} {'bytes p50':>10} {'bytes max':>10} "
          f"{'build us':>9} {'encode us':>10} {'decode us':>10}")
    largest = 0
    for game_id in args.game or sorted(engine.GAMES):
        cls = engine.GAMES[game_id]
        for players in range(cls.min_players, cls.max_players + 1):
            runs = [one_run(game_id, players, args.games, rng) for _ in range(args.runs)]
            biggest = max(max(r.sizes) for r in runs)
            largest = max(largest, biggest)
            print(f"{game_id:<22} {players:>7} "
                  f"{median(percentile(r.sizes, 0.5) for r in runs):>10.0f} "
                  f"{median(max(r.sizes) for r in runs):>10.0f} "
                  f"{median(percentile(r.build, 0.5) for r in runs) * 1e6:>9.0f} "
                  f"{median(percentile(r.encode, 0.5) for r in runs) * 1e6:>10.0f} "
                  f"{median(percentile(r.decode, 0.5) for r in runs) * 1e6:>10.0f}", flush=True)
    share = largest / MAX_FRAME
    print(f"largest frame seen: {largest} bytes, {share:.0%} of the {MAX_FRAME}-byte frame limit")
    if share > 0.5:
        print("  warning: views grow as a game goes on; a longer game than these may pass the "
              "limit, and the host cannot send a frame over it")


if __name__ == "__main__":
    main()

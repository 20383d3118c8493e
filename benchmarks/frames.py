"""Frame sizes: the largest `state` frame the host sends in every game at every player count,
over long games and under a claim flood, against the protocol's 16 KiB bound.

    uv run python benchmarks/frames.py [--games 5] [--flood 20] [--game timebomb]

Random-bot games are played through the public contract, and each frame is the one the host
builds (`netplay.connection.state_frame`), for every seat and a spectator:

- "follow": the frame of a client that has followed the game from its start, told after every
  action (claims included) as the host tells it, carrying the view and only the events new to
  it;
- "join": the frame of a client that joins (or comes back) at that moment, with a tail of
  the events.

"Flood" makes a game long the way a hostile or chatty table would: after every move, every
seat makes up to `--flood` free actions (claims) that the game accepts, so the event log grows
far past any real game (the host also rate-limits free actions, which this ignores). Legal
actions travel packed (`netplay.legal.pack_legal`). Also
printed: the median frame and the build-and-encode time per frame: a table's frames built
together, as the host builds them after an action, over their number (median of the runs).
"""

from __future__ import annotations

import argparse
import random
import time

# harness first: it keeps scripts in this folder from shadowing the engine package.
from harness import machine_note, median, percentile, table_frames

import engine  # noqa: E402
from netplay.connection import NOTHING_TOLD, state_frame  # noqa: E402
from netplay.frames import SENT_FRAME  # noqa: E402


def one_game(game_id: str, players: int, flood: int, rng: random.Random) -> dict[str, list]:
    cls = engine.GAMES[game_id]
    bot = cls.BOTS["random"]
    game = engine.new_game(game_id, players, {}, rng.randrange(2**32))
    viewers = [*range(players), engine.SPECTATOR]
    told = {viewer: NOTHING_TOLD for viewer in viewers}
    sizes: dict[str, list] = {"follow": [], "join": [], "seconds": [], "events": []}

    def tell_everyone() -> None:  # as the host does after every action
        started = time.perf_counter()
        frames = table_frames(game, told)
        sizes["seconds"].append((time.perf_counter() - started) / len(viewers))
        for viewer, (frame, told[viewer]) in frames.items():
            sizes["follow"].append(len(frame))

    tell_everyone()
    while game.outcome is None:
        for viewer in viewers:
            legal = game.legal_actions(viewer) if viewer >= 0 else []
            view = game.view(viewer, events=False)
            frame, _ = state_frame(NOTHING_TOLD, game, view, legal)
            sizes["join"].append(len(frame))
        for seat in range(players):
            free = [a for a in game.legal_actions(seat) if a["type"] in cls.FREE_ACTIONS]
            for action in rng.sample(free, min(flood, len(free))):
                game.apply(seat, action)
                tell_everyone()
        seat = rng.choice(sorted(game.to_act()))
        game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))
        tell_everyone()
    sizes["events"].append(len(game.events))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="measure only this game (repeatable)")
    parser.add_argument("--games", type=int, default=5, help="games per player count and mode")
    parser.add_argument("--flood", type=int, default=20,
                        help="free actions each seat makes after every move in flooded games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"state frames as the host sends them, {args.games} random-bot games per row, "
          f"bound {SENT_FRAME} bytes ({machine_note()})")
    print(f"{'game':<20} {'pl':>2} {'mode':<6} {'events':>7} {'follow p50':>10} "
          f"{'follow max':>10} {'join max':>9} {'build us':>9}")
    largest = 0
    for game_id in args.game or sorted(engine.GAMES):
        cls = engine.GAMES[game_id]
        modes = [("plain", 0)] + ([("flood", args.flood)] if cls.FREE_ACTIONS else [])
        for players in range(cls.min_players, cls.max_players + 1):
            for mode, flood in modes:
                games = [one_game(game_id, players, flood, rng) for _ in range(args.games)]
                follow = [s for g in games for s in g["follow"]]
                joins = [s for g in games for s in g["join"]]
                biggest = max(max(follow), max(joins))
                largest = max(largest, biggest)
                print(f"{game_id:<20} {players:>2} {mode:<6} "
                      f"{max(e for g in games for e in g['events']):>7} "
                      f"{percentile(follow, 0.5):>10.0f} {max(follow):>10} {max(joins):>9} "
                      f"{median(percentile(g['seconds'], 0.5) for g in games) * 1e6:>9.0f}",
                      flush=True)
    verdict = "within" if largest <= SENT_FRAME else "OVER"
    print(f"largest frame: {largest} bytes, {verdict} the {SENT_FRAME}-byte bound")
    raise SystemExit(0 if largest <= SENT_FRAME else 1)


if __name__ == "__main__":
    main()

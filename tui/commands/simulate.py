"""`gaslight simulate GAME --players N --games K [--bots random|smart|TEAM=BOT,...] [--seed S]`:
bot-only games in-process, with win rates by team, how games ended and games per second."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

PROGRESS_FROM = 500
"""Runs of at least this many games show a progress bar on stderr."""
BAR_WIDTH = 30


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play bot-only games and print win rates",
        description="Play bot-only games in-process and print win rates by team, how the "
        "games ended, and games per second.",
    )
    parser.add_argument("game", metavar="GAME", help="game id, e.g. timebomb")
    parser.add_argument("--players", "-p", type=int, required=True, metavar="N")
    parser.add_argument("--games", "-g", type=int, default=1000, metavar="K")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="BOTS",
        help="one bot for every seat (random, smart), or one per team: sherlock=smart,moriarty=random",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i")
    parser.set_defaults(run=run)


class ProgressBar:
    """A plain-text bar redrawn in place with a carriage return, at most once a percent."""

    def __init__(self, total: int, stream: TextIO):
        self.total = total
        self.stream = stream
        self.shown = -1

    def __call__(self, done: int) -> None:
        percent = done * 100 // self.total
        if percent == self.shown:
            return
        self.shown = percent
        filled = done * BAR_WIDTH // self.total
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        self.stream.write(f"\r[{bar}] {percent:3d}%  {done:,}/{self.total:,} games")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    import engine
    from engine.simulate import BotError, simulate

    progress = ProgressBar(args.games, sys.stderr) if args.games >= PROGRESS_FROM else None
    start = time.perf_counter()
    try:
        result = simulate(
            args.game, args.players, args.games, args.bots, seed=args.seed, progress=progress
        )
    except (engine.InvalidSetup, BotError) as error:
        print(f"gaslight simulate: {error}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(report(result, engine.GAMES[args.game].title, seconds))
    return 0


def report(result, title: str, seconds: float) -> str:
    games = result.games
    bots = ", ".join(f"{team}={bot}" for team, bot in sorted(result.bots.items()))
    lines = [
        f"{title}, {result.players} players, {games:,} games from seed {result.seed}",
        f"bots: {bots or 'none'}",
        "",
        f"{'team':<12} {'seats':>6} {'wins':>8} {'win rate':>9}",
    ]
    for team in result.teams:
        seats = result.team_seats[team] / games if games else 0
        lines.append(
            f"{team:<12} {seats:>6.2f} {result.wins[team]:>8,} {result.win_rate(team):>9.1%}"
        )
    lines += ["", f"{'game ended by':<12} {'games':>15} {'share':>9}"]
    for reason, count in sorted(result.reasons.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"{reason:<12} {count:>15,} {count / games:>9.1%}")
    rate = games / seconds if seconds > 0 else float("inf")
    lines += ["", f"{games:,} games in {seconds:.2f} s: {rate:,.0f} games/s"]
    return "\n".join(lines)

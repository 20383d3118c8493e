"""`gaslight simulate GAME --players N --games K [--bots random|smart|TEAM=BOT,...] [--seed S]`:
bot-only games in-process, with win rates by team, how games ended and games per second."""

from __future__ import annotations

import argparse
import sys
import time

PROGRESS_FROM = 500
"""Runs of at least this many games show a progress bar (rate and time left) on stderr."""


def games_count(text: str) -> int:
    """--games: at least one game, or there is nothing to report."""
    try:
        games = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if games < 1:
        raise argparse.ArgumentTypeError(f"play at least 1 game, not {games}")
    return games


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play bot-only games and print win rates",
        description="Play bot-only games in-process and print win rates by team, how the "
        "games ended, and games per second.",
    )
    parser.add_argument("game", metavar="GAME", help="game id, e.g. timebomb")
    parser.add_argument("--players", "-p", type=int, required=True, metavar="N")
    parser.add_argument("--games", "-g", type=games_count, default=1000, metavar="K",
                        help="how many games (at least 1; default 1000)")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="BOTS",
        help="one bot for every seat (random, smart), or one per team: sherlock=smart,moriarty=random",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
        TimeRemainingColumn,
    )

    import engine
    from engine.simulate import BotError, simulate

    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
        MofNCompleteColumn(), TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
        disable=args.games < PROGRESS_FROM,
    )
    start = time.perf_counter()
    try:
        with progress:
            task = progress.add_task("games", total=args.games, rate="")

            def advance(done: int) -> None:
                speed = progress.tasks[0].speed
                rate = f"{speed:,.0f} games/s" if speed else ""
                progress.update(task, completed=done, rate=rate)

            result = simulate(
                args.game, args.players, args.games, args.bots, seed=args.seed, progress=advance,
            )
    except (engine.InvalidSetup, BotError) as error:
        print(f"gaslight simulate: {error}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    Console(highlight=False).print(*report(result, engine.GAMES[args.game].title, seconds))
    return 0


def report(result, title: str, seconds: float) -> list:
    """The report's parts for a Rich console: a heading, the teams, the endings, the speed."""
    from rich.table import Table

    games = result.games
    bots = ", ".join(f"{team}={bot}" for team, bot in sorted(result.bots.items()))
    heading = (f"{title}, {result.players} players, {games:,} games from seed {result.seed}\n"
               f"bots: {bots or 'none'}")
    teams = Table()
    teams.add_column("team")
    teams.add_column("seats", justify="right")
    teams.add_column("wins", justify="right")
    teams.add_column("win rate", justify="right")
    for team in result.teams:
        seats = result.team_seats[team] / games
        teams.add_row(team, f"{seats:.2f}", f"{result.wins[team]:,}",
                      f"{result.win_rate(team):.1%}")
    endings = Table()
    endings.add_column("game ended by")
    endings.add_column("games", justify="right")
    endings.add_column("share", justify="right")
    for reason, count in sorted(result.reasons.items(), key=lambda item: (-item[1], item[0])):
        endings.add_row(reason, f"{count:,}", f"{count / games:.1%}")
    rate = games / seconds if seconds > 0 else float("inf")
    return [heading, teams, endings, f"{games:,} games in {seconds:.2f} s: {rate:,.0f} games/s"]

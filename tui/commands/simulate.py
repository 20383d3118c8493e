"""`gaslight simulate GAME --players N --games K [--bots random|smart|TEAM=BOT,...] [--seed S]`:
bot-only games in-process, with win rates by team, how games ended and games per second."""

from __future__ import annotations

import argparse
import sys
import time

from tui.commands.numbers import whole_number

PROGRESS_FROM = 500
"""Runs of at least this many games show a progress bar (rate and time left) on stderr."""


games_count = whole_number(1, lambda games: f"play at least 1 game, not {games}")
"""--games: at least one game, or there is nothing to report."""


class BotsHelp(argparse.RawDescriptionHelpFormatter):
    """Lists every bot of every game, read from the games only when help is shown (loading
    them takes a second that `gaslight --help` should not wait)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if action.dest == "bots" and text is not None:
            import engine

            text += "; the bots of each game: " + "; ".join(
                f"{game_id}: {', '.join(sorted(cls.BOTS))}" for game_id, cls in engine.GAMES.items()
            )
        return text


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from tui.commands.game_options import games_help, options_help

    parser = subparsers.add_parser(
        "simulate",
        help="play bot-only games and print win rates",
        description="Play bot-only games in-process and print win rates by team, how the "
        "games ended, and games per second.",
        epilog=f"games:\n{games_help()}\n\noptions:\n{options_help()}\n",
        formatter_class=BotsHelp,
    )
    parser.add_argument("game", metavar="GAME", help="game id, e.g. timebomb (see below)")
    parser.add_argument("--players", "-p", type=int, required=True, metavar="N")
    parser.add_argument("--games", "-g", type=games_count, default=1000, metavar="K",
                        help="how many games (at least 1; default 1000)")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="BOTS",
        help="one bot for every seat (e.g. smart), or one per team: "
        "sherlock=smart,moriarty=random",
    )
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        dest="options",
                        help="a game option, e.g. --option claims=off (repeatable; see below)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
        TimeRemainingColumn,
    )

    import engine
    from engine.catalogue import CATALOGUE
    from engine.simulate import BotError, simulate
    from tui.commands.game_options import OptionError, games_help, parse_options

    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
        MofNCompleteColumn(), TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
        disable=args.games < PROGRESS_FROM,
    )
    info = CATALOGUE.get(args.game)
    if info is None:
        print(f"gaslight simulate: there is no game {args.game!r}; the games are:\n"
              + games_help(), file=sys.stderr)
        return 2
    try:
        info.check_players(args.players)
        options = info.validate_options(args.players,
                                        parse_options(info, args.players, args.options))
    except (engine.InvalidSetup, OptionError) as error:
        print(f"gaslight simulate: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    done = 0
    try:
        with progress:
            task = progress.add_task("games", total=args.games, rate="")

            def advance(count: int) -> None:
                nonlocal done
                done = count
                speed = progress.tasks[0].speed
                rate = f"{speed:,.0f} games/s" if speed else ""
                progress.update(task, completed=count, rate=rate)

            result = simulate(
                args.game, args.players, args.games, args.bots, seed=args.seed,
                options=options, progress=advance,
            )
    except (engine.InvalidSetup, BotError) as error:
        print(f"gaslight simulate: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"gaslight simulate: stopped after {done:,} of {args.games:,} games",
              file=sys.stderr)
        return 130
    seconds = time.perf_counter() - start
    Console(highlight=False).print(*report(result, info, options, seconds))
    return 0


def report(result, info, options: dict, seconds: float) -> list:
    """The report's parts for a Rich console, in the lobby's words: a heading with the options
    and bots, the teams, the endings, the speed."""
    from rich.table import Table

    from tui.commands.game_options import options_text

    games = result.games
    levels = {level.bot: level.name for level in info.bot_levels}
    bots = ", ".join(
        f"{team.capitalize()}: {bot}" + (f" ({levels[bot]})" if bot in levels else "")
        for team, bot in sorted(result.bots.items())
    )
    heading = (f"{info.title}, {result.players} players, {games:,} games from seed "
               f"{result.seed}\nOptions: {options_text(info, options) or 'none'}\n"
               f"Bots: {bots or 'none'}")
    teams = Table()
    teams.add_column("Team")
    teams.add_column("Players", justify="right")
    teams.add_column("Wins", justify="right")
    teams.add_column("Win rate", justify="right")
    for team in result.teams:
        teams.add_row(team.capitalize(), players_text(result.team_seats[team], games),
                      f"{result.wins[team]:,}", f"{result.win_rate(team):.1%}")
    endings = Table()
    endings.add_column("Game ended by")
    endings.add_column("Games", justify="right")
    endings.add_column("Share", justify="right")
    for reason, count in sorted(result.reasons.items(), key=lambda item: (-item[1], item[0])):
        endings.add_row(reason.replace("_", " "), f"{count:,}", f"{count / games:.1%}")
    rate = games / seconds if seconds > 0 else float("inf")
    return [heading, teams, endings, f"{games:,} games in {seconds:.2f} s: {rate:,.0f} games/s"]


def players_text(seats: int, games: int) -> str:
    """A team's players a game: "2", or "2.4 on average" when its size varies."""
    if seats % games == 0:
        return str(seats // games)
    return f"{seats / games:.1f} on average"

"""`gaslight record [--game G]`: the group's record across evenings, made afresh from the games
kept on this computer (`netplay.group_record`): for each game, each player's games, wins by
role, and rating (OpenSkill's Plackett-Luce: mu ± sigma, the uncertainty), best first."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from netplay.group_record import GroupRecord, Standing


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "record", help="the group's record across evenings: games, wins and ratings",
        description="Each player's games, wins by role and rating per game (OpenSkill's "
                    "Plackett-Luce, mu ± sigma), made from the games kept on this computer "
                    "(every game you played or watched). People are told apart by the id "
                    "their app proved at the table, bots by their level.")
    parser.add_argument("--game", metavar="G", help="one game only (its id: gaslight --help "
                                                    "lists them)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from engine.catalogue import CATALOGUE, read_game_id
    from tui.backend import Backend
    from tui.launch import interfaces_from

    game = None
    if args.game is not None:
        game = read_game_id(args.game)
        if game not in CATALOGUE:
            print(f"gaslight record: no game {args.game!r}; the games are "
                  f"{', '.join(CATALOGUE)}", file=sys.stderr)
            return 2
    backend = Backend(interfaces=interfaces_from(args.app_interfaces))
    record = asyncio.run(backend.group_record(game))
    print(record_text(record, backend.person.id))
    return 0


def record_text(record: GroupRecord, you: str | None = None) -> str:
    """The record as the command prints it: a block per game, best rated first, `you` (a
    person's id) marked; then a line for each kept file that could not be read."""
    from engine.catalogue import CATALOGUE

    if not record.games:
        lines = ["No games kept yet: the games you play or watch are kept as they end, and "
                 "the record is made from them."]
    else:
        lines = [f"The group's record, from {record.played} kept "
                 f"game{'s' if record.played != 1 else ''}."]
    for kind, standings in record.games.items():
        info = CATALOGUE.get(kind)
        lines += ["", f"{info.title if info else kind}", HEADER]
        lines += [standing_line(standing, you) for standing in standings]
    if record.problems:
        lines += ["", "Kept files that could not be read (they count for nothing):"]
        lines += [f"  {problem}" for problem in record.problems]
    return "\n".join(lines)


HEADER = f"  {'player':<28} {'games':>5} {'wins':>5}  {'rating':<13} by role (won/played)"


def standing_line(standing: Standing, you: str | None = None) -> str:
    name = standing.name + (" (you)" if you and standing.player == f"person:{you}" else "")
    roles = ", ".join(f"{role.capitalize()} {won}/{played}"
                      for role, (played, won) in sorted(standing.roles.items()))
    rating = f"{standing.mu:.1f} ± {standing.sigma:.1f}"
    return (f"  {name[:28]:<28} {standing.games:>5} {standing.wins:>5}  {rating:<13} "
            f"{roles}")

"""`gaslight record [--game G]`: the group's record across evenings, made afresh from the games
kept on this computer (`netplay.group_record`): for each game, each player's games, wins by
role, and rating (OpenSkill's Plackett-Luce: mu ± sigma, the uncertainty), best first."""

from __future__ import annotations

import argparse
import asyncio
import sys

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
    from tui.models.standings import record_text

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

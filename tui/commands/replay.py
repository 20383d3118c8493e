"""`gaslight replay [GAME]`: the games this player was at, kept on this machine, and any saved
game watched again, with no host on the network: a file opens in an in-process host on
127.0.0.1, as quick play does. With no GAME, the kept games are listed, newest first, numbered
as `gaslight replay N` opens them (a damaged file is one line saying so); GAME is that number
or a replay file's path."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.backend import Backend
    from tui.past_games import PastGame

LISTED = 40
"""Kept games listed: the newest, as the lobby's past games list them."""


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay", help="watch a game you played or watched again, or a saved game",
        description="List the games you played or watched (kept on this computer as they "
                    "ended, whatever became of their host), or open one of them, or a "
                    "replay file, and watch the game again step by step, through any "
                    "seat's eyes.")
    parser.add_argument("game", metavar="GAME", nargs="?",
                        help="the number of a kept game (as listed with no GAME), or a "
                             ".gaslight-replay file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from netplay.replay_file import ReplayFileError, read
    from tui.backend import Backend
    from tui.launch import interfaces_from

    backend = Backend(interfaces=interfaces_from(args.app_interfaces))
    eyes: int | str | None = None
    if args.game is None or args.game.isdigit() and not Path(args.game).exists():
        kept = asyncio.run(backend.replay_files(LISTED))
        if args.game is None:
            print(kept_listing(kept))
            return 0
        chosen = kept_game(kept, int(args.game))
        if chosen is None:
            print(f"gaslight replay: no kept game {args.game}: `gaslight replay` lists them",
                  file=sys.stderr)
            return 2
        path, eyes = chosen.path, chosen.eyes
    else:
        path = Path(args.game)
    try:
        record = read(path)
    except ReplayFileError as error:
        print(f"gaslight replay: {path}: {error}", file=sys.stderr)
        return 2
    app = replay_app(backend, record, eyes)
    app.run()
    return app.return_code or 0


def kept_listing(kept: list[PastGame]) -> str:
    """The kept games as `gaslight replay` lists them: each numbered as `gaslight replay N`
    opens it; a damaged file unnumbered, saying what is wrong."""
    if not kept:
        return "No games kept yet: the games you play or watch are kept here as they end."
    lines, number = [], 0
    for game in kept:
        if game.damaged is not None:
            lines.append(f"     {game.line()}")
        else:
            number += 1
            lines.append(f"{number:>3}  {game.line()}")
    return "\n".join(lines)


def kept_game(kept: list[PastGame], number: int) -> PastGame | None:
    """The kept game `gaslight replay N` opens: the Nth of the listing, damaged files aside."""
    readable = [game for game in kept if game.damaged is None]
    return readable[number - 1] if 1 <= number <= len(readable) else None


def replay_app(backend: Backend, record: Any, eyes: int | str | None = None) -> Any:
    """The app of `gaslight replay`: the replay screen alone, through `eyes` at first (a
    spectator's by default); closing it quits."""
    from textual import events

    from tui.app import GaslightApp
    from tui.config import load_name
    from tui.screens.replay import open_file_replay

    class ReplayApp(GaslightApp):
        CSS_PATH = str(Path(__file__).parent.parent / "app.tcss")  # relative to tui/app.py's

        async def on_mount(self, event: events.Mount) -> None:
            event.prevent_default()  # no lobby, and no name to ask for
            from tui.past_games import ReplayFileFailed

            try:
                screen = await open_file_replay(self.backend, record, self.player_name or "",
                                                **({} if eyes is None else {"eyes": eyes}))
            except ReplayFileFailed as error:
                self.exit(return_code=2, message=str(error))
                return
            self.push_screen(screen, lambda _: self.exit())

    return ReplayApp(backend, player_name=load_name())

"""`gaslight replay FILE`: watch a saved game again, on any computer, with no host on the
network: the file opens in an in-process host on 127.0.0.1, as quick play does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.backend import Backend


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay", help="watch a saved game again (a .gaslight-replay file)",
        description="Open a replay file, saved from a game's replay screen (x), and watch the "
                    "game again step by step, through any seat's eyes.")
    parser.add_argument("file", metavar="FILE", help="the replay file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from netplay.replay_file import ReplayFileError, read

    try:
        record = read(args.file)
    except ReplayFileError as error:
        print(f"gaslight replay: {args.file}: {error}", file=sys.stderr)
        return 2
    from tui.backend import Backend
    from tui.launch import interfaces_from

    app = replay_app(Backend(interfaces=interfaces_from(args.app_interfaces)), record)
    app.run()
    return app.return_code or 0


def replay_app(backend: Backend, record: Any) -> Any:
    """The app of `gaslight replay FILE`: the replay screen alone; closing it quits."""
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
                screen = await open_file_replay(self.backend, record, self.player_name or "")
            except ReplayFileFailed as error:
                self.exit(return_code=2, message=str(error))
                return
            self.push_screen(screen, lambda _: self.exit())

    return ReplayApp(backend, player_name=load_name())

"""`gaslight replay FILE`: watch a saved game again, on any computer, with no host on the
network: the file opens in an in-process host on 127.0.0.1, as quick play does."""

from __future__ import annotations

import argparse
import sys


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
    from tui.screens.replay import replay_app

    app = replay_app(Backend(interfaces=interfaces_from(args.app_interfaces)), record)
    app.run()
    return app.return_code or 0

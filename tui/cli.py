"""The `gaslight` command line: the lobby by default, and one subcommand per module in
`tui/commands/`.

Each command module defines `add_parser(subparsers)`, which registers its parser(s) and sets
`run=function(args) -> int` as a default. Modules import their heavy dependencies inside `run`,
so that `gaslight --help` and the lobby start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = (
    "host",
    "tables",
    "join",  # join and watch
    "simulate",
    "replay",
    "record",
    "serve",
)


def build_parser() -> argparse.ArgumentParser:
    from tui.commands.game_options import games_help

    parser = argparse.ArgumentParser(
        prog="gaslight",
        description="Hidden-information Sherlock Holmes table games over a LAN.",
        epilog=f"games:\n{games_help()}\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--interface",
        action="append",
        dest="app_interfaces",
        metavar="IP",
        help="an address the app's discovery may use (repeatable; default: every LAN "
        "interface; also $GASLIGHT_INTERFACES)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"tui.commands.{name}").add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from tui.launch import run_app

        return run_app(interfaces=args.app_interfaces)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        # Ctrl+C outside a running app or host (which stop by themselves): no traceback.
        print(f"gaslight {args.command}: stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""`gaslight host`: run a host in the foreground, with one table (or the resumed ones)."""

from __future__ import annotations

import argparse

from tui.commands.numbers import whole_number


def add_parser(subparsers) -> None:
    from netplay.table import BOT_PACES
    from tui.commands.game_options import games_help, options_help

    parser = subparsers.add_parser(
        "host",
        help="host a table on this machine",
        description="Host a table and announce it on the LAN. Runs until Ctrl-C. "
        "With --resume, every unfinished table of the last run comes back first.",
        epilog=f"games:\n{games_help()}\n\noptions and bot levels:\n{options_help()}\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", metavar="GAME", help="game id, e.g. timebomb (see below)")
    parser.add_argument("--players", type=int, help="number of seats")
    parser.add_argument("--bots", type=int, default=0, help="seats held by bots (default 0)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        dest="options",
                        help="a game option, e.g. --option variante=on (repeatable; see below)")
    parser.add_argument("--bot-level", metavar="LEVEL",
                        help="how well the bots play (default: the game's strongest; see below)")
    parser.add_argument("--bot-pace", choices=BOT_PACES, metavar="PACE",
                        help="how fast this table's bots act: " + ", ".join(BOT_PACES)
                        + " (default normal)")
    parser.add_argument("--turn-timer", type=turn_seconds, default=0, metavar="S",
                        help="seconds a person has for a turn before a bot plays it "
                        "(default 0: no limit)")
    parser.add_argument("--name", default="", help="table name shown to other players")
    parser.add_argument("--start-when-full", action="store_true",
                        help="start the game as soon as every seat is taken, for a table nobody "
                        "attends (otherwise the first person to sit starts it with Ctrl+S)")
    parser.add_argument("--private", action="store_true",
                        help="ask the table code of everyone who sits or watches, every time "
                        "(otherwise only a player's first visit to this host asks it)")
    parser.add_argument("--port", type=int, default=0,
                        help="TCP port (default: any free port; with --resume, the last one)")
    parser.add_argument(
        "--interface",
        metavar="IP",
        help="listen and announce on this address only (default: $GASLIGHT_INTERFACES, else "
        "every interface)",
    )
    parser.add_argument("--resume", action="store_true",
                        help="restore the unfinished tables from the store, at the same port; "
                        "--game and --players then start a new table only if there was none")
    parser.add_argument("--bot-delay", type=float, metavar="S",
                        help="seconds every bot waits before acting, whatever the table's pace "
                        "(for tests; default: the table's pace)")
    parser.add_argument("--store", default="host", metavar="NAME",
                        help="the store's name in the data directory, for its port, key, code "
                        "and tables (default host; the app keeps a table running in the "
                        "background on its own store)")
    parser.add_argument("--stop-when-empty", action="store_true",
                        help="stop once nobody has been at any of its tables for 10 minutes "
                        "(the app's table kept running in the background)")
    parser.add_argument("--closed-by", metavar="NAME",
                        help="the person the players are told closed the table when this host "
                        "is stopped (default: nobody named)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where the host's store lives (default: $GASLIGHT_DATA_DIR or the "
                        "user data directory)")
    parser.add_argument("--seed", type=int, help="fix the first game's seed, to reproduce a game")
    parser.add_argument("--no-announce", action="store_true",
                        help="do not announce on zeroconf; players join with HOST:PORT")
    parser.set_defaults(run=run)


turn_seconds = whole_number(
    0, lambda _: "a turn timer cannot be negative (0: no limit)", "of seconds")
"""--turn-timer: whole seconds, 0 for none."""


def table_line(summary: dict, options: dict) -> str:
    """A table in the lobby's words: its name, game, free seats, phase and options."""
    from engine.catalogue import CATALOGUE
    from tui.commands.game_options import options_text

    info = CATALOGUE[summary["game"]]
    named = options_text(info, options)
    return (f"{summary['name'] or summary['id']} ({info.title}), free "
            f"{summary['seats_free']}/{summary['players']}, {summary['phase']}"
            + (", private: its table code is asked at every join" if summary.get("private")
               else "")
            + (f"; {named}" if named else ""))


def table_setup(args: argparse.Namespace) -> dict:
    """create_table's keyword arguments from the command line, checked against the game's
    declaration; OptionError or engine.InvalidSetup says what is wrong."""
    import engine
    from engine.catalogue import CATALOGUE
    from tui.commands.game_options import bot_level, games_help, parse_options

    info = CATALOGUE.get(args.game)
    if info is None:
        raise engine.InvalidSetup(f"there is no game {args.game!r}; the games are:\n"
                                  + games_help())
    info.check_players(args.players)
    setup = {"options": parse_options(info, args.players, args.options),
             "turn_timer": args.turn_timer, "start_when_full": args.start_when_full}
    if args.bot_level is not None:
        setup["bot_level"] = bot_level(info, args.bot_level)
    if args.bot_pace is not None:
        setup["bot_pace"] = args.bot_pace
    return setup


EMPTY_CHECK = 30.0
"""Seconds between two looks, with --stop-when-empty, at whether anyone is still there."""


def run(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib
    import logging
    import signal
    import sys

    import engine
    from netplay.host import Host
    from netplay.limits import HostLimits
    from netplay.pairing import show_code
    from tui.launch import interfaces_from

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s",
                        stream=sys.stderr)

    interfaces = interfaces_from([args.interface] if args.interface else None)
    # One interface: listen there only. Several: listen everywhere, announce on those.
    bind = interfaces[0] if interfaces and len(interfaces) == 1 else "0.0.0.0"

    async def serve() -> int:
        # From the start: Ctrl+C while the host starts stops it as cleanly as later.
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        host = Host(data_dir=args.data_dir, store=args.store,
                    limits=HostLimits(bot_delay=args.bot_delay),
                    advertise=not args.no_announce, interfaces=interfaces)
        resumed = host.resume() if args.resume else []
        for error in host.store_errors:
            print(f"could not resume: {error}", file=sys.stderr)
        if not resumed:
            if args.game is None or args.players is None:
                if args.resume:
                    print("no unfinished table to resume; give --game and --players to start "
                          "one", file=sys.stderr)
                else:
                    print("gaslight host: --game and --players are required", file=sys.stderr)
                return 2
            try:
                setup = table_setup(args)
                host.create_table(args.game, args.players, name=args.name, bots=args.bots,
                                  seed=args.seed, private=args.private, **setup)
            except (engine.InvalidSetup, ValueError) as error:
                print(f"gaslight host: {error}", file=sys.stderr)
                return 2
        port = args.port or (host.store.port or 0 if args.resume else 0)
        try:
            address, port = await host.start(bind, port)
        except OSError as error:
            if args.port or not port:
                print(f"gaslight host: cannot listen on {bind}:{port}: {error.strerror}",
                      file=sys.stderr)
                return 2
            # The last port is taken: players' apps follow the host by its identity.
            print(f"port {port} is taken ({error.strerror}); listening on another one",
                  file=sys.stderr)
            address, port = await host.start(bind, 0)
        print(f"Gaslight host listening on {address}:{port}", flush=True)
        for table in host.tables.values():
            print(f"table {table.id}: {table_line(table.summary(), table.options)}"
                  + (" (resumed)" if table.id in resumed else ""), flush=True)
        code = show_code(host.table_code)
        print(f"the table code is {code}   (players type it the first time they join this "
              "host)",
              flush=True)
        print(f"players join with: gaslight join {address}:{port} --code {code}   "
              "(Ctrl-C stops)", flush=True)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(EMPTY_CHECK):
                    await stop.wait()
            if args.stop_when_empty and host.empty_for() >= host.limits.abandoned_after:
                print("nobody has come back for a while: stopping", flush=True)
                break
        # Its players are told the table closed, and by whom, not left reconnecting.
        await host.close(args.closed_by)
        return 0

    return asyncio.run(serve())

"""`gaslight host`: run a host in the foreground, with one table (or the resumed ones)."""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "host",
        help="host a table on this machine",
        description="Host a table and announce it on the LAN. Runs until Ctrl-C. "
        "With --resume, every unfinished table of the last run comes back first.",
    )
    parser.add_argument("--game", help="game id, e.g. timebomb")
    parser.add_argument("--players", type=int, help="number of seats")
    parser.add_argument("--bots", type=int, default=0, help="seats held by bots (default 0)")
    parser.add_argument("--name", default="", help="table name shown to other players")
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
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where the host's store lives (default: $GASLIGHT_DATA_DIR or the "
                        "user data directory)")
    parser.add_argument("--seed", type=int, help="fix the first game's seed, to reproduce a game")
    parser.add_argument("--no-announce", action="store_true",
                        help="do not announce on zeroconf; players join with HOST:PORT")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal
    import sys

    import engine
    from netplay.host import Host
    from netplay.limits import HostLimits
    from tui.launch import interfaces_from

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s",
                        stream=sys.stderr)

    interfaces = interfaces_from([args.interface] if args.interface else None)
    # One interface: listen there only. Several: listen everywhere, announce on those.
    bind = interfaces[0] if interfaces and len(interfaces) == 1 else "0.0.0.0"

    async def serve() -> int:
        host = Host(data_dir=args.data_dir, limits=HostLimits(bot_delay=args.bot_delay),
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
                host.create_table(args.game, args.players, {}, args.name, args.bots, args.seed)
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
            facts = table.summary()
            print(
                f"table {table.id}: {table.name!r}, {engine.GAMES[table.game_id].title}, "
                f"{facts['seats_taken']}/{table.players} seats taken, {facts['phase']}"
                + (" (resumed)" if table.id in resumed else ""),
                flush=True,
            )
        print(f"players join with: gaslight join {address}:{port}   (Ctrl-C stops)", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await host.stop()
        return 0

    return asyncio.run(serve())

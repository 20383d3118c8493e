"""`gaslight serve`: the app in the browsers of the LAN, one private session per page."""

from __future__ import annotations

import argparse

from tui.commands.numbers import whole_number

DEFAULT_PORT = 8443
DEFAULT_SESSIONS = 10
DEFAULT_PER_DEVICE = 3


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the app to browsers on the LAN (HTTPS)",
        description="Serve Gaslight to browsers: a guest opens the address it prints, gives a "
        "name and plays as in a terminal. Runs until Ctrl-C.",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument(
        "--interface", action="append", metavar="IP",
        help="listen, and let the guests' apps discover tables, on this address only "
        "(repeatable: discovery on each, listening on all; default: $GASLIGHT_INTERFACES, "
        "else every interface)")
    parser.add_argument("--max-sessions", type=positive, default=DEFAULT_SESSIONS, metavar="N",
                        help=f"browser pages served at once (default {DEFAULT_SESSIONS})")
    parser.add_argument("--per-device", type=positive, default=DEFAULT_PER_DEVICE, metavar="N",
                        help="browser pages served at once to one device, that is one address "
                        f"(default {DEFAULT_PER_DEVICE}): one device's tabs never take every "
                        "session")
    parser.add_argument("--insecure-http", action="store_true",
                        help="serve plain HTTP instead of HTTPS: everyone on the LAN could "
                        "read what each guest sees, their hand included")
    parser.add_argument("--let-guests-reach", action="append", metavar="NETWORK",
                        type=network, default=[],
                        help="a network (CIDR, e.g. 10.8.0.0/24, or 127.0.0.1/32 for this "
                        "computer's own loopback) where guests may find hosts by address, "
                        "besides the network each page comes from (repeatable)")
    parser.add_argument("--limit", action="append", metavar="NAME=VALUE", default=[],
                        help=argparse.SUPPRESS)  # tests and benchmarks: tui/serve/limits.py
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where the certificate and the guests' settings and seats live "
                        "(default: the serve folder of $GASLIGHT_DATA_DIR or the user data "
                        "directory)")
    parser.set_defaults(run=run)


positive = whole_number(1, lambda _: "at least 1")


def network(text: str):
    import ipaddress

    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a network: write it as an address and a prefix, such as "
            "10.8.0.0/24") from None


def run(args: argparse.Namespace) -> int:
    import asyncio
    import signal
    import sys
    from pathlib import Path

    from netplay.store import data_dir
    from tui.launch import interfaces_from
    from tui.serve.console import loop_exception_handler, set_up_console
    from tui.serve.limits import ServeLimits
    from tui.serve.page_address import SERVE_DIR
    from tui.serve.qr import qr_for_terminal
    from tui.serve.server import GaslightServer, certificate_fingerprint

    try:
        limits = ServeLimits().changed(args.limit)
    except ValueError as error:
        print(f"gaslight serve: {error}", file=sys.stderr)
        return 2
    set_up_console()
    interfaces = interfaces_from(args.interface)
    # One interface: listen there only. Several: listen everywhere, discover on those.
    bind = interfaces[0] if interfaces and len(interfaces) == 1 else "0.0.0.0"
    root = Path(args.data_dir) if args.data_dir else data_dir() / SERVE_DIR

    async def serve() -> int:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(loop_exception_handler)
        server = GaslightServer(root, bind, args.port, interfaces=interfaces,
                                max_sessions=args.max_sessions, per_device=args.per_device,
                                https=not args.insecure_http,
                                guests_reach=args.let_guests_reach, limits=limits)
        stop = asyncio.Event()

        def stop_serving() -> None:
            # Ctrl+C, SIGTERM, or the terminal closing (SIGHUP): the evening ends, and every
            # guest's app with it. Asked again, the apps get no grace.
            if stop.is_set():
                server.kill_every_app()
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop_serving)
        try:
            await server.start()
        except OSError as error:
            print(f"gaslight serve: cannot listen on {bind}:{args.port}: {error.strerror}",
                  file=sys.stderr)
            return 2
        for url in server.urls:
            print(f"Gaslight for browsers at {url.rstrip('/')}", flush=True)
        # A phone's camera opens the first: the address of the LAN's interface.
        print(f"a phone's camera opens it from this code:\n"
              f"{qr_for_terminal(server.urls[0], colours=sys.stdout.isatty())}", flush=True)
        if server.key is not None:
            print(f"the certificate's SHA-256 fingerprint: {certificate_fingerprint(server.key)}",
                  flush=True)
            print("a guest's browser warns about a self-signed certificate the first time: "
                  "compare the fingerprint it shows with this one before going on", flush=True)
        else:
            print("WARNING: plain HTTP: everyone on the LAN can read what each guest sees and "
                  "types, their hand and the table codes included", flush=True)
        print(f"at most {args.max_sessions} guests at once, {args.per_device} pages per device"
              f"   (Ctrl-C stops: every guest's app ends within {limits.exit_grace:g} s)",
              flush=True)
        await stop.wait()
        await server.close()
        return 0

    return asyncio.run(serve())

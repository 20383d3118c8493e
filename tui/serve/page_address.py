"""The page's address that guests can reach, for the QR code a phone scans.

`gaslight serve` prints it, and tells it to the apps that can show it:
- a guest's app, through `PAGE_ADDRESS_ENV`: the address of the interface that guest's page
  reached (their friends at the table are on that network), or the server's own when the page
  came through this computer's loopback (the owner's own browser);
- an app in a terminal of the same user (one that hosts a table browsers join), through a
  record in the server's directory (`SERVING_FILE`), which lives while the server does.

The address is never 127.0.0.1 unless the owner asked for it (`--interface 127.0.0.1`): of
the server's addresses, the one of the interface the default route goes through comes first.
No name is looked up and no packet is sent to find it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from pathlib import Path
from typing import Final

PAGE_ADDRESS_ENV: Final = "GASLIGHT_PAGE_ADDRESS"
SERVE_DIR: Final = "serve"
"""The server's own directory in the user's data directory, by default."""
SERVING_FILE: Final = "serving"
"""In the server's directory while it runs: its pid and its page's address, one line."""
ROUTED: Final = "198.51.100.1"
"""An address outside every LAN (TEST-NET-2): the interface a packet to it would leave by is
the one the default route takes. A UDP socket connected to it sends nothing."""


def routed_address() -> str | None:
    """This computer's address on the interface of its default route, if it has one."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((ROUTED, 9))
        return probe.getsockname()[0]
    return None


def guests_first(addresses: list[str], routed: str | None = None) -> list[str]:
    """`addresses` with the one guests most likely reach first: the default route's."""
    routed = routed if routed is not None else routed_address()
    return sorted(addresses, key=lambda address: address != routed)


def page_url(scheme: str, address: str, port: int) -> str:
    host = f"[{address}]" if ipaddress.ip_address(address).version == 6 else address
    return f"{scheme}://{host}:{port}/"


def guest_page_url(scheme: str, reached: str | None, port: int, served_at: str) -> str:
    """The address a guest's app shows: the one its page reached, unless that is this
    computer's loopback, which only this computer reaches; then the server's `served_at`."""
    if reached is None or ipaddress.ip_address(reached).is_loopback:
        return served_at
    return page_url(scheme, reached, port)


def write_serving(root: Path, url: str) -> Path:
    """Record, owner-only, that this process serves `url` (removed by `forget_serving`)."""
    path = root / SERVING_FILE
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as record:
        record.write(f"{os.getpid()} {url}\n")
    return path


def forget_serving(root: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        (root / SERVING_FILE).unlink()


def serving_url(root: Path) -> str | None:
    """The address a server running from `root` serves, if one runs: a record left by a
    server that died is no server."""
    try:
        pid, url = (root / SERVING_FILE).read_text().split()
        os.kill(int(pid), 0)
    except (OSError, ValueError):
        return None
    return url


def page_address() -> str | None:
    """The page's address this app shows as a QR code: its own page's when it is a guest's
    app, else that of a server this user runs from the default directory; None when no
    browser can reach Gaslight here."""
    if address := os.environ.get(PAGE_ADDRESS_ENV):
        return address
    from netplay.store import data_dir

    return serving_url(data_dir() / SERVE_DIR)

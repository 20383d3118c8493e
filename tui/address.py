"""Parse the `HOST:PORT` a player types to join a table without discovery, and say whether a
guest in a browser may reach it."""

from __future__ import annotations

import errno
import ipaddress
import os
import re
from dataclasses import dataclass
from typing import Final

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

EXAMPLE = "192.168.1.20:7777"
HOSTNAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")
"""A DNS host name: dot-separated labels of letters, digits and inner hyphens."""


class AddressError(ValueError):
    """An address the player typed that is not HOST:PORT."""


@dataclass(frozen=True)
class Address:
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def is_host(text: str) -> bool:
    """Whether `text` is an IP address or a host name."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return len(text) <= 253 and HOSTNAME.fullmatch(text) is not None
    return True


def parse_address(text: str) -> Address:
    """`HOST:PORT`, `[IPv6]:PORT`; raise AddressError with a message a player can act on. What
    was typed is never echoed back as an example: it may be anything."""
    text = text.strip()
    if not text:
        raise AddressError(f"type the table's address as HOST:PORT, for example {EXAMPLE}")
    if text.startswith("["):
        host, sep, port_text = text[1:].partition("]:")
    else:
        host, sep, port_text = text.rpartition(":")
        if not sep:
            host = text
    if not host or not is_host(host):
        raise AddressError(
            "that is not a host name or an IP address: type HOST:PORT, where the host's "
            f"screen shows it, for example {EXAMPLE}"
        )
    if not sep:
        raise AddressError(f"the address needs a port after the host: HOST:PORT, for example "
                           f"{Address(host, 7777)}")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise AddressError("the port (after the colon) must be a number from 1 to 65535")
    return Address(host, int(port_text))


GUEST_NETWORKS_ENV: Final = "GASLIGHT_GUEST_NETWORKS"
"""Set by `gaslight serve` in each guest's app: the networks (CIDR, comma-separated) in which
that guest may reach a host. An app with it set runs for a guest in a browser."""


def guest_networks_from_environment() -> tuple[Network, ...] | None:
    """The networks this app's guest may reach, if it runs for a guest (None: anywhere)."""
    text = os.environ.get(GUEST_NETWORKS_ENV)
    if text is None:
        return None
    return tuple(ipaddress.ip_network(part.strip(), strict=False)
                 for part in text.split(",") if part.strip())


class AddressNotAllowed(PermissionError):
    """A host that a guest in a browser may not reach: its strerror says why, in words the
    lobby shows after "Cannot reach HOST:PORT: "."""

    def __init__(self, why: str) -> None:
        super().__init__(errno.EACCES, why)


def check_reachable(address: Address, networks: tuple[Network, ...]) -> None:
    """Raise AddressNotAllowed unless a guest limited to `networks` may reach `address`.

    A page runs its app on the serving computer, with its owner's rights: without this, a
    guest could find out which ports answer on that computer's own loopback, or on networks
    only it is on, by asking the lobby to find a host there. So a guest reaches hosts on the
    network its page came from (and any the owner added), by IP address: a name could be made
    to mean another address once checked."""
    try:
        ip = ipaddress.ip_address(address.host)
    except ValueError:
        raise AddressNotAllowed(
            "in a browser, type the host's IP address (its screen shows it), not a name"
        ) from None
    if not any(ip.version == network.version and ip in network for network in networks):
        raise AddressNotAllowed(
            "in a browser, Gaslight reaches hosts on this network only, never the serving "
            "computer's own loopback")

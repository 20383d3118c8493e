"""Parse the `HOST:PORT` a player types to join a table without discovery."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

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

"""Parse the `HOST:PORT` a player types to join a table without discovery."""

from __future__ import annotations

from dataclasses import dataclass


class AddressError(ValueError):
    """An address the player typed that is not HOST:PORT."""


@dataclass(frozen=True)
class Address:
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_address(text: str) -> Address:
    """`HOST:PORT`, `[IPv6]:PORT`; raise AddressError with a message a player can act on."""
    text = text.strip()
    if not text:
        raise AddressError("type the table's address as HOST:PORT, for example 192.168.1.20:7777")
    if text.startswith("["):
        host, sep, port_text = text[1:].partition("]:")
    else:
        host, sep, port_text = text.rpartition(":")
    if not sep or not host:
        raise AddressError(f"{text!r} has no port: type HOST:PORT, for example {text}:7777")
    if not port_text.isdigit():
        raise AddressError(f"the port {port_text!r} must be a number from 1 to 65535")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise AddressError(f"the port {port} must be a number from 1 to 65535")
    return Address(host, port)

"""Pairing by the table code: SPAKE2 on the code inside TLS, confirmed by MACs over the host
certificate's fingerprint as each side sees it (PROTOCOL.md, "Pairing").

A machine in the middle presents its own certificate to the client, so the fingerprints the
two ends see differ and the MACs cannot agree unless it knows the code; and a run of the
exchange tests one guess of the code, which the host counts against the address. Nothing here
touches a socket: the host's side takes a `send` and a `receive`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Final

from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import SPAKEError

from netplay.errors import ProtocolError, Rejection
from netplay.frames import PROTOCOL_VERSION
from netplay.protocol import Pair, Paired, PairRequest, parse_client_message
from netplay.ratelimit import Lockout

log = logging.getLogger("gaslight.host")

CODE_DIGITS: Final = 8
CLIENT_SIDE, HOST_SIDE = b"gaslight-client", b"gaslight-host"
"""SPAKE2's identities of the two sides."""
HOST_LABEL, CLIENT_LABEL = (f"gaslight-{PROTOCOL_VERSION} host".encode(),
                            f"gaslight-{PROTOCOL_VERSION} client".encode())
"""What each side's MAC starts with: they differ, so no MAC can be reflected back, and name the
protocol, so no MAC of another version passes."""
SPAKE2_MESSAGE_BYTES: Final = 33
"""A SPAKE2 message: its side byte, then a group element of 32 bytes. `spake2` itself reads
the first 32 bytes after the side and ignores the rest, and takes a short element."""
PAIR_FAILURES: Final = 5
"""Pairings one address may fail per `PAIR_FAILURE_WINDOW` before every `pair` is refused."""
PAIR_FAILURE_WINDOW: Final = 60.0
WRONG_CODE: Final = "wrong table code"


class PairingFailed(ConnectionError):
    """The host's MAC does not match: a wrong code, or a machine in the middle."""


def new_code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


def read_code(text: str) -> str:
    """The 8 digits of a code as a person types it (`1234-5678`, `1234 5678`); ValueError
    if it is not 8 digits."""
    digits = re.sub(r"[\s\-]", "", text)
    if not re.fullmatch(rf"\d{{{CODE_DIGITS}}}", digits):
        raise ValueError(f"a table code is {CODE_DIGITS} digits, like 1234-5678")
    return digits


def show_code(code: str) -> str:
    """A code as the host shows it: 1234-5678."""
    return f"{code[:4]}-{code[4:]}"


def mac(key: bytes, label: bytes, fingerprint: str) -> str:
    return hmac.new(key, label + bytes.fromhex(fingerprint), hashlib.sha256).hexdigest()


def _message_bytes(text: str) -> bytes:
    try:
        message = bytes.fromhex(text)
    except ValueError:
        raise ProtocolError("a SPAKE2 message must be hex") from None
    if len(message) != SPAKE2_MESSAGE_BYTES:
        raise ProtocolError(f"a SPAKE2 message is {SPAKE2_MESSAGE_BYTES} bytes, "
                            f"not {len(message)}")
    return message


class ClientPairing:
    """The client's side of one pairing (side A)."""

    def __init__(self, code: str):
        self._spake = SPAKE2_A(code.encode(), idA=CLIENT_SIDE, idB=HOST_SIDE)
        self.request = PairRequest(self._spake.start().hex())
        """The connection's first frame."""

    def confirm(self, pair: Pair, fingerprint: str) -> Paired:
        """The `paired` answer to the host's `pair`, if its MAC covers the fingerprint this
        client saw; PairingFailed if not."""
        try:
            key = self._spake.finish(_message_bytes(pair.msg))
        except (SPAKEError, ValueError):  # a ProtocolError is a ValueError
            raise PairingFailed("the host's pairing message is malformed") from None
        if not hmac.compare_digest(mac(key, HOST_LABEL, fingerprint), str(pair.mac)):
            raise PairingFailed(
                "the table code is wrong, or someone between you and the host is pretending "
                "to be it: check the code with the host's player")
        return Paired(mac(key, CLIENT_LABEL, fingerprint))


Send = Callable[[Pair], None]
Receive = Callable[[], Awaitable[dict]]


class HostPairing:
    """The host's side (B): its code, its fingerprint, and the count of failed pairings per
    address."""

    def __init__(self, code: str, fingerprint: str, timeout: float):
        self.code = code
        self.fingerprint = fingerprint
        self.timeout = timeout
        self.lockout = Lockout(PAIR_FAILURES, PAIR_FAILURE_WINDOW)

    async def run(self, message: str, address: str, send: Send, receive: Receive) -> None:
        """Answer a client's `pair`, and check its `paired`. Raises Rejection for a wrong code,
        a lockout, or a client that does not finish within `timeout`."""
        wait = self.lockout.wait(address, time.monotonic())
        if wait:
            log.warning("refused a pairing from %s: rate limited", address)
            raise Rejection(f"too many wrong table codes from {address}; "
                            f"try again in {wait} seconds")
        # Any end but a matching MAC counts: a client that learns from the host's MAC whether
        # its guess was right, then hangs up, has still made its guess. Attempts in flight do
        # not count yet (pairings at once from one place are honest ones, as a whole table
        # joining); an address has at most `max_connections_per_address` in flight.
        paired = False
        try:
            await self._run(message, send, receive)
            paired = True
        finally:
            if not paired:
                failures = self.lockout.failed(address, time.monotonic())
                log.warning("a failed pairing from %s (%d recent failures)", address, failures)

    async def _run(self, message: str, send: Send, receive: Receive) -> None:
        spake = SPAKE2_B(self.code.encode(), idA=CLIENT_SIDE, idB=HOST_SIDE)
        answer = spake.start().hex()
        received = _message_bytes(message)
        try:
            key = spake.finish(received)
        except (SPAKEError, ValueError) as error:
            raise ProtocolError(f"a malformed SPAKE2 message: {error}") from None
        send(Pair(answer, mac(key, HOST_LABEL, self.fingerprint)))
        try:
            async with asyncio.timeout(self.timeout):
                reply = parse_client_message(await receive())
        except asyncio.TimeoutError:
            raise Rejection(f"no 'paired' within {self.timeout:g} seconds") from None
        if not isinstance(reply, Paired):
            raise ProtocolError(f"a 'pair' is answered by 'paired', not {reply.TAG!r}")
        if not hmac.compare_digest(mac(key, CLIENT_LABEL, self.fingerprint), reply.mac):
            raise Rejection(WRONG_CODE)

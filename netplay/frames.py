"""Frames, sans-IO: the length prefix, the msgpack body, and the limits on both.

A frame is a 4-byte big-endian length, then one msgpack map with string keys. Every message has
the protocol version `"v"` and a tag `"t"`. Nothing here touches a socket: `FrameDecoder` takes
bytes and gives messages, and `read_message` needs only something with `readexactly()` (an
`asyncio.StreamReader` in production and in tests). What the maps mean, as typed records, is
`netplay.protocol`.

Every limit is a named `Final`, and every error that a limit raises says what was too large and
what the limit is. See PROTOCOL.md, "Frames".
"""

from __future__ import annotations

from typing import Any, Final, Protocol

import msgpack

from netplay.errors import ProtocolError, VersionMismatch

PROTOCOL_VERSION: Final = 5
MAX_FRAME: Final = 64 * 1024
"""Bytes in one frame body. Checked against the length prefix before the body is read."""
SENT_FRAME: Final = 16 * 1024
"""Bytes in any frame the host sends: a state carries only new events to stay under it."""
HEADER_SIZE: Final = 4
MAX_NESTING: Final = 16
"""Containers inside containers in one message. Views nest 4 or 5 deep; more is hostile."""


class Reader(Protocol):
    async def readexactly(self, n: int) -> bytes: ...


class Sendable(Protocol):
    """A typed message (`netplay.protocol.Message`): frames need only its wire form, so that
    the records build on the frames and never the other way."""

    def to_dict(self) -> dict: ...


def encode(message: dict | Sendable) -> bytes:
    """One frame: the length prefix and the msgpack body of `message`."""
    if not isinstance(message, dict):
        message = message.to_dict()
    try:
        body = msgpack.packb(message, use_bin_type=True)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"cannot encode message: {error}") from None
    if len(body) > MAX_FRAME:
        raise ProtocolError(
            f"a {message.get('t', '?')!r} message is {len(body)} bytes; "
            f"the frame limit is {MAX_FRAME} bytes"
        )
    return len(body).to_bytes(HEADER_SIZE, "big") + body


def check_length(length: int) -> None:
    if length > MAX_FRAME:
        raise ProtocolError(f"frame length {length} bytes is over the limit of {MAX_FRAME} bytes")
    if length == 0:
        raise ProtocolError("empty frame: a frame must hold one msgpack map")


def decode_body(body: bytes) -> dict:
    """The message in one frame body, checked for shape: a map with string keys, "v" and "t"."""
    try:
        message = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
        )
    except msgpack.StackError:
        raise ProtocolError(
            f"message nests deeper than msgpack's own limit; the limit is {MAX_NESTING} levels"
        ) from None
    except (ValueError, TypeError) as error:
        # FormatError, ExtraData, UnicodeDecodeError, non-string keys: all ValueErrors.
        raise ProtocolError(f"malformed msgpack frame: {error or type(error).__name__}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a frame must hold a msgpack map, not {type(message).__name__}")
    _check_plain(message)
    if "v" not in message:
        raise ProtocolError("message has no protocol version 'v'")
    version = message["v"]
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise VersionMismatch(version, PROTOCOL_VERSION)
    tag = message.get("t")
    if type(tag) is not str:
        raise ProtocolError("message has no string tag 't'")
    return message


_PLAIN_SCALARS = (str, int, float, bool, type(None))


def _check_plain(message: dict) -> None:
    """Reject nesting beyond MAX_NESTING, non-string keys and msgpack types we never send
    (bin, ext), iteratively so that hostile depth cannot exhaust Python's stack."""
    stack: list[tuple[Any, int]] = [(message, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_NESTING:
                raise ProtocolError(f"message nests {depth} levels deep; the limit is {MAX_NESTING}")
            for key, item in value.items():
                if type(key) is not str:
                    raise ProtocolError(f"map key {key!r} is not a string")
                if not isinstance(item, _PLAIN_SCALARS):
                    stack.append((item, depth + 1))
        elif isinstance(value, list):
            if depth > MAX_NESTING:
                raise ProtocolError(f"message nests {depth} levels deep; the limit is {MAX_NESTING}")
            for item in value:
                if not isinstance(item, _PLAIN_SCALARS):
                    stack.append((item, depth + 1))
        elif not isinstance(value, _PLAIN_SCALARS):
            raise ProtocolError(f"unsupported msgpack value of type {type(value).__name__}")


class FrameDecoder:
    """Bytes in, messages out. Keeps a partial frame between calls to `feed`."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict]:
        self._buffer += data
        messages = []
        while len(self._buffer) >= HEADER_SIZE:
            length = int.from_bytes(self._buffer[:HEADER_SIZE], "big")
            check_length(length)
            if len(self._buffer) < HEADER_SIZE + length:
                break
            body = bytes(self._buffer[HEADER_SIZE : HEADER_SIZE + length])
            del self._buffer[: HEADER_SIZE + length]
            messages.append(decode_body(body))
        return messages

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame held back."""
        return len(self._buffer)


async def read_frame(reader: Reader) -> tuple[bytes, dict]:
    """The next frame from `reader`, as its raw bytes and its message. The length is checked
    before the body is read.

    Raises ProtocolError on bad input and asyncio.IncompleteReadError at end of stream.
    """
    header = await reader.readexactly(HEADER_SIZE)
    length = int.from_bytes(header, "big")
    check_length(length)
    body = await reader.readexactly(length)
    return header + body, decode_body(body)


async def read_message(reader: Reader) -> dict:
    """The next message from `reader` (see `read_frame`)."""
    _, message = await read_frame(reader)
    return message


def message(tag: str, **fields: Any) -> dict:
    """A message with its version and tag, for the host and client to send."""
    return {"v": PROTOCOL_VERSION, "t": tag, **fields}

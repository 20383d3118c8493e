"""What the host turns down, in one hierarchy: the class says whether the connection closes.

- `Refusal`: a request the host turns down with a non-fatal `error`. Nothing changes and the
  connection stays open (an illegal move, a taken seat, chat too fast).
- `FatalError`: the host answers with a fatal `error` and closes that connection only.
  - `ProtocolError`: bytes or a message that break the protocol (malformed, oversized, wrong
    version, unknown type, a second `hello`). The client library raises it too, for a host
    that breaks the protocol.
    - `VersionMismatch`: a message of another protocol version, which the host answers by
      telling the client which version it speaks.
  - `Rejection`: a well-formed request refused so firmly that the connection ends (an unknown
    seat token, no such table at `hello`, too many connections from one address).
"""

from __future__ import annotations


class HostError(Exception):
    """Something the host answers with an `error` frame."""


class Refusal(HostError):
    """A request turned down; nothing changes and the connection stays open."""


class FatalError(HostError):
    """The host answers with a fatal `error`, then closes the connection."""


class ProtocolError(FatalError, ValueError):
    """Bytes or a message that break the protocol."""


class VersionMismatch(ProtocolError):
    """A message of another protocol version than this side's."""

    def __init__(self, version: object, own: int) -> None:
        super().__init__(f"protocol version {version!r} is not supported; this side speaks "
                         f"version {own}: update Gaslight on both machines")
        self.version = version


class Rejection(FatalError):
    """A well-formed request refused so firmly that the connection ends."""

"""Messages the network workers post. Named in the past tense: each says what happened.

Workers never touch widgets; handlers on the screens do (the Toolong pattern).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from netplay import protocol as wire
from netplay.client import Received, Status
from tui.listing import TableListing


@dataclass
class TablesFound(Message):
    """Discovery (or a host asked by address) produced a fresh list of tables."""

    tables: list[TableListing]
    source: str

    def can_replace(self, message: Message) -> bool:
        # Only the newest list from a source matters; a burst of announcements collapses.
        return isinstance(message, TablesFound) and message.source == self.source


@dataclass
class Connected(Message):
    seat: int | None
    spectator: bool


@dataclass
class LobbyChanged(Message):
    lobby: wire.Lobby


@dataclass
class StateChanged(Message):
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    seat: int | None


@dataclass
class ChatReceived(Message):
    sender: str
    text: str
    channel: str
    past: bool = False
    """Said before this connection: the host's recent lines, sent on joining or reconnecting."""


@dataclass
class ErrorReceived(Message):
    text: str
    fatal: bool


@dataclass
class ConnectionStatusChanged(Message):
    status: str  # "connecting" | "connected" | "reconnecting" | "closed"
    detail: str = ""


@dataclass
class HintHeard(Message):
    """The host's hint for this seat: the strongest bot's move and why (PROTOCOL.md,
    "Hints")."""

    action: dict[str, Any]
    reason: str
    seats: list[int]


@dataclass
class TableClosed(Message):
    """The host said the table closed for good, in `words` that name who closed it."""

    words: str


@dataclass
class CodeRefused(Message):
    """The host did not pair with the table code typed: wrong, or not the host at all."""

    detail: str


def heard(message: Received) -> Message | None:
    """What a table's screen hears of a message from its host (or its client's own `Status`);
    None for what is not the table's (a replay's answers)."""
    match message:
        case Status(status=status):  # made by the client itself while it reconnects
            return ConnectionStatusChanged(status)
        case wire.Welcome(seat=seat, spectator=spectator):
            return Connected(seat, spectator)
        case wire.Lobby():
            return LobbyChanged(message)
        case wire.State(view=view, legal=legal, seat=seat):
            return StateChanged(view, list(legal), seat)
        case wire.ChatLine(sender=sender, text=text, channel=channel, past=past):
            return ChatReceived(sender, text, channel, past)
        case wire.Closed(message=text):
            return TableClosed(text)
        case wire.Error(message=text, fatal=fatal):
            return ErrorReceived(text, fatal)
        case wire.Hint(action=action, reason=reason, seats=seats):
            return HintHeard(action, reason, list(seats))
    return None

"""Messages the network workers post. Named in the past tense: each says what happened.

Workers never touch widgets; handlers on the screens do (the Toolong pattern).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

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
    lobby: dict[str, Any]


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
class TableClosed(Message):
    """The host said the table closed for good, in `words` that name who closed it."""

    words: str


@dataclass
class CodeRefused(Message):
    """The host did not pair with the table code typed: wrong, or not the host at all."""

    detail: str

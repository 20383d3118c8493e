"""A word and a symbol for the connection's state, never colour alone."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

LABELS = {
    "connecting": "◌ connecting",
    "connected": "● connected",
    "reconnecting": "◌ reconnecting…",
    "closed": "✕ disconnected",
    "local": "● local",
}


class ConnectionIndicator(Static):
    DEFAULT_CSS = """
    ConnectionIndicator { width: auto; padding: 0 1; }
    ConnectionIndicator.-connected { color: $success; }
    ConnectionIndicator.-reconnecting, ConnectionIndicator.-connecting { color: $warning; }
    ConnectionIndicator.-closed { color: $error; text-style: bold; }
    """

    status: reactive[str] = reactive("connecting")

    def watch_status(self, old: str, new: str) -> None:
        self.remove_class(f"-{old}")
        self.add_class(f"-{new}")
        self.update(LABELS.get(new, new))

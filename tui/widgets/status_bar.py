"""The table's top line: where you are, the game's state, and the connection."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tui.widgets.connection_indicator import ConnectionIndicator


class StatusBar(Horizontal):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; dock: top; }
    StatusBar #status-title { width: auto; padding: 0 1; text-style: bold; }
    StatusBar #status-game { width: 1fr; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Gaslight", id="status-title")
        yield Static("", id="status-game")
        yield ConnectionIndicator()

    def set_title(self, text: str) -> None:
        self.query_one("#status-title", Static).update(text)

    def set_game(self, text: str) -> None:
        self.query_one("#status-game", Static).update(text)

    def set_connection(self, status: str) -> None:
        self.query_one(ConnectionIndicator).status = status

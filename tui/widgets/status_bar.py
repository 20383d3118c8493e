"""The table's top line: whose turn it is, the game's state, the game, the table code (at the
table this app hosts) and the connection.

Whose turn comes first, so that it survives the narrowest terminal; the game's title gives
way below 100 columns (the player knows which game they sit at), and the game's state keeps the
parts the room left holds, whole (`FittedLine`). The code stays all game: latecomers and
spectators ask the host for it.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tui.widgets.changed import update_changed
from tui.widgets.connection_indicator import ConnectionIndicator
from tui.widgets.fitted_line import FittedLine

WIDE = 100
"""From this many columns on, the game's title has room in the status bar."""


class StatusBar(Horizontal):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; dock: top; }
    StatusBar #status-title { width: auto; padding: 0 1; text-style: bold; }
    StatusBar #status-turn { width: auto; padding: 0 1; text-style: bold; }
    StatusBar #status-turn.-yours { background: $warning; color: $text; }
    StatusBar #status-game { width: 1fr; padding: 0 1; }
    StatusBar #status-code { width: auto; padding: 0 1; color: $text-muted; display: none; }
    StatusBar.-narrow #status-title { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Gaslight", id="status-title")
        yield FittedLine(id="status-turn")
        yield FittedLine(id="status-game")
        yield Static("", id="status-code")
        yield ConnectionIndicator()

    def on_resize(self) -> None:
        self.set_class(self.size.width < WIDE, "-narrow")
        self.call_after_refresh(self.fit_turn)

    def fit_turn(self) -> None:
        """Whose turn takes the room the code and the connection leave it, before the game's
        state, which keeps its whole parts in what is left."""
        others = sum(widget.outer_size.width for widget in self.children
                     if widget.id not in ("status-turn", "status-game") and widget.display)
        self.query_one("#status-turn").styles.max_width = max(10, self.size.width - others)

    # Every line here may hold a player's or a table's name: text, never markup.

    def set_title(self, text: str) -> None:
        update_changed(self.query_one("#status-title", Static), Text(text))

    def set_turn(self, text: str, yours: bool = False) -> None:
        turn = self.query_one("#status-turn", FittedLine)
        turn.show(text)
        turn.display = bool(text)
        self.call_after_refresh(self.fit_turn)
        turn.set_class(yours, "-yours")

    def set_game(self, text: str) -> None:
        # One line across the room left: its size never depends on its text.
        self.query_one("#status-game", FittedLine).show(text)

    def set_code(self, code: str) -> None:
        """The table code of the table this app hosts, shown all game."""
        box = self.query_one("#status-code", Static)
        update_changed(box, Text(f"code {code}"))
        box.display = bool(code)

    def set_connection(self, status: str) -> None:
        self.query_one(ConnectionIndicator).status = status

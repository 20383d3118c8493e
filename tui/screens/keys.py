"""Every key the screen below answers to now, with what it does."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

GENERAL_KEYS = [
    ("1-9, 0", "At a table: pick the player in seat 1-9 (0: 10); Enter acts"),
    ("ctrl+p", "Command palette: every command by name"),
    ("tab / shift+tab", "Move between parts of the screen"),
    ("ctrl+q", "Quit Gaslight"),
]


class KeysScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > Vertical { width: 64; height: auto; max-height: 90%; border: thick $accent;
                            background: $surface; padding: 0 1; }
    KeysScreen DataTable { height: auto; max-height: 20; }
    """

    BINDINGS = [Binding("escape", "close", "Close"), Binding("question_mark", "close", "Close")]

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Keys you can use here now (Esc closes):")
            yield DataTable(show_cursor=False, zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Key", "Does")
        for key, description in [*self.keys, *GENERAL_KEYS]:
            table.add_row(key, description)

    def action_close(self) -> None:
        self.dismiss(None)

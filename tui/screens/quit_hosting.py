"""Quitting the app that hosts a table for others: the question says what becomes of the
table, and offers to keep it running without this app (design.md, "Leaving")."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

KEEP, CLOSE = "keep", "close"
Choice = Literal["keep", "close"]


class QuitHostingScreen(ModalScreen[Choice | None]):
    """Keep the table running in the background, close it for everyone, or stay (Esc)."""

    DEFAULT_CSS = """
    QuitHostingScreen { align: center middle; }
    QuitHostingScreen > Vertical { width: 72; max-width: 100%; height: auto;
                                   border: thick $accent; background: $surface; padding: 0 1; }
    QuitHostingScreen #quit-text { height: auto; margin: 0 0 1 0; }
    QuitHostingScreen #quit-buttons { height: 1; }
    QuitHostingScreen #quit-buttons Button { margin: 0 2 0 0; }
    """

    BINDINGS = [Binding("escape", "stay", "Stay")]

    def __init__(self, tables: list[str]) -> None:
        """`tables`: the names of the tables this app hosts for others."""
        super().__init__()
        self.tables = tables

    def compose(self) -> ComposeResult:
        names = ", ".join(self.tables)
        with Vertical():
            yield Static(
                f"Quit Gaslight? You host {names} on this computer.\n"
                "Keep it running: it goes on in the background here, the others play on, and "
                "you come back to your seat from the lobby (where you can also stop it).\n"
                "Close it: it closes for everyone there, who are told you closed it.",
                id="quit-text", markup=False)
            with Horizontal(id="quit-buttons"):
                yield Button("Keep it running", variant="primary", compact=True, id=KEEP)
                yield Button("Close it", variant="error", compact=True, id=CLOSE)
                yield Button("Stay", compact=True, id="stay")

    def on_mount(self) -> None:
        self.query_one(f"#{KEEP}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choice = event.button.id
        self.dismiss(choice if choice in (KEEP, CLOSE) else None)  # type: ignore[arg-type]

    def action_stay(self) -> None:
        self.dismiss(None)

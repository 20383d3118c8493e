"""A yes-or-no question in a small dialog: Enter says yes, Esc says no."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 64; max-width: 100%; height: auto; border: thick $accent;
                               background: $surface; padding: 0 1; }
    ConfirmScreen #confirm-text { height: auto; margin: 0 0 1 0; }
    ConfirmScreen #confirm-buttons { height: 1; }
    ConfirmScreen #confirm-buttons Button { margin: 0 2 0 0; }
    """

    BINDINGS = [Binding("escape", "no", "No")]

    def __init__(self, text: str, yes: str, no: str) -> None:
        super().__init__()
        self.text, self.yes, self.no = text, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.yes, variant="primary", compact=True, id="confirm-yes")
                yield Button(self.no, compact=True, id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_no(self) -> None:
        self.dismiss(False)

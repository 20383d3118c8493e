"""Ask the player's name, once: it is remembered in the user config directory."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.config import MAX_NAME, InvalidName, clean_name, save_name


class NameScreen(ModalScreen[str]):
    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen > Vertical { width: 60; height: auto; border: thick $accent; background: $surface;
                            padding: 1 2; }
    NameScreen #name-error { color: $error; height: auto; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, current: str | None = None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("What name should the other players see?")
            # No max_length: a name cut as it is typed would be cut silently; clean_name says
            # what the limit is instead.
            yield Input(value=self.current or "", placeholder=f"your name, at most {MAX_NAME} "
                        "characters", id="name-input")
            yield Static("", id="name-error")
            yield Static("Enter to save. It is remembered for next time.", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            name = clean_name(event.value)
        except InvalidName as error:
            self.query_one("#name-error", Static).update(str(error))
            return
        try:
            save_name(name)
        except OSError as error:
            self.notify(f"Could not remember the name: {error}", severity="warning")
        self.dismiss(name)

    def action_cancel(self) -> None:
        # Without a name there is nothing to play as: only an existing name may be kept.
        if self.current:
            self.dismiss(self.current)

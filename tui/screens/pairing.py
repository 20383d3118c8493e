"""Ask the player for a host's table code: once per host, the first time they join it, and at
every join of a private table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class PairingScreen(ModalScreen[str | None]):
    """Dismissed with the code's 8 digits, or None if the player cancels."""

    DEFAULT_CSS = """
    PairingScreen { align: center middle; }
    PairingScreen > Vertical { width: 64; height: auto; border: thick $accent;
                               background: $surface; padding: 1 2; }
    PairingScreen #code-error { color: $error; height: auto; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, where: str, private: bool = False, table: str = "",
                 by: str = "") -> None:
        """`where` is the host's address; `table` the name of the table being joined and `by`
        who hosts it, when known, so the person sees which table, and whose, asks for the
        code."""
        super().__init__()
        self.where = where
        self.private = private
        self.table = table
        self.by = by

    def compose(self) -> ComposeResult:
        why = ("This table is private: its host asks the table code at every join."
               if self.private else
               "The first time you join a host, type its table code (its player sees it "
               "in the waiting room, or in the output of gaslight host). It proves the host is "
               "the one you mean; after that this computer knows it.")
        with Vertical():
            hosted = f", hosted by [b]{escape(self.by)}[/b]" if self.by else ""
            table = f" ([b]{escape(self.table)}[/b]{hosted})" if self.table else ""
            yield Static(f"Table code for [b]{escape(self.where)}[/b]{table}\n{why}")
            yield Input(placeholder="1234-5678", id="code-input")
            yield Static("", id="code-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from netplay.pairing import read_code

        event.stop()
        try:
            code = read_code(event.value)
        except ValueError as error:
            self.query_one("#code-error", Static).update(str(error))
            return
        self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)

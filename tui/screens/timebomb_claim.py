"""Make a public, non-binding claim about your own wires: offered from the legal claims."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.models.timebomb import describe_claim


class ClaimScreen(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    ClaimScreen { align: center middle; }
    ClaimScreen > Vertical { width: 52; height: auto; max-height: 22; border: thick $accent;
                             background: $surface; padding: 1 2; }
    ClaimScreen OptionList { height: auto; max-height: 14; }
    ClaimScreen #claim-hint { color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, claims: list[dict[str, Any]]) -> None:
        super().__init__()
        self.claims = claims

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Claim, in public, what you hold. Nobody checks it: you may bluff.")
            yield OptionList(
                *(Option(f"I hold {describe_claim(c)}", id=str(i)) for i, c in enumerate(self.claims)),
                id="claim-options",
            )
            yield Static("↑/↓ then Enter · Esc to cancel", id="claim-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.claims[int(event.option.id)])

    def action_cancel(self) -> None:
        self.dismiss(None)

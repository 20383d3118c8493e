"""The Variante's decisions, offered from the legal actions; and Évolution's claim dialog."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.models.evolution import EvolutionModel, describe_claim, describe_decision
from tui.screens.timebomb_claim import ClaimScreen

QUESTIONS = {
    "defuse": "Your Defusing wire defuses a colour. Which one?",
    "move_apart": "The Blue bomb moves a Defusing wire apart. Which one?",
    "draw_number": "You revealed a Red bomb: draw a Number card. It names whose wire is cut next.",
}


class DecisionScreen(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    DecisionScreen { align: center middle; }
    DecisionScreen > Vertical { width: 64; max-width: 100%; height: auto; border: thick $warning;
                                background: $surface; padding: 1 2; }
    DecisionScreen OptionList { height: auto; max-height: 10; }
    DecisionScreen #decision-hint { color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Later")]

    def __init__(self, model: EvolutionModel) -> None:
        super().__init__()
        self.model = model
        self.choices = list(model.decisions)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(QUESTIONS[self.choices[0]["type"]], id="decision-question")
            yield OptionList(
                *(
                    Option(describe_decision(c, self.model), id=str(i))
                    for i, c in enumerate(self.choices)
                ),
                id="decision-options",
            )
            yield Static("↑/↓ then Enter · Esc: look at the table, d: back here",
                         id="decision-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[int(event.option.id)])

    def action_cancel(self) -> None:
        self.dismiss(None)


class EvolutionClaimScreen(ClaimScreen):
    """Time Bomb's claim dialog, worded for Évolution's claims: Defusing count and a colour."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Claim, in public, what you hold. Nobody checks it: you may bluff.")
            yield OptionList(
                *(Option(f"I hold {describe_claim(c)}", id=str(i)) for i, c in enumerate(self.claims)),
                id="claim-options",
            )
            yield Static("↑/↓ then Enter · Esc to cancel", id="claim-hint")

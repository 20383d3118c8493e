"""Choose one of the legal actions of the decision Holmes waits for: a move, a skill's next
step, a Wildcard, a villain's demand. Only what the engine offers is listed."""

from __future__ import annotations

from typing import Any, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.models.holmes import Choice


class HolmesChoiceScreen(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    HolmesChoiceScreen { align: center middle; }
    HolmesChoiceScreen > Vertical { width: 64; max-width: 96%; height: auto; max-height: 90%;
                                    border: thick $accent; background: $surface; padding: 1 2; }
    HolmesChoiceScreen OptionList { height: auto; max-height: 18; }
    HolmesChoiceScreen #choice-hint { color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, prompt: str, choices: Sequence[Choice]) -> None:
        super().__init__()
        self.prompt = prompt
        self.choices = tuple(choices)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.prompt[:1].upper() + self.prompt[1:] + ":", id="choice-prompt")
            yield OptionList(
                *(Option(c.label, id=str(i)) for i, c in enumerate(self.choices)),
                id="choice-options",
            )
            yield Static("↑/↓ then Enter · Esc to look at the table first", id="choice-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(dict(self.choices[int(event.option.id)].action))

    def action_cancel(self) -> None:
        self.dismiss(None)

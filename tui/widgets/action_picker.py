"""Pick one of the legal actions a game offers, each in words: a claim, a Variante decision, a
Holmes move or a skill's next step. Only what the engine offers is listed, so the client never
needs the rules to offer the right choices. Returns the chosen action, or None."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.gives_way import GivesWayToTyping


class ActionPicker(GivesWayToTyping, ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    ActionPicker { align: center middle; }
    ActionPicker > Vertical { width: 66; max-width: 100%; height: auto; max-height: 100%;
                              border: thick $accent; background: $surface; padding: 0 1; }
    ActionPicker.-decision > Vertical { border: thick $warning; }
    ActionPicker #picker-question { height: auto; dock: top; padding: 1 0 0 0; }
    ActionPicker #picker-hint { height: 1; dock: bottom; color: $text-muted; }
    ActionPicker OptionList { height: auto; max-height: 100%; margin: 1 0; }
    ActionPicker.-compact { align: center bottom; background: $background 0%; }
    ActionPicker.-compact > Vertical { width: 100%; max-width: 100%; max-height: 8;
                                       border: round $accent; }
    ActionPicker.-compact #picker-question { padding: 0; }
    ActionPicker.-compact OptionList { max-height: 4; margin: 0; border: none; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def __init__(
        self,
        question: str,
        choices: Sequence[tuple[str, dict[str, Any]]],
        *,
        later: bool = False,
        decision: bool = False,
        compact: bool = False,
        initial: int = 0,
        hint: str = "",
        typed: Callable[[str], None] | None = None,
    ) -> None:
        """`choices` are (words, action) pairs; `later`: Esc only puts the choice off (the game
        waits for it), so the hint says how to come back. `compact`: a low panel at the foot of
        the screen, the table above it in sight (the claim offer at a deal), instead of a box
        over its middle. `initial` is the choice highlighted
        first (Enter takes it), `hint` replaces the hint line. `typed` takes a sentence typed
        at the picker (see `GivesWayToTyping`); a board's dialogs send it to the chat."""
        super().__init__(classes=" ".join(name for name, on in (("-decision", decision),
                                                                ("-compact", compact)) if on))
        self.question = question
        self.choices = tuple(choices)
        self.later = later
        self.initial = initial
        self.hint = hint
        self.typed = typed

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="picker-question")
            yield OptionList(
                *(Option(words, id=str(i)) for i, (words, _) in enumerate(self.choices)),
                id="picker-options",
            )
            esc = "Esc: look at the table first" if self.later else "Esc: cancel"
            yield Static(self.hint or f"↑/↓ then Enter · {esc}", id="picker-hint")

    def on_mount(self) -> None:
        # After the first refresh: a picker pushed while the screen under it is still being
        # mounted gets its Mount before its list is there.
        self.call_after_refresh(self.action_pick, self.initial)

    def action_pick(self, index: int) -> None:
        """A digit highlights a choice, as the arrows would; Enter takes it."""
        for options in self.query(OptionList):
            if 0 <= index < options.option_count:
                options.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.closing:
            return
        self.dismiss(dict(self.choices[int(event.option.id)][1]))

    def action_cancel(self) -> None:
        if not self.closing:
            self.dismiss(None)

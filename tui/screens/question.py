"""A question asked over a screen: leaving a game, quitting, closing a table, rejoining a seat.

Its answers are a list the keyboard picks in (`TableKeyboard`: the question owns its keys as a
table does). The answer that ends nothing (`safe`) is highlighted first and is what Esc gives,
so a stray Enter ends nothing; no key typed before the question was drawn answers it, and a
letter never does: an answer is its digit, the arrows and Enter, a click or a tap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Sequence, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Input, Static
from textual.widgets.option_list import Option

from tui.screens.table_keyboard import TableKeyboard, binding_chain
from tui.widgets.pick_list import PickList

T = TypeVar("T")


@dataclass(frozen=True)
class Answer(Generic[T]):
    words: str
    value: T


class Question(ModalScreen[T], Generic[T]):
    DEFAULT_CSS = """
    Question { align: center middle; }
    Question > Vertical { width: 72; max-width: 100%; height: auto; max-height: 100%;
                          border: thick $accent; background: $surface; padding: 0 1; }
    Question #question-text { height: auto; margin: 0 0 1 0; }
    Question PickList { height: auto; max-height: 8; border: none; background: $surface; }
    Question #question-hint { height: 1; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "safe", "Ends nothing"),
        Binding("ctrl+q,ctrl+c", "highlight_quit", show=False, priority=True),
    ]

    def __init__(self, text: str | Text, answers: Sequence[Answer[T]], *, safe: T,
                 initial: T | None = None, quit_answer: T | None = None) -> None:
        """`text` is markup when a string (names in it escaped by the caller). `safe` is the
        value of the answer that ends nothing: Esc's, and highlighted first unless `initial`
        names another (an offer whose yes ends nothing, like rejoining a seat).
        `quit_answer`, if any, is the one Ctrl+Q highlights (it never answers by itself)."""
        super().__init__()
        self.text = text
        self.answers = tuple(answers)
        self.safe = safe
        self.initial = safe if initial is None else initial
        self.quit_answer = quit_answer
        self.choice_list = PickList(
            *(Option(Text(f"{n + 1} ", style="bold") + Text(a.words), id=str(n))
              for n, a in enumerate(self.answers)),
            taken=lambda index: self.dismiss(self.answers[index].value),
        )
        self.keyboard = TableKeyboard(self)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="question-text")
            yield self.choice_list
            yield Static("a digit or ↑↓, then Enter · Esc: " + self.words_of(self.safe),
                         id="question-hint", markup=False)

    def on_mount(self) -> None:
        self.choice_list.highlighted = self.index_of(self.initial)

    def index_of(self, value: Any) -> int:
        return next(n for n, a in enumerate(self.answers) if a.value == value)

    def words_of(self, value: Any) -> str:
        return self.answers[self.index_of(value)].words.lower()

    # -- the keyboard (screens/table_keyboard.py) ---------------------------------------------

    def keyboard_line(self) -> Input | None:
        return None

    def keyboard_choices(self) -> PickList | None:
        return self.choice_list

    def keyboard_nodes(self) -> list[DOMNode]:
        return [self, self.app]

    @property
    def _binding_chain(self) -> list[tuple[DOMNode, BindingsMap]]:
        return binding_chain(self.keyboard_nodes())

    def action_safe(self) -> None:
        self.dismiss(self.safe)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "highlight_quit":
            return self.quit_answer is not None
        return True

    def action_highlight_quit(self) -> None:
        if self.quit_answer is not None:
            self.choice_list.highlighted = self.index_of(self.quit_answer)


def yes_no(text: str | Text, yes: str, no: str, *, yes_first: bool = False) -> Question[bool]:
    """A question of two answers, the second (no) ending nothing and given by Esc;
    `yes_first` highlights yes first, where yes ends nothing either (an offer)."""
    return Question(text, [Answer(yes, True), Answer(no, False)], safe=False,
                    initial=True if yes_first else None)

"""A table's dialog: a question and the choices that answer it, as a panel at the foot of the
board's column, never a screen of its own.

A claim, a wire to cut, a vote, a heist card, a Variante decision, a Holmes move: each is a
`ChoicePanel` that the board opens (`GameBoard.open_dialog`). The chat, its latest lines and
its line stay in sight beside it, and typing goes on into the line, so a sentence never
answers or closes a dialog (tui/README.md, "The table's keyboard"). The keyboard moves its
highlight and takes a choice; a click or a tap on a choice takes it too. Only what the game
offers is listed, so the client never needs the rules to offer the right choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static
from textual.widgets.option_list import Option

from tui.widgets.fitted_line import fit_words
from tui.widgets.pick_list import PickList


COMPACT_ROWS = 5
"""A compact panel's rows: its borders and three choices, the table above it in sight."""


@dataclass(frozen=True)
class Choice:
    """One answer: its words, what it answers with, and the number a digit names it by (None:
    its place in the list, from 1, which its row then shows)."""

    words: str | Text
    answer: Any
    number: int | None = None
    enabled: bool = True


class ChoicePanel(Vertical):
    DEFAULT_CSS = """
    ChoicePanel { height: auto; border: round $accent; border-title-align: left;
                  border-subtitle-align: right; border-subtitle-color: $text-muted;
                  background: $surface; padding: 0 1; }
    ChoicePanel.-decision { border: round $warning; }
    ChoicePanel #choice-question { height: auto; }
    ChoicePanel PickList { height: auto; max-height: 7; border: none; padding: 0;
                           background: $surface; }
    ChoicePanel Input { height: 1; border: none; padding: 0 1; background: $boost; }
    ChoicePanel Input:focus { border: none; background: $accent 30%; }
    """

    # What Esc does, in the words of the dialog: one of these is enabled (`check_action`).
    ESC_WORDS = ("Cancel", "Later", "No claim", "Back")
    BINDINGS = [Binding("escape", f"close({words!r})", words) for words in ESC_WORDS]

    def __init__(
        self,
        title: str,
        choices: Sequence[Choice],
        *,
        question: str | Text = "",
        esc: str = "Cancel",
        decision: bool = False,
        compact: bool = False,
        initial: int = 0,
        hint: str = "",
        field: Input | None = None,
    ) -> None:
        """`title` asks the question in a few words, on the panel's top border; `question`
        says more, above the choices, when it must. `esc` is what Esc does, one of
        `ESC_WORDS` ("Later": the game waits for the choice). `compact`: a low panel that
        leaves the board in sight (the claim offer at a deal). `initial` is the choice
        highlighted first; `hint`, on the bottom border, replaces the keys' words. `field` is
        a line of the dialog's own that asks for words (a heist's name): the keyboard types
        into it while the dialog is open, and Enter answers the dialog."""
        super().__init__(classes=" ".join(name for name, on in (("-decision", decision),
                                                                ("-compact", compact)) if on))
        assert esc in self.ESC_WORDS
        self.panel_title = title
        self.choices = tuple(choices)
        self.question = question
        self.esc = esc
        self.initial = initial
        self.hint = hint
        self.field = field
        numbered = [c.number is None for c in self.choices]
        self.choice_list = PickList(
            *(Option(self.row(n, c) if numbered[n] else c.words, id=str(n), disabled=not c.enabled)
              for n, c in enumerate(self.choices)),
            numbers=[n + 1 if c.number is None else c.number for n, c in enumerate(self.choices)],
        )
        self.choice_list.taken = self.choose
        self.answered: Callable[[Any], None] | None = None
        """Called with the answer, or None when the dialog is closed unanswered."""
        self.rows: int | None = None
        """The rows its place gives it (`fit`), if it was told."""
        self.declined = False
        """The player closed it unanswered (Esc), rather than the table moving on."""

    @staticmethod
    def row(index: int, choice: Choice) -> Text:
        """A choice named by its place: the digit that takes it, before its words."""
        text = Text(f"{index + 1} ", style="bold")
        text.append(choice.words if isinstance(choice.words, Text) else Text(choice.words))
        return text

    def compose(self) -> ComposeResult:
        if self.question:
            yield Static(Text(self.question) if isinstance(self.question, str)
                         else self.question, id="choice-question")
        if self.field is not None:
            yield self.field
        yield self.choice_list

    def on_mount(self) -> None:
        self.border_title = Text(self.panel_title)
        self.border_subtitle = self.keys_hint
        self.call_after_refresh(self.fit_choices)

    def fit(self, rows: int) -> None:
        """The panel has `rows` rows (a compact one, COMPACT_ROWS at most): its choices take
        what its borders, question and line leave, and scroll."""
        if self.has_class("-compact"):
            rows = min(rows, COMPACT_ROWS)
        self.rows = rows
        self.styles.max_height = rows
        if self.is_mounted:
            self.call_after_refresh(self.fit_choices)

    def fit_choices(self) -> None:
        if self.rows is not None:
            taken = 2 + sum(child.outer_size.height for child in self.children
                            if child is not self.choice_list)
            self.choice_list.styles.max_height = max(1, self.rows - taken)
        self.call_after_refresh(self.say_hidden)

    @property
    def keys_hint(self) -> str:
        return self.hint or f"a digit or ↑↓, Enter · Esc: {self.esc.lower()}"

    def say_hidden(self) -> None:
        """The bottom border names the choices the list has no room for, in a word: no row is
        lost without a word (issue 46)."""
        above, below = self.choice_list.out_of_view()
        more = " ".join(part for part, n in ((f"↑+{above}", above), (f"↓+{below} more", below))
                        if n)
        if not more:
            self.border_subtitle = self.keys_hint
            return
        # With rows out of view, the keys' words give way to saying so: the longest that fits.
        room = self.outer_size.width - 6
        self.border_subtitle = next(
            (words for words in (f"{more} · ↑↓, Enter · Esc: {self.esc.lower()}",
                                 f"{more} · Esc: {self.esc.lower()}", more)
             if cell_len(words) <= room), more)

    def on_option_list_option_highlighted(self) -> None:
        self.call_after_refresh(self.say_hidden)

    def on_resize(self) -> None:
        # A title too long for the panel keeps its whole words, never a cut one.
        self.border_title = Text(fit_words(self.panel_title, self.outer_size.width - 6))
        self.call_after_refresh(self.fit_choices)
        enabled = [n for n, c in enumerate(self.choices) if c.enabled]
        start = self.initial if self.initial in enabled else (enabled[0] if enabled else None)
        self.choice_list.highlighted = start

    def choose(self, index: int) -> None:
        if 0 <= index < len(self.choices) and self.choices[index].enabled:
            self.close(self.choices[index].answer)

    def close(self, answer: Any = None) -> None:
        """Answer the dialog (None: unanswered); its board takes it away."""
        if self.answered is not None:
            answered, self.answered = self.answered, None
            answered(answer)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close":
            return parameters == (self.esc,)
        return True

    def action_close(self, words: str) -> None:
        self.declined = True
        self.close(None)

"""A sentence is chat from its first key, digits included (design.md, "The table's manners").

Digits pick a player, a wire or a choice; letters talk. A digit followed by a letter, a space
or punctuation is the start of a sentence: "2 defusing here, honest". A screen where digits
pick and letters talk keeps a `SentenceStart` as `sentence_start` and shows it each key before
its bindings see it. A digit picks at once, as it always did; when the next key shows that
the digits began a sentence, the pick is taken back (the focus and the highlighted row as they
were before the first digit) and the digits and that key go to the chat. A refusal a digit
caused ("you cannot cut your own wires") waits as long as a sentence could go on, and is
dropped if one does.
"""

from __future__ import annotations

import time
from typing import Final

from textual import events
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, OptionList

SENTENCE_GAP: Final = 0.8
"""Seconds after a digit within which a letter, a space or punctuation makes the digits the
start of a sentence: a typist's next key comes far sooner, a player who picked and then
talks far later."""


class SentenceStart:
    """The digits just typed at one screen, and how to take back what they picked."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.digits = ""
        self.typed_at = 0.0
        self.focused: Widget | None = None
        """What had the keyboard before the first digit."""
        self.highlighted: int | None = None
        """The row highlighted in it then, if it is a list."""
        self.refusals: list[Timer] = []

    def key(self, event: events.Key) -> str | None:
        """The sentence's first keys when `event` shows the digits before it began one: the
        pick is taken back and the caller sends the text to the chat. None otherwise (a
        digit is the screen's, as is any key after no digit)."""
        now = time.monotonic()
        if now - self.typed_at > SENTENCE_GAP:
            self.forget()
        self.typed_at = now
        focused = self.screen.focused
        character = event.character if event.is_printable else None
        if isinstance(focused, Input) or character is None:
            self.forget()  # the chat box has the keyboard, or Enter, an arrow: a command
            return None
        if character.isdigit():
            if not self.digits:
                self.focused = focused
                self.highlighted = focused.highlighted if isinstance(focused, OptionList) else None
            self.digits += character
            return None
        if not self.digits:
            return None
        text = self.digits + character
        self.take_back()
        return text

    def take_back(self) -> None:
        """Undo what the digits picked, and keep quiet about what they could not pick."""
        for timer in self.refusals:
            timer.stop()
        focused = self.focused
        if focused is not None and focused.is_attached:
            self.screen.set_focus(focused)
            if isinstance(focused, OptionList):
                focused.highlighted = self.highlighted
        self.forget()

    def forget(self) -> None:
        self.digits, self.focused, self.highlighted, self.refusals = "", None, None, []

    def refuse(self, widget: Widget, text: str) -> None:
        """Tell why a key did nothing: at once, unless a digit typed just now may yet be the
        start of a sentence."""
        if not self.digits:
            widget.notify(text, severity="warning", timeout=3, markup=False)
            return
        self.refusals.append(widget.set_timer(
            SENTENCE_GAP, lambda: widget.notify(text, severity="warning", timeout=3,
                                                markup=False)))


def refuse(widget: Widget, text: str) -> None:
    """Tell why a key at `widget` did nothing, through its screen's `SentenceStart` when it
    has one (a digit may be a sentence's first key)."""
    start = getattr(widget.screen, "sentence_start", None)
    if isinstance(start, SentenceStart):
        start.refuse(widget, text)
    else:
        widget.notify(text, severity="warning", timeout=3, markup=False)

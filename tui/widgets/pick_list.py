"""A list the table's keyboard picks in: the board's players, Holmes's characters, a dialog's
choices.

It never takes the focus (the chat line keeps it, see `screens/table_keyboard.py`): the
keyboard moves its highlight, names a row by its number, and takes the highlighted row, each by
a call that has done its work when it returns, so that the next key finds the list as this
one left it. A click or a tap on a row takes it too.

It knows when its rows were first on screen (`shown_at`), so that a key typed before they were
never takes one of them (tui/README.md, "The table's keyboard").
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from textual import _time
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import OptionList


now = _time.get_time
"""The clock Textual stamps each key with when its driver reads it (`Message.time`): a key's
time and a frame's are compared on one clock."""


class PickList(OptionList, can_focus=False):
    """`numbers` gives the number a digit names each row by (None: none); by default a row's
    place, from 1. `taken(index)` is called when a row is taken (Enter, a click, a tap)."""

    def __init__(self, *args: Any, numbers: Sequence[int | None] | None = None,
                 taken: Callable[[int], None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.numbers: tuple[int | None, ...] | None = tuple(numbers) if numbers else None
        self.shown_at = math.inf
        """When the rows as they are now were first on screen; infinite until then."""
        self.taken = taken

    def rows_changed(self) -> None:
        """The rows changed: they are on screen from the next frame that draws them."""
        self.shown_at = math.inf
        self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Drawn into the frame the compositor writes out next: the rows are on screen from
        # now. A list that is not on screen (hidden, another page) is never drawn, and no key
        # takes its rows.
        lines = super().render_lines(crop)
        if self.shown_at == math.inf:
            self.shown_at = now()
        return lines

    # -- what the keyboard does ---------------------------------------------------------------

    def number_of(self, index: int) -> int | None:
        return self.numbers[index] if self.numbers is not None else index + 1

    def index_of(self, number: int) -> int | None:
        """The first enabled row that `number` names, if any."""
        return next((i for i in range(self.option_count)
                     if self.number_of(i) == number
                     and not self.get_option_at_index(i).disabled), None)

    def highlight_number(self, number: int) -> bool:
        """Highlight the row `number` names; False when none does (nothing changes)."""
        index = self.index_of(number)
        if index is None or not self.is_mounted:
            return False
        self.highlighted = index
        return True

    def typed_against(self, typed_at: float) -> bool:
        """Whether a key stamped `typed_at` was typed at these rows as they are: read after
        the first frame that showed them."""
        return typed_at >= self.shown_at

    def take(self) -> None:
        """Take the highlighted row, as Enter does (the caller checked it may)."""
        if self.highlighted is not None and self.taken is not None:
            self.taken(self.highlighted)

    def out_of_view(self) -> tuple[int, int]:
        """How many rows lie wholly above the list's view, and below it: what a list that
        scrolls must say it hides ("+2 more")."""
        if not self.is_mounted or not self.option_count:
            return 0, 0
        top, height = round(self.scroll_y), self.scrollable_content_region.height
        seen = {option for option, _ in self._lines[top:top + height]}  # (row, its line)
        if not seen:
            return 0, 0
        return min(seen), self.option_count - 1 - max(seen)

    def refusal(self, number: int | None) -> str:
        """Why Enter takes nothing: no row is highlighted (None), or `number` names none."""
        if number is None:
            return "Nothing to choose here now."
        named = sorted({n for i in range(self.option_count)
                        if (n := self.number_of(i)) is not None
                        and not self.get_option_at_index(i).disabled})
        choices = f"{named[0]} to {named[-1]}" if len(named) > 1 else "none" if not named else str(named[0])
        return f"No choice is numbered {number} here ({choices}): ↑/↓ then Enter also picks."

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A click or a tap: the row was on screen to be clicked.
        event.stop()
        if self.taken is not None:
            self.taken(event.option_index)

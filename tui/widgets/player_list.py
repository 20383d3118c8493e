"""The players around the table, one row each; rows the viewer may pick are enabled.

Games build each row's text (their own columns) and say which seats may be picked now; the
list is picked in the same way in every game (`PickList`): arrows or a seat's number
highlight a row, Enter (or a click, a tap) takes it and calls `picked(seat)`. A row that cannot
be taken calls `refused(seat)`, so the game can say why instead of staying silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.binding import Binding
from textual.widgets.option_list import Option

from tui.widgets.option_rows import show_options
from tui.widgets.pick_list import PickList


def fit_cells(text: str, width: int) -> str:
    """`text` in exactly `width` terminal cells: padded, or cut with an ellipsis. Cells, not
    characters: an emoji or a CJK letter takes two, and columns must stay in line."""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, width - 1) + "…"


SHORT_STATUS = {"bot playing": "bot"}
"""A seat's state in a narrow column."""


def name_cell(name: str, you: bool, status: str, width: int) -> str:
    """A player's name for a row, with "(you)" or their state ("bot", "away") kept whole."""
    suffix = " (you)" if you else (f" ({status})" if status else "")
    if width - cell_len(suffix) < 8 and not you and status:  # room for the name first
        suffix = f" ({SHORT_STATUS.get(status, status)})"
    room = max(1, width - cell_len(suffix))
    if cell_len(name) > room:
        name = fit_cells(name, room)
    return set_cell_size(name + suffix, width)


@dataclass(frozen=True)
class PlayerEntry:
    seat: int
    text: Text | str
    pickable: bool


class PlayerList(PickList):
    """A digit names a seat by its number, from 1; Enter (or a click) takes the highlighted
    player, if they may be picked now, else the game says why (`refused`)."""

    DEFAULT_CSS = """
    PlayerList { height: auto; max-height: 12; border: round $secondary;
                 border-title-align: left; padding: 0; }
    PlayerList > .option-list--option-disabled { color: $text; }
    """

    # Bound for the footer and `?` only: the table's keyboard takes Enter itself, and the
    # words say what Enter does now (a game's list names it: "Cut", "Pick").
    BINDINGS = [
        Binding("enter", "select", show=False),
        Binding("enter", "refuse", show=False),
    ]

    def __init__(self, *, picked: Callable[[int], None], why: Callable[[int | None], str],
                 **kwargs: Any) -> None:
        """`picked` is called with the seat taken; `why` says, in the game's words, why a seat
        (None: no row) cannot be picked now."""
        super().__init__(**kwargs)
        self.entries: tuple[PlayerEntry, ...] = ()
        self.picked = picked
        self.why = why
        self.taken = self.take_row

    def set_entries(self, entries: Sequence[PlayerEntry]) -> None:
        entries = tuple(entries)
        if entries == self.entries:
            return
        highlighted = self.highlighted_seat
        was_pickable = [(e.seat, e.pickable) for e in self.entries]
        self.entries = entries
        show_options(
            self, [Option(e.text, id=str(e.seat), disabled=not e.pickable) for e in entries])
        self.numbers = tuple(e.seat + 1 for e in entries)
        pickable = [i for i, e in enumerate(entries) if e.pickable]
        if highlighted is not None and any(
            e.seat == highlighted and e.pickable for e in entries
        ):
            self.highlighted = next(i for i, e in enumerate(entries) if e.seat == highlighted)
        elif pickable:
            self.highlighted = pickable[0]
        else:
            self.highlighted = None
        if [(e.seat, e.pickable) for e in entries] != was_pickable:
            self.rows_changed()  # what may be picked changed; a row's words alone do not

    @property
    def highlighted_seat(self) -> int | None:
        if self.highlighted is None or not 0 <= self.highlighted < len(self.entries):
            return None
        return self.entries[self.highlighted].seat

    @property
    def may_take(self) -> bool:
        return any(e.seat == self.highlighted_seat and e.pickable for e in self.entries)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter acts on the highlighted row when it can be picked, and is refused otherwise:
        # the footer shows Enter's word only when it would do something.
        if action == "select":
            return self.may_take
        if action == "refuse":
            return not self.may_take
        return True

    def take_row(self, index: int) -> None:
        if 0 <= index < len(self.entries) and self.entries[index].pickable:
            self.picked(self.entries[index].seat)

    def refusal(self, number: int | None) -> str:
        return self.why(None if number is None else number - 1)


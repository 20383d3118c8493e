"""The players around the table, one row each; rows the viewer may pick are enabled.

Games build each row's text (their own columns) and say which seats may be picked now; the
list handles the keyboard and the mouse the same way in every game: arrows or a digit pick a
row, Enter (or a click) acts on it and posts `Picked(seat)`. A key that can do nothing posts
`Refused(seat)`, so the game can say why instead of staying silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.widgets.option_rows import show_options


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


class PlayerList(OptionList):
    DEFAULT_CSS = """
    PlayerList { height: auto; max-height: 12; border: round $secondary;
                 border-title-align: left; padding: 0; }
    PlayerList:focus { border: round $accent; }
    PlayerList > .option-list--option-disabled { color: $text; }
    """

    # A class's bindings of a key replace its base's: Enter's pair is repeated where a
    # subclass names what Enter does.
    BINDINGS = [
        Binding("enter", "select", show=False),
        Binding("enter", "refuse", show=False),
        *(Binding(str(n), f"pick({n - 1})", f"seat {n}", show=False) for n in range(1, 10)),
        Binding("0", "pick(9)", "seat 10", show=False),
    ]

    @dataclass
    class Picked(Message):
        seat: int

    @dataclass
    class Refused(Message):
        """A key picked or acted on a seat that cannot be picked now (None: no row)."""

        seat: int | None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: tuple[PlayerEntry, ...] = ()

    def set_entries(self, entries: Sequence[PlayerEntry]) -> None:
        entries = tuple(entries)
        if entries == self.entries:
            return
        highlighted = self.highlighted_seat
        self.entries = entries
        show_options(
            self, [Option(e.text, id=str(e.seat), disabled=not e.pickable) for e in entries])
        pickable = [i for i, e in enumerate(entries) if e.pickable]
        if highlighted is not None and any(
            e.seat == highlighted and e.pickable for e in entries
        ):
            self.highlighted = next(i for i, e in enumerate(entries) if e.seat == highlighted)
        elif pickable:
            self.highlighted = pickable[0]
        else:
            self.highlighted = None

    @property
    def highlighted_seat(self) -> int | None:
        if self.highlighted is None or not 0 <= self.highlighted < len(self.entries):
            return None
        return self.entries[self.highlighted].seat

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter acts on the highlighted row when it can be picked, and is refused otherwise:
        # the footer shows Enter's word only when it would do something.
        pickable = any(
            e.seat == self.highlighted_seat and e.pickable for e in self.entries
        )
        if action == "select":
            return pickable
        if action == "refuse":
            return not pickable
        return True

    def action_pick(self, seat: int) -> None:
        """A digit picks a row; Enter then acts on it, as an arrow key's pick would."""
        for index, entry in enumerate(self.entries):
            if entry.seat == seat and entry.pickable:
                self.highlighted = index
                return
        self.post_message(self.Refused(seat))

    def action_refuse(self) -> None:
        self.post_message(self.Refused(self.highlighted_seat))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Picked(int(event.option.id)))

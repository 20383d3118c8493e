"""The players around the table, one row each; rows the viewer may pick are enabled.

Games build each row's text (their own columns) and say which seats may be picked now; the
list handles the keyboard (arrows, Enter, digits) and the mouse, and posts `Picked(seat)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


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

    BINDINGS = [
        Binding(str(n), f"pick({n - 1})", f"seat {n}", show=False) for n in range(1, 10)
    ]

    @dataclass
    class Picked(Message):
        seat: int

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: tuple[PlayerEntry, ...] = ()

    def set_entries(self, entries: Sequence[PlayerEntry]) -> None:
        entries = tuple(entries)
        if entries == self.entries:
            return
        highlighted = self.highlighted_seat
        self.entries = entries
        self.clear_options()
        self.add_options(
            [Option(e.text, id=str(e.seat), disabled=not e.pickable) for e in entries]
        )
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

    def action_pick(self, seat: int) -> None:
        for index, entry in enumerate(self.entries):
            if entry.seat == seat and entry.pickable:
                self.highlighted = index
                self.post_message(self.Picked(seat))
                return
        self.app.bell()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Picked(int(event.option.id)))

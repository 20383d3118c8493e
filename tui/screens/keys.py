"""Every key the screen below answers to now, with what it does, each key once and each
description whole: at 80 columns a long one wraps under itself instead of being cut. Under
them, when a browser can reach Gaslight here, the QR code of its page, for a guest's phone
(under, so that on a screen of 24 rows the keys come first)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.qr_code import QrCode
from tui.widgets.waiting_room import SCAN

GENERAL_KEYS = [
    ("a number", "At a table: names a seat, or in a dialog a choice (in a list of counts, "
                 "that count); Enter then acts on it. A number and a space is said in the chat"),
    ("^p", "Command palette: every command by name"),
    ("tab / shift+tab", "Move between parts of the screen"),
]


def keys_table(keys: list[tuple[str, str]]) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, expand=True,
                  padding=(0, 1), row_styles=["", "on grey15"])
    table.add_column("Key", no_wrap=True, style="bold")
    table.add_column("Does", ratio=1, overflow="fold")
    seen = set()
    for key, description in [*keys, *GENERAL_KEYS]:
        if key not in seen:
            seen.add(key)
            table.add_row(key, description)
    return table


class KeysScreen(ModalScreen[None]):
    # The scrolling box is the bordered one, sized against the screen: inside a box of its own
    # it grew to its whole content and was clipped, its last keys out of reach.
    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > VerticalScroll { width: 72; max-width: 100%; height: auto; max-height: 100%;
                                  border: thick $accent; background: $surface; padding: 0 1; }
    KeysScreen #keys-table { height: auto; margin: 0 0 1 0; }
    KeysScreen #keys-note { height: auto; margin: 0 0 1 0; text-style: bold; }
    KeysScreen #keys-after { height: auto; margin: 0 0 1 0; }
    """

    BINDINGS = [Binding("escape", "close", "Close"), Binding("question_mark", "close", "Close")]

    def __init__(self, keys: list[tuple[str, str]], note: str = "", after: Any = "",
                 page: str | None = None) -> None:
        """`note`: what else is worth knowing on this screen, above the keys; `after`, a
        renderable under them (what a table's words mean); `page`: the address of Gaslight's
        page for browsers, shown as a QR code under all of it."""
        super().__init__()
        self.keys = keys
        self.note = note
        self.after = after
        self.page = page

    def compose(self) -> ComposeResult:
        box = VerticalScroll()
        box.border_title = "Keys you can use here now"
        box.border_subtitle = "↑↓ scroll · Esc closes"
        with box:
            if self.note:
                yield Static(self.note, id="keys-note", markup=False)
            yield Static(keys_table(self.keys), id="keys-table")
            if self.after:
                yield Static(self.after, id="keys-after", markup=False)
            if self.page:
                yield Static(SCAN)
                yield QrCode(self.page)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

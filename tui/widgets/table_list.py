"""The lobby's list of tables: name, game, seats free, phase and where it is.

The address is never cut (a player types it to join from elsewhere): when the list is narrow,
the table's name gives way first, then the game's title.
"""

from __future__ import annotations

from typing import Any, Iterable

from textual.events import Resize
from textual.widgets import DataTable

from tui.backend import TableListing

HELD = "★ "
"""Marks a table where this player holds a seat."""
MIN_NAME = 16
CELL_PADDING = 2
"""Each column's padding, one cell either side."""


def game_title(game_id: str) -> str:
    from engine.catalogue import CATALOGUE

    game = CATALOGUE.get(game_id)
    return game.title if game else game_id


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def row_of(listing: TableListing) -> tuple[str, str, str, str, str]:
    return (
        (HELD if listing.held else "") + listing.name,
        game_title(listing.game),
        f"{listing.seats_free}/{listing.players}",
        listing.phase,
        str(listing.address),
    )


def column_widths(rows: list[tuple[str, ...]], width: int) -> list[int]:
    """Widths for the five columns within `width` cells: every column but the name and the
    game at its full width; the game next; the name takes what is left (at least MIN_NAME)."""
    headers = ("Table", "Game", "Free", "Phase", "Address")
    full = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    room = width - CELL_PADDING * len(headers) - sum(full[2:])
    game = min(full[1], max(room - min(full[0], MIN_NAME), len("Game")))
    name = min(full[0], max(room - game, MIN_NAME))
    return [name, game, *full[2:]]


class TableList(DataTable):
    DEFAULT_CSS = """
    TableList { height: 1fr; border: round $secondary; border-title-align: left; }
    TableList:focus { border: round $accent; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.listings: dict[str, TableListing] = {}
        self.shown_width = 0

    def on_mount(self) -> None:
        self.border_title = "Tables"
        self.draw()

    def on_resize(self, event: Resize) -> None:
        if self.content_size.width != self.shown_width:
            self.draw()

    def set_tables(self, listings: Iterable[TableListing]) -> None:
        """Show exactly these tables, keeping the cursor on the same table when it stays."""
        listings = sorted(listings, key=lambda t: (t.phase != "waiting", t.name.lower(), t.key))
        fresh = {t.key: t for t in listings}
        if list(fresh.items()) == list(self.listings.items()):
            return
        current = self.selected
        self.listings = fresh
        self.draw(current.key if current is not None else None)

    def draw(self, keep: str | None = None) -> None:
        """Lay the rows out for the present width; the cursor stays on the `keep` table."""
        if keep is None and self.selected is not None:
            keep = self.selected.key
        self.shown_width = self.content_size.width
        rows = [row_of(listing) for listing in self.listings.values()]
        widths = column_widths(rows, self.shown_width or 78)
        self.clear(columns=True)
        for label, width in zip(("Table", "Game", "Free", "Phase", "Address"), widths):
            self.add_column(label, width=width)
        for key, row in zip(self.listings, rows):
            self.add_row(*(shorten(cell, w) for cell, w in zip(row, widths)), key=key)
        if keep in self.listings:
            self.move_cursor(row=list(self.listings).index(keep))

    @property
    def selected(self) -> TableListing | None:
        if not self.listings or self.cursor_row is None:
            return None
        keys = list(self.listings)
        if not 0 <= self.cursor_row < len(keys):
            return None
        return self.listings[keys[self.cursor_row]]

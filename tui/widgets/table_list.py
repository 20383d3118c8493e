"""The lobby's list of tables: name, game, who is seated, seats free, phase and where it is.

A row is a table, known by its key, whatever its place: rows come, go and change in place, the
cursor stays on the table it is on, and only the rows that changed are drawn again. The address
is never cut (a player types it to join from elsewhere): when the list is narrow, the table's
name gives way first, then the game's title. Names are text, never markup: whatever a host
calls its table is shown as typed.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.events import Resize
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from tui.listing import TableListing

HELD = "★ "
"""Marks a table where this player holds a seat."""
MIN_GAME = 10
"""The game's title keeps this many cells while the table's name needs more."""
CELL_PADDING = 2
"""Each column's padding, one cell either side."""
SCROLLBAR = 1
"""The vertical scrollbar's width, kept free even before the list scrolls, so that a list
growing past the screen never pushes the address out."""
ROWS_KEPT_DRAWN = 400
"""Drawn lines kept for rows that did not change: each table's row at a few places, with and
without the cursor, for a few dozen tables."""
HEADERS = ("Table", "Game", "Seated", "Free", "Phase", "Address")
GAME_COLUMN = HEADERS.index("Game")


def game_title(game_id: str) -> str:
    from engine.catalogue import CATALOGUE

    game = CATALOGUE.get(game_id)
    return game.title if game else game_id


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def shorten_title(title: str, width: int) -> str:
    """A game's title in `width` cells: whole, else its short title, cut if need be; the short
    titles start differently, so Time Bomb and Évolution never both read `Time Bomb…`."""
    from engine.catalogue import CATALOGUE

    if len(title) <= width:
        return title
    short = next((g.short_title for g in CATALOGUE.values() if g.title == title), title)
    return shorten(short, width)


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def seated(listing: TableListing, short: bool = False) -> str:
    """Who sits at the table: "3 people, 2 bots" ("3 + 2 bots" when the row is tight), or the
    count alone from a host that does not tell people from bots."""
    taken = listing.players - listing.seats_free
    if listing.people is None or listing.bots is None:
        return f"{taken} seated"
    if short:
        return f"{listing.people} + {plural(listing.bots, 'bot', 'bots')}"
    return f"{plural(listing.people, 'person', 'people')}, {plural(listing.bots, 'bot', 'bots')}"


def row_of(listing: TableListing, short: bool = False) -> tuple[str, ...]:
    # A host showing another key is not asked who sits there: its seats are unknown.
    unknown = listing.key_changed
    return (
        (HELD if listing.held else "") + listing.name,
        game_title(listing.game),
        "?" if unknown else seated(listing, short),
        "?" if unknown else f"{listing.seats_free}/{listing.players}",
        listing.phase,
        str(listing.address),
    )


def column_widths(rows: list[tuple[str, ...]], width: int) -> list[int]:
    """Widths for the columns within `width` cells: every column but the name and the game at
    its full width; the name next (the game keeps MIN_GAME cells, its title is known by its
    start), the game takes what is left; both give way, down to a cell, so that the address is
    whole."""
    full = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(HEADERS)]
    room = width - CELL_PADDING * len(HEADERS) - sum(full[2:])
    name = max(min(full[0], room - min(full[1], MIN_GAME)), 1)
    game = max(min(full[1], room - name), 1)
    return [name, game, *full[2:]]


def layout(listings: Iterable[TableListing], width: int) -> tuple[list[tuple[str, ...]], list[int]]:
    """The rows' texts and the columns' widths: who is seated in words, or shorter when the
    name would be cut for it."""
    listings = list(listings)
    rows = [row_of(t) for t in listings]
    widths = column_widths(rows, width)
    if listings and widths[0] < max(len(r[0]) for r in rows):
        rows = [row_of(t, short=True) for t in listings]
        widths = column_widths(rows, width)
    return rows, widths


def order(listing: TableListing) -> tuple:
    """Waiting tables first (those a player can sit at), then by name."""
    return (listing.phase != "waiting", listing.name.lower(), listing.key)


class NameCell(Text):
    """The name cell, which carries its table's place in the list for `DataTable.sort`."""

    def __init__(self, text: str, place: tuple) -> None:
        super().__init__(text, no_wrap=True, end="")
        self.place = place


class Vanished(NamedTuple):
    """The table under the cursor went away; the cursor is on `now` instead (None: the list
    is empty)."""

    gone: TableListing
    now: TableListing | None


class TableList(DataTable):
    DEFAULT_CSS = """
    TableList { height: 1fr; border: round $secondary; border-title-align: left;
                scrollbar-size-vertical: 1; }
    TableList:focus { border: round $accent; }
    """

    BINDINGS = [
        Binding("enter", "select_cursor", "Join", show=False,
                tooltip="Join the highlighted table (watch it when it has no free seat)"),
        Binding("home", "first", "First table", show=False, tooltip="Go to the first table"),
        Binding("end", "last", "Last table", show=False, tooltip="Go to the last table"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        self.drawn_rows: LRUCache[tuple, tuple] = LRUCache(ROWS_KEPT_DRAWN)
        """Each row's drawn line, by what it shows and where (see `_render_line_in_row`);
        made first, as DataTable's own setup may clear its caches."""
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.listings: dict[str, TableListing] = {}
        self.shown: dict[str, tuple[str, ...]] = {}
        """Each row's texts as drawn (before shortening), by table key."""
        self.widths: list[int] = []
        self.shown_width = 0

    def on_mount(self) -> None:
        self.border_title = "Tables"
        self.draw()

    def on_resize(self, event: Resize) -> None:
        if self.content_size.width != self.shown_width:
            self.draw()

    @property
    def room(self) -> int:
        return (self.content_size.width or 78) - SCROLLBAR

    def set_tables(self, listings: Iterable[TableListing]) -> Vanished | None:
        """Show exactly these tables. The cursor stays on its table; if that table is gone,
        it moves to the row that took its place, and the answer says so."""
        fresh = {t.key: t for t in listings}
        if fresh == self.listings:
            return None
        current = self.selected
        index = self.cursor_row
        self.listings = fresh
        rows, widths = layout(fresh.values(), self.room)
        if not self.fits(widths) or self.content_size.width != self.shown_width:
            self.draw(current.key if current is not None else None)
        else:
            self.update_rows(dict(zip(fresh, rows)))
        if current is None or current.key in fresh:
            return None
        now = None
        if self.row_count:
            self.move_cursor(row=min(index, self.row_count - 1))
            now = self.selected
        return Vanished(current, now)

    def fits(self, widths: list[int]) -> bool:
        """Whether rows laid out for `widths` fit the columns as drawn: a column only grows
        while the list is open (until the terminal's width changes), so tables coming and
        going on a busy LAN change rows in place instead of drawing the whole list again each
        time a longer or shorter name comes or goes."""
        return len(widths) == len(self.widths) and all(
            new <= old for new, old in zip(widths, self.widths))

    def cells(self, key: str, row: tuple[str, ...]) -> list[Text]:
        texts = [(shorten_title if column == GAME_COLUMN else shorten)(cell, width)
                 for column, (cell, width) in enumerate(zip(row, self.widths))]
        return [NameCell(texts[0], order(self.listings[key]))] + [
            Text(text, no_wrap=True, end="") for text in texts[1:]
        ]

    def update_rows(self, rows: dict[str, tuple[str, ...]]) -> None:
        """Change only what changed, in place: no redraw of the whole list, no scroll jump."""
        current = self.selected
        for key in [k for k in self.shown if k not in rows]:
            self.remove_row(key)
            del self.shown[key]
        for key, row in rows.items():
            if key not in self.shown:
                self.add_row(*self.cells(key, row), key=key)
            elif self.shown[key] != row:
                for column, (old, new, cell) in enumerate(
                    zip(self.shown[key], row, self.cells(key, row))
                ):
                    if old != new or column == 0:
                        self.update_cell(key, HEADERS[column], cell)
            self.shown[key] = row
        self.sort(HEADERS[0], key=lambda cell: cell.place)
        if current is not None and current.key in rows:
            self.move_cursor(row=self.get_row_index(current.key))

    def draw(self, keep: str | None = None) -> None:
        """Lay every row out for the present width; the cursor stays on the `keep` table."""
        if keep is None and self.selected is not None:
            keep = self.selected.key
        self.shown_width = self.content_size.width
        listings = sorted(self.listings.values(), key=order)
        rows, self.widths = layout(listings, self.room)
        self.clear(columns=True)
        self.shown = {}
        for label, width in zip(HEADERS, self.widths):
            self.add_column(label, width=width, key=label)
        for listing, row in zip(listings, rows):
            self.add_row(*self.cells(listing.key, row), key=listing.key)
            self.shown[listing.key] = row
        if keep in self.listings:
            self.move_cursor(row=self.get_row_index(keep))

    def _render_line_in_row(
        self, row_key: RowKey, line_no: int, base_style: Style, cursor_location: Coordinate,
        hover_location: Coordinate,
    ) -> tuple[list[list[Segment]], list[list[Segment]]]:
        """A row's line, drawn again only when the row itself changed.

        DataTable keys every drawn line on one count of changes to the whole table, so any
        change (a row added, removed or changed in place) drew every row on screen again,
        40-50 ms a list under churn. A row's line depends on its texts, the columns' widths,
        its stripe, and whether the cursor or the mouse is on it: those are the key here. A
        row that only moved (a row above it came or went) keeps its line, with the row number
        its cells carry for the mouse (a click or a tap chooses a row by it) made its own."""
        index = self._row_locations.get(row_key) if row_key in self._row_locations else -1
        hovered = self._show_hover_cursor and hover_location.row == index
        key = (row_key, self.shown.get(row_key.value), tuple(self.widths), self.size.width,
               index % 2, line_no, base_style, cursor_location.row == index, hovered,
               self.cursor_type, self.show_cursor, self._pseudo_class_state)
        drawn = self.drawn_rows.get(key)
        if drawn is None:
            drawn = index, super()._render_line_in_row(
                row_key, line_no, base_style, cursor_location, hover_location)
        elif drawn[0] != index:
            here = Style.from_meta({"row": index})
            drawn = index, tuple(
                [list(Segment.apply_style(cell, post_style=here)) for cell in cells]
                for cells in drawn[1]
            )
        self.drawn_rows.set(key, drawn)
        return drawn[1]

    def _clear_caches(self) -> None:
        # Whatever makes DataTable forget its drawn lines (a new style, the cursor shown or
        # hidden, the list cleared) is not in the keys above.
        super()._clear_caches()
        self.drawn_rows.clear()

    def key_at(self, row: int) -> str | None:
        if not 0 <= row < self.row_count:
            return None
        return self.coordinate_to_cell_key(Coordinate(row, 0)).row_key.value

    @property
    def selected(self) -> TableListing | None:
        key = self.key_at(self.cursor_row) if self.listings else None
        return self.listings.get(key) if key is not None else None

    @property
    def ordered(self) -> list[TableListing]:
        """The tables in the order shown."""
        return [self.listings[row.key.value] for row in self.ordered_rows]

    def action_first(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

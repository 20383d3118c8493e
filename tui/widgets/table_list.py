"""The lobby's list of tables: name, game, seats free, phase and where it is."""

from __future__ import annotations

from typing import Any, Iterable

from textual.widgets import DataTable

from tui.backend import TableListing

PHASES = {"waiting": "waiting", "playing": "playing", "over": "over"}


def game_title(game_id: str) -> str:
    from engine.catalogue import CATALOGUE

    game = CATALOGUE.get(game_id)
    return game.title if game else game_id


class TableList(DataTable):
    DEFAULT_CSS = """
    TableList { height: 1fr; border: round $secondary; border-title-align: left; }
    TableList:focus { border: round $accent; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.listings: dict[str, TableListing] = {}

    def on_mount(self) -> None:
        self.border_title = "Tables"
        self.add_column("Table", key="name")
        self.add_column("Game", key="game")
        self.add_column("Free", key="free")
        self.add_column("Phase", key="phase")
        self.add_column("Address", key="address")

    def set_tables(self, listings: Iterable[TableListing]) -> None:
        """Show exactly these tables, keeping the cursor on the same table when it stays."""
        listings = sorted(listings, key=lambda t: (t.phase != "waiting", t.name.lower(), t.key))
        fresh = {t.key: t for t in listings}
        if list(fresh.items()) == list(self.listings.items()):
            return
        current = self.selected
        self.listings = fresh
        self.clear()
        for listing in listings:
            self.add_row(
                listing.name,
                game_title(listing.game),
                f"{listing.seats_free}/{listing.players}",
                PHASES.get(listing.phase, listing.phase),
                str(listing.address),
                key=listing.key,
            )
        if current is not None and current.key in fresh:
            self.move_cursor(row=list(fresh).index(current.key))

    @property
    def selected(self) -> TableListing | None:
        if not self.listings or self.cursor_row is None:
            return None
        keys = list(self.listings)
        if not 0 <= self.cursor_row < len(keys):
            return None
        return self.listings[keys[self.cursor_row]]

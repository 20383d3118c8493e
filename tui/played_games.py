"""The seats this player played to a game's end, for the lobby's past games (`played_book`):
while their host runs, their tokens let `Backend.past_games_at` keep a game missed at its end.
Every game is kept whole as a replay file as it ends (`Backend.keep_game`); a game against
bots needs no token, its host being this app's. Nothing here imports textual."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tui.listing import Ticket


class Door(Protocol):
    """What the played book needs of the backend (`tui.backend.Backend`), which calls it: its
    data directory. Named by this, not imported: the backend is the one that imports."""

    data_dir: Path | None


PLAYED_DIR = "played"
PLAYED_KEPT = 50
"""Seats of finished games remembered for the past games: the most recent ones."""


def played_book(backend: Door) -> Any:
    """The seats this player played to a game's end, tokens and all (owner-only, like the
    seat book): a finished table's seat leaves the seat book, but its token still lets its
    player watch that table's games again."""
    from netplay.store import data_dir
    from tui.seat_book import SeatBook

    return SeatBook(data_dir(backend.data_dir) / PLAYED_DIR)


def remember_played(backend: Door, ticket: Ticket, connection: Any) -> None:
    from tui.seat_book import HeldSeat

    token, host_id = getattr(connection, "token", None), getattr(connection, "host_id", None)
    if token is None or host_id is None or ticket.table is None or ticket.private:
        return  # a game against bots is kept whole from this app's own host (`keep_game`)
    book = played_book(backend)
    book.keep(HeldSeat(host_id, ticket.table, token, ticket.address, ticket.game, ticket.name,
                       fingerprint=getattr(connection, "fingerprint", None)))
    for old in book.all()[:-PLAYED_KEPT]:
        book.forget(*old.key)

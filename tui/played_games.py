"""The records of the games this player played, for the lobby's past games: the seats played
to a game's end (`played_book`), and the games against bots kept whole as replay files
(`keep_bot_games`, in `replays_dir`). Nothing here imports textual."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.backend import Backend
    from tui.listing import Ticket


def replays_dir(backend: Backend) -> Path:
    """Where this player's replay files go: Gaslight's data directory, `replays/`
    (`Backend.replays_folder`)."""
    return backend.replays_folder()


PLAYED_DIR = "played"
PLAYED_KEPT = 50
"""Seats of finished games remembered for the past games: the most recent ones."""


def played_book(backend: Backend) -> Any:
    """The seats this player played to a game's end, tokens and all (owner-only, like the
    seat book): a finished table's seat leaves the seat book, but its token still lets its
    player watch that table's games again."""
    from netplay.store import data_dir
    from tui.seat_book import SeatBook

    return SeatBook(data_dir(backend.data_dir) / PLAYED_DIR)


def remember_played(backend: Backend, ticket: Ticket, connection: Any) -> None:
    from tui.seat_book import HeldSeat

    token, host_id = getattr(connection, "token", None), getattr(connection, "host_id", None)
    if token is None or host_id is None or ticket.table is None or ticket.private:
        return  # a game against bots is kept whole, as a file (`keep_bot_games`)
    book = played_book(backend)
    book.keep(HeldSeat(host_id, ticket.table, token, ticket.address, ticket.game, ticket.name,
                       fingerprint=getattr(connection, "fingerprint", None)))
    for old in book.all()[:-PLAYED_KEPT]:
        book.forget(*old.key)


def keep_bot_games(backend: Backend, ticket: Ticket) -> list[Path]:
    """Save the finished games of a table this app hosts for this player alone (against
    bots) as replay files, for the lobby's past games: its host and store go when the
    player leaves. The files already saved stay as they are."""
    from netplay import replay_file

    if not ticket.private or ticket.table is None:
        return []
    host = next((h for h in backend.hosts
                 if h.address is not None and h.address[1] == ticket.address.port), None)
    if host is None:
        return []
    saved = []
    for record in host.replays.finished_records(ticket.table):
        path = replays_dir(backend) / replay_file.file_name(record)
        if not path.exists():
            saved.append(replay_file.save(path, record.entries()))
    return saved

"""The seats this player holds, on disk, so that a closed or crashed terminal keeps its seats.

A seat's token is all it takes to sit in that seat, so the book is the player's alone: one JSON
file, 0600, in a 0700 directory of Gaslight's data directory. Seats are keyed by the host's
identity (`welcome.host`, the same at any address and after `gaslight host --resume`) and the
table id; the address is only where that host was last seen. Each seat keeps the fingerprint
of the key its host presented: every way back to the seat expects that key before the token
is sent, whatever code the player types (PROTOCOL.md, "Transport").

The file is read on every call: two apps of the same player on one machine share it, and it
holds a handful of entries.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tui.address import Address

BOOK_FILE = "seats.json"


@dataclass(frozen=True)
class HeldSeat:
    host_id: str
    table: str
    token: str
    address: Address
    """Where the host was last seen."""
    game: str = ""
    name: str = ""
    """The table's name, to say which game a rejoin offers."""
    store: str | None = None
    """Set when this app hosted the table itself: the name of that host's store in the data
    directory, from which the app brings the host back after it was closed."""
    pid: int | None = None
    """The process of the app that last sat in this seat. Two apps of one player on one
    machine share the book (friends trying Gaslight on one computer): a seat whose app still
    runs is that app's, and another must not take it over."""
    fingerprint: str | None = None
    """The key of the host that gave the token (None in a book written before protocol 4)."""

    @property
    def in_use_elsewhere(self) -> bool:
        """Whether another app, still running, holds this seat."""
        if self.pid is None or self.pid == os.getpid():
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True  # alive, someone else's process: not ours to take
        return True

    @property
    def key(self) -> tuple[str, str]:
        return self.host_id, self.table

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["address"] = [self.address.host, self.address.port]
        return data

    @classmethod
    def from_json(cls, data: Any) -> "HeldSeat | None":
        """The entry, or None for one that is damaged (the file is the player's to edit)."""
        try:
            host, port = data["address"]
            seat = cls(
                host_id=str(data["host_id"]), table=str(data["table"]),
                token=str(data["token"]), address=Address(str(host), int(port)),
                game=str(data.get("game") or ""), name=str(data.get("name") or ""),
                store=str(data["store"]) if data.get("store") else None,
                fingerprint=str(data["fingerprint"]) if data.get("fingerprint") else None,
                pid=int(data["pid"]) if data.get("pid") else None,
            )
        except (KeyError, TypeError, ValueError):
            return None
        return seat


class SeatBook:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / BOOK_FILE

    def all(self) -> list[HeldSeat]:
        """Every seat held, the most recently kept last."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        entries = data.get("seats") if isinstance(data, dict) else None
        seats = [HeldSeat.from_json(entry) for entry in entries or []]
        return [seat for seat in seats if seat is not None]

    def get(self, host_id: str | None, table: str | None) -> HeldSeat | None:
        return next((s for s in self.all() if s.key == (host_id, table)), None)

    def keep(self, seat: HeldSeat) -> None:
        self._write([s for s in self.all() if s.key != seat.key] + [seat])

    def forget(self, host_id: str | None, table: str | None) -> None:
        seats = self.all()
        kept = [s for s in seats if s.key != (host_id, table)]
        if len(kept) != len(seats):
            self._write(kept)

    def _write(self, seats: list[HeldSeat]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        # mkdir's mode is filtered by the umask and ignored for an existing directory.
        if self.directory.stat().st_mode & 0o077:
            self.directory.chmod(0o700)
        tmp = self.path.with_suffix(".tmp")
        # Created 0600 from the start: the tokens are never readable by anyone else.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"seats": [s.to_json() for s in seats]}, out, indent=2)
        os.chmod(tmp, 0o600)
        tmp.replace(self.path)

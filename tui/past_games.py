"""The finished games this player may watch again, as the lobby lists them (`PastGame`), and
a replay file opened for watching (`OpenedReplay`): plain values the backend hands the screens.

A past game comes from either source through one constructor, `PastGame.of`: an entry of a
host's `replays` list, or of `netplay.replay_file.folder_listing` (the same entry, with the
file's `path`; or, for a file that does not read, its `path` and what is `damaged`, one line
of the list). Either way netplay has played the record through the engine; the TUI only
reads the entry. Nothing here imports textual, and no game: only the engine's catalogue.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping

from tui.address import Address
from tui.listing import Ticket

SPECTATOR = "spectator"
"""The eyes of a spectator (`netplay.protocol.EYES_SPECTATOR`, which a test checks), here so
that listing past games loads no netplay."""


class ReplayFileFailed(Exception):
    """A replay file that could not be opened, or a replay that could not be saved to one:
    `str(error)` is a whole sentence for the player, saying which file and why."""


@dataclass(frozen=True)
class PastGame:
    kind: str
    name: str
    players: int
    ended: float | None
    result: str
    game: str
    address: Address | None = None
    """The host that shows it; None for a replay file."""
    token: str | None = None
    fingerprint: str | None = None
    """The key of the host that gave `token`: watching expects it."""
    path: Path | None = None
    seat: int | None = None
    """The seat this player played: its replay starts through their own eyes."""
    damaged: str | None = None
    """For a kept file that does not read: what is wrong with it. Its line says so, and
    opening it says so again (`Backend.open_replay_file`)."""

    @classmethod
    def of(cls, entry: Mapping[str, Any], *, address: Address | None = None,
           token: str | None = None, fingerprint: str | None = None) -> PastGame:
        """The past game an entry of a `replays` list describes: a host's (from `address`,
        asked with `token`, the host's key `fingerprint`), or a folder's (its `path`).
        KeyError, TypeError or ValueError for an entry that does not say what a game is."""
        ended, seat, path = entry.get("ended"), entry.get("seat"), entry.get("path")
        if entry.get("damaged") is not None and isinstance(path, str):
            return cls(kind="", name=Path(path).name, players=0,
                       ended=float(ended) if type(ended) in (int, float) else None, result="",
                       game="", path=Path(path), damaged=str(entry["damaged"]))
        return cls(
            kind=str(entry["kind"]), name=str(entry["name"]), players=int(entry["players"]),
            ended=float(ended) if type(ended) in (int, float) else None,
            result=str(entry.get("result") or ""), game=str(entry["game"]), address=address,
            token=token, fingerprint=fingerprint,
            path=Path(path) if isinstance(path, str) else None,
            seat=seat if type(seat) is int and 0 <= seat < int(entry["players"]) else None,
        )

    @property
    def eyes(self) -> int | str:
        """Whose eyes its replay starts through: this player's seat, or a spectator's."""
        return self.seat if isinstance(self.seat, int) else SPECTATOR

    def line(self) -> str:
        from engine.catalogue import CATALOGUE

        if self.damaged is not None:
            return f"{self.name} cannot be shown: {self.damaged} (file)"
        info = CATALOGUE.get(self.kind)
        when = time.strftime("%d %b %H:%M", time.localtime(self.ended)) if self.ended else ""
        where = "file" if self.path is not None else str(self.address)
        title = info.title if info else self.kind
        return f"{when}  {title} · {self.name} · {self.players}p · {self.result} ({where})"


@dataclass(frozen=True)
class OpenedReplay:
    """A replay file shown by a host of this app's own on 127.0.0.1 (`Backend.open_replay_file`):
    watch it at `ticket` (a spectator's, no table) with `Backend.watch`, ask for `game`, and
    await `close()` when done: its host stops and its code is forgotten."""

    ticket: Ticket
    game: str
    close: Callable[[], Awaitable[None]]

"""What the lobby knows of a table (`TableListing`), what the play screen needs to sit at one
(`Ticket`), and the words for both: a table's changed options, and why a connection failed.
Nothing here imports textual, nor netplay until a text needs it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui.address import Address

if TYPE_CHECKING:
    from tui.seat_book import HeldSeat


def connect_error_text(address: Address, error: BaseException) -> str:
    """Why a connection to `address` failed, in words a player can act on."""
    if isinstance(error, ConnectionRefusedError):
        return f"Nobody answers at {address}: is the host running, and is the port right?"
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return f"{address} did not answer in time: is it on this network?"
    if isinstance(error, OSError) and error.strerror:
        return f"Cannot reach {address}: {error.strerror}."
    from netplay.client import HostRefused
    from netplay.errors import ProtocolError

    if isinstance(error, (HostRefused, ProtocolError)):
        text = str(error)
        # Most refusals name the host already: say its address once.
        return text if str(address) in text else f"{address} refused: {text}"
    return f"Cannot reach {address}: {error}"


@dataclass(frozen=True)
class Ticket:
    """Where a table is and how to sit at it: everything the play screen needs to connect."""

    address: Address
    table: str | None
    spectate: bool = False
    share: str | None = None
    """For a table this app hosts: the HOST:PORT other players can type to join it."""
    code: str | None = None
    """For a table this app hosts for others: its host's table code, as shown (1234-5678)."""
    private: bool = False
    """A table this app hosts for this player alone (bots): its host stops once the game is
    over and the player leaves."""
    host_id: str | None = None
    """The host's identity, which keys the seat this player holds there."""
    game: str = ""
    name: str = ""
    store: str | None = None
    """For a table this app hosts: its host's store, to bring it back after a restart."""


def optional_count(value: Any) -> int | None:
    """A count a host may leave out (an older host), or send as anything (a hostile one)."""
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def changed_options_text(game: str, options: Any) -> str:
    """A table's options that differ from its game's defaults, in the lobby's words; empty for
    none, an unknown game, or what a hostile host sent instead of a map."""
    from engine.catalogue import CATALOGUE
    from tui.commands.game_options import options_text

    info = CATALOGUE.get(game)
    if info is None or not isinstance(options, dict):
        return ""
    defaults = {option.name: option.default for option in info.options}
    return options_text(info, {name: value for name, value in options.items()
                               if name in defaults and value != defaults[name]})


@dataclass(frozen=True)
class TableListing:
    """One row of the lobby: a table and where it lives."""

    address: Address
    id: str
    name: str
    game: str
    players: int
    seats_free: int
    phase: str
    source: str = "lan"
    """"lan" (discovered), "address:HOST:PORT" (typed by the player) or "seats" (held)."""
    host_id: str = ""
    private: bool = False
    """The table asks its host's table code at every join (PROTOCOL.md, "Pairing")."""
    held: bool = False
    """This player holds a seat there: joining takes it back."""
    people: int | None = None
    bots: int | None = None
    """Who is seated, when the host tells people from bots."""
    options: str = ""
    """The table's options that differ from its game's defaults, in words ("Variante: yes"),
    so a joiner sees them before sitting."""
    by: str = ""
    """The name of the person who hosts the table, as its host says (empty when none)."""
    key_changed: bool = False
    """A held seat's row whose host, at the address it was last seen, shows another key than
    the one the seat was taken from: nothing is sent there, and the row says so."""

    @classmethod
    def from_message(
        cls, address: Address, entry: dict[str, Any], source: str, host_id: str = ""
    ) -> "TableListing":
        return cls(
            address=address,
            id=str(entry["id"]),
            name=str(entry.get("name") or entry["id"]),
            game=str(entry.get("game", "?")),
            players=int(entry.get("players", 0)),
            seats_free=int(entry.get("seats_free", 0)),
            phase=str(entry.get("phase", "waiting")),
            source=source,
            host_id=host_id,
            people=optional_count(entry.get("people")),
            bots=optional_count(entry.get("bots")),
            private=entry.get("private") is True,
            by=str(entry.get("by") or ""),
            options=" · ".join(
                filter(None, (changed_options_text(str(entry.get("game", "")),
                                                   entry.get("options")),
                              "Hints: on" if entry.get("hints") is True else ""))),
        )

    @property
    def key(self) -> str:
        """One row per table: a host is known by its identity at any of its addresses
        (`localhost`, `127.0.0.1`, its LAN address)."""
        return f"{self.host_id or self.address}/{self.id}"

    @classmethod
    def of_key_changed_seat(cls, seat: "HeldSeat") -> "TableListing":
        """The row of a seat whose host now shows another key: what the seat book knows of
        its table, nothing the host there said (it is not trusted)."""
        return cls(address=seat.address, id=seat.table, name=seat.name or seat.table,
                   game=seat.game or "?", players=0, seats_free=0, phase="key changed",
                   source="seats", host_id=seat.host_id, held=True, key_changed=True)

    def ticket(self, spectate: bool) -> Ticket:
        return Ticket(self.address, self.id, spectate=spectate, host_id=self.host_id or None,
                      game=self.game, name=self.name)


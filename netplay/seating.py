"""Where each client is: its `hello`, and its sitting, watching, taking a seat back and leaving.

A client arrives at the lobby, at a table's seat (a new one, or its own again by its token) or
among a table's spectators; it leaves by asking or by dropping. Each move tells the table, and
the newcomer gets the game so far and the recent chat. A wrong seat token costs its address
one of `TOKEN_FAILURES` guesses a window; a private table asks for the table code.
"""

from __future__ import annotations

import logging
import time
from typing import Final, Protocol

from netplay.connection import Client, push_state
from netplay.errors import Refusal, Rejection
from netplay.person import BadProof, check_proof
from netplay.protocol import Hello, TableList, Welcome
from netplay.ratelimit import Lockout
from netplay.replays import Replays
from netplay.table import OVER, WAITING, Seat, Table
from netplay.tables import Tables

log = logging.getLogger("gaslight.host")

TOKEN_FAILURES: Final = 5
"""Wrong tokens one address may send per `TOKEN_FAILURE_WINDOW` before it is refused."""
TOKEN_FAILURE_WINDOW: Final = 60.0


class SeatingHost(Protocol):
    """What seating needs of the host (`netplay.host.Host`): its tables, and what it does
    when a table changes, fills, or is left empty."""

    replays: Replays
    tables: Tables

    @property
    def host_id(self) -> str: ...

    @property
    def fingerprint(self) -> str: ...

    def table(self, table_id: str, fatal: bool = False) -> Table: ...

    def table_list(self) -> TableList: ...

    def changed(self, table: Table) -> None: ...

    def start_game(self, table: Table, seed: int | None) -> None: ...

    def arm_turn_timer(self, table: Table) -> None: ...

    def after_move(self, table: Table) -> None: ...

    def close_table(self, table: Table, why: str) -> None: ...


class Seating:
    """Seats and spectators of one host's tables, and the handshake that places a client."""

    def __init__(self, host: SeatingHost) -> None:
        self.host = host
        self._token_lockout = Lockout(TOKEN_FAILURES, TOKEN_FAILURE_WINDOW)

    # -- arriving -------------------------------------------------------------------------

    def hello(self, client: Client, hello: Hello) -> None:
        """Place a client by its `hello`: at its seat again, at a table, or in the lobby."""
        host = self.host
        client.name = hello.name
        if host.replays.only is not None and (hello.token or hello.table):
            raise Rejection("this host only shows a replay; it has no tables")
        if hello.person is not None or hello.proof is not None:
            try:
                client.person = check_proof(hello.person or "", hello.proof or "",
                                            host.fingerprint)
            except BadProof as error:
                raise Rejection(str(error)) from None
        if hello.token is not None:
            self._reclaim_seat(client, hello.token)
        elif hello.table is not None:
            table = host.table(hello.table, fatal=True)
            check_private(client, table, fatal=True)
            if hello.spectate:
                self._watch(client, table)
            else:
                try:
                    self.sit(client, table, None)
                except Refusal as refusal:
                    raise Rejection(str(refusal)) from None
        else:
            self.welcome(client)
            client.send(host.table_list())

    def welcome(self, client: Client, token: str | None = None) -> None:
        """Tell `client` where it now is."""
        client.send(Welcome(table=None if client.table is None else client.table.id,
                            seat=client.seat, token=token, spectator=client.spectator,
                            host=self.host.host_id))
        client.welcomed = True

    def _reclaim_seat(self, client: Client, token: str) -> None:
        now = time.monotonic()
        wait = self._token_lockout.wait(client.address, now)
        if wait:
            log.warning("refused a seat token from %s: rate limited", client.address)
            raise Rejection(f"too many wrong seat tokens from {client.address}; "
                            f"try again in {wait} seconds")
        found = self.host.tables.find_token(token)
        if found is None:
            failures = self._token_lockout.failed(client.address, now)
            # Never log the token itself: a near miss would help the next guess.
            log.warning("refused an unknown seat token from %s (%d recent failures)",
                        client.address, failures)
            raise Rejection("this seat token belongs to no seat at this host; "
                            "a name alone never claims a seat")
        table, seat = found
        check_private(client, table, fatal=True)
        previous = seat.client
        if previous is not None and previous is not client:
            # The token holder is back on a new connection; the old one is dead or stolen.
            self._detach(previous)
            previous.fail("your seat was taken over by a new connection holding its token")
        table.uncover(seat)
        self._seat_client(client, table, seat, token)
        log.info("table %s: seat %d reconnected", table.id, seat.seat)
        self._joined(table, client)

    def _seat_client(self, client: Client, table: Table, seat: Seat, token: str) -> None:
        client.table, client.seat, client.spectator = table, seat.seat, False
        seat.client = client
        self.welcome(client, token)

    def _watch(self, client: Client, table: Table) -> None:
        client.table, client.seat, client.spectator = table, None, True
        table.spectators.add(client)
        self.welcome(client)
        self._joined(table, client)

    def _joined(self, table: Table, client: Client) -> None:
        """Tell the table who came, and the newcomer the game so far and the recent chat."""
        host = self.host
        host.changed(table)
        push_state(table, only=client)
        for line in table.recent_chat(client.spectator):
            client.send(line)
        host.arm_turn_timer(table)

    def sit(self, client: Client, table: Table, wanted: int | None) -> None:
        if client.table is not None:
            raise Refusal(f"you are already at table {client.table.id}; leave it first")
        seat, token = self.host.tables.sit(table, client.name, wanted, client.person)
        self._seat_client(client, table, seat, token)
        self._joined(table, client)
        if table.starts_now:
            self.host.start_game(table, table.seed)

    # -- leaving --------------------------------------------------------------------------

    def leave(self, client: Client) -> None:
        table = client.table
        if table is None:
            raise Refusal("you are not at a table")
        seat = client.seat
        self._detach(client)
        if seat is not None and table.phase == WAITING:
            # Before the game, leaving frees the seat; during it the token keeps it for a return.
            self.host.tables.vacate(table, seat)
        self.welcome(client)
        self._left(table)

    def disconnect(self, client: Client) -> None:
        table = client.table
        if table is None:
            return
        self._detach(client)
        self._left(table)

    def _detach(self, client: Client) -> None:
        if client.table is not None:
            client.table.detach(client)
        client.table, client.seat, client.spectator = None, None, False

    def _left(self, table: Table) -> None:
        """Someone left `table` or dropped: close it if nobody is left waiting for a game,
        else tell the others (a play-again vote may now be complete)."""
        host = self.host
        if not table.clients():
            table.empty_since = time.monotonic()
            if table.phase == WAITING and table.created_by is not None:
                host.close_table(table, "its last person left before the game")
                return
        host.changed(table)
        if table.phase == OVER and table.everyone_asked():
            host.start_game(table, None)
        host.after_move(table)


def check_private(client: Client, table: Table, fatal: bool = False) -> None:
    """A private table asks its table code of everyone who comes (fatal in a `hello`)."""
    if table.private and not client.paired:
        text = f"table {table.id} is private: its table code is needed"
        raise Rejection(text) if fatal else Refusal(text)

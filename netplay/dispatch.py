"""What the host does with each request of a client that has said `hello`.

`Dispatcher.dispatch` `match`es the typed record (`netplay.protocol`) and answers it, or raises a
`Refusal` that the connection turns into a non-fatal `error`. Lobby requests go to
`netplay.seating`, replay requests to `netplay.replays`, actions to `Host.apply`, which tells
nobody before the store has made them durable.
"""

from __future__ import annotations

from typing import Protocol

import engine
from netplay import hints
from netplay.connection import Client, tell
from netplay.errors import ProtocolError, Refusal
from netplay.journal import DEFAULT_PACE
from netplay.limits import HostLimits
from netplay.protocol import (
    REPLAY_REQUESTS,
    Act,
    AddBot,
    AskHint,
    Chat,
    ClaimDone,
    ClientMessage,
    CreateTable,
    FetchRecord,
    Hello,
    Leave,
    ListReplays,
    ListTables,
    Paired,
    PairRequest,
    Ping,
    PlayAgain,
    Pong,
    ShowReplay,
    Sit,
    Start,
    TableList,
)
from netplay.replays import Replays
from netplay.seating import Seating, check_private
from netplay.table import COVER_PAUSE, PLAYING, WAITING, Table
from netplay.tables import Tables


class DispatchHost(Protocol):
    """What the dispatcher needs of the host (`netplay.host.Host`): its tables and limits, and
    what it does to a table: create it, tell of a change, start a game, apply a move or a
    person's pass at a deal."""

    replays: Replays
    tables: Tables
    limits: HostLimits

    def table(self, table_id: str, fatal: bool = False) -> Table: ...

    def table_list(self) -> TableList: ...

    def create_table(self, game: str, players: int, options: dict | None, name: str,
                     bots: int, *, bot_level: str | None, bot_pace: str, turn_timer: int,
                     public_replays: bool, created_by: str | None, private: bool,
                     start_when_full: bool, hints: bool) -> str: ...

    def changed(self, table: Table) -> None: ...

    def start_game(self, table: Table, seed: int | None) -> None: ...

    async def apply(self, table: Table, seat: int, action: dict) -> None: ...

    def after_move(self, table: Table) -> None: ...

    def claim_done(self, table: Table, seat: int) -> None: ...


class Dispatcher:
    """The requests of one host's clients, after their `hello`."""

    def __init__(self, host: DispatchHost, seating: Seating) -> None:
        self.host = host
        self.seating = seating

    async def dispatch(self, client: Client, request: ClientMessage) -> None:
        host = self.host
        if host.replays.only is not None and not isinstance(request, (Ping, ListTables,
                                                                      *REPLAY_REQUESTS)):
            raise Refusal("this host only shows a replay")
        match request:
            case Ping():
                client.send(Pong())
            case ListReplays():
                client.send(host.replays.answer_listing(client, request))
            case ShowReplay():
                client.send_frame(host.replays.answer_step(client, request))
            case FetchRecord():
                client.send(host.replays.answer_record(client, request))
            case ListTables():
                client.send(host.table_list())
            case CreateTable():
                self._create_and_sit(client, request)
            case Sit(table=table_id, seat=seat):
                table = host.table(table_id)
                check_private(client, table)
                self.seating.sit(client, table, seat)
            case AddBot(table=table_id, seat=seat):
                self._add_bot(client, host.table(table_id), seat)
            case Leave():
                self.seating.leave(client)
            case Start():
                table = _own_table(client, "start the game")
                _check_acting_host(client, table, "start the game")
                if table.phase != WAITING:
                    raise Refusal("the game has already started")
                host.start_game(table, table.seed)
            case Act(action=action):
                await self._act(client, action)
            case Chat(text=text):
                self._chat(client, text)
            case ClaimDone():
                host.claim_done(_own_table(client, "pass at a deal"), client.seat)
            case AskHint():
                self._hint(client)
            case PlayAgain():
                table = _own_table(client, "ask to play again")
                if table.ask_play_again(client.seat):
                    host.start_game(table, None)
                else:
                    host.changed(table)
            case Hello():
                raise ProtocolError("'hello' is only for the first message")
            case PairRequest() | Paired():
                raise ProtocolError(f"{request.TAG!r} is only for the pairing, before 'hello'")

    def _create_and_sit(self, client: Client, request: CreateTable) -> None:
        host = self.host
        if client.table is not None:
            raise Refusal(f"you are already at table {client.table.id}; leave it first")
        if type(request.bots) is int and request.bots >= request.players:
            raise Refusal(f"a table of {request.players} can hold at most "
                          f"{request.players - 1} bots: one seat is yours")
        if request.private and not client.paired:
            raise Refusal("only a player who gave this host's table code may make a private "
                          "table")
        most = host.limits.max_tables_per_address
        if host.tables.open_tables_from(client.address) >= most:
            raise Refusal(f"{client.address} already has {most} tables open here, the limit; "
                          "finish or leave one first")
        try:
            table_id = host.create_table(
                request.game, request.players, request.options, request.name or "",
                request.bots, bot_level=request.bot_level,
                bot_pace=request.bot_pace or DEFAULT_PACE, turn_timer=request.turn_timer,
                public_replays=request.public_replays, created_by=client.address,
                private=request.private, start_when_full=request.start_when_full,
                hints=request.hints)
        except (engine.InvalidSetup, ValueError) as error:
            raise Refusal(str(error)) from None
        self.seating.sit(client, host.tables[table_id], None)

    async def _act(self, client: Client, action: dict) -> None:
        table = _own_table(client, "act")
        game = table.game
        if table.phase != PLAYING or game is None:
            raise Refusal("no game is running at this table")
        if action.get("type") in game.FREE_ACTIONS and not client.claim_limit.take():
            raise Refusal(f"too many claims: at most {self.host.limits.claim_per_second:g} "
                          "a second")
        try:
            await self.host.apply(table, client.seat, action)
        except engine.IllegalAction as error:
            raise Refusal(str(error)) from None

    def _hint(self, client: Client) -> None:
        """The hint goes to its asker alone; that it was asked, to everyone at the table."""
        table = _own_table(client, "ask for a hint")
        if not client.hint_limit.take():
            raise Refusal(f"too many hints: at most {self.host.limits.hint_per_second:g} "
                          "a second")
        client.send(hints.advise(table, client.seat))
        self.host.changed(table)

    def _add_bot(self, client: Client, table: Table, wanted: int | None) -> None:
        """Before the game, the person holding the host's powers seats a bot; during it, those
        in `Table.may_cover` let one cover an away player (PROTOCOL.md, "Covered seats")."""
        host = self.host
        covering_allowed = (table.phase != WAITING and client.table is table
                            and not client.spectator and client.seat in table.may_cover())
        if not covering_allowed:
            what = ("add a bot" if table.phase == WAITING else
                    f"let a bot cover an away player until the game has waited "
                    f"{COVER_PAUSE:g} s for them; then anyone at the table may")
            _check_acting_host(client, table, what)
        host.tables.add_bot(table, wanted)
        host.changed(table)
        if table.starts_now:
            host.start_game(table, table.seed)
        host.after_move(table)

    def _chat(self, client: Client, text: str) -> None:
        table = client.table
        if table is None:
            raise Refusal("sit at or watch a table to chat")
        if not client.chat_limit.take():
            raise Refusal(f"too much chat: at most {self.host.limits.chat_per_second:g} "
                          "messages a second")
        name = client.name if client.seat is None else table.seats[client.seat].name
        line, audience = table.say(text, client.seat, name, client.spectator)
        tell(audience, line)


def _own_table(client: Client, what: str) -> Table:
    table = client.table
    if table is None or client.spectator or client.seat is None:
        raise Refusal(f"only a seated player may {what}")
    return table


def _check_acting_host(client: Client, table: Table, what: str) -> None:
    """Only the person holding the host's powers now: the table's host, or while they are
    away, the person who would take over (PROTOCOL.md, "The host's powers")."""
    acting = table.acting_host
    if client.table is not table or client.seat is None or client.seat != acting:
        raise Refusal(f"only the player who hosts table {table.id} (seat {acting}) "
                      f"may {what}")

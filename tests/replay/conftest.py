"""Shared by the replay tests: the host fixtures, and a game played to its end at a host by
connected players and bots, with every state each player and a spectator received."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from support.bot_games import play_seat  # noqa: F401 (the replay tests import it from here)
from support.hosts import TIMEOUT, host, private_data_dir, stored_table  # noqa: F401

from netplay.client import Connection
from netplay.host import Host
from netplay.protocol import (
    Error,
    FetchRecord,
    ListReplays,
    Ping,
    Pong,
    RecordPart,
    ReplayList,
    ReplayStep,
    ShowReplay,
    State,
)


@dataclass
class Played:
    table: str
    people: list[Connection]
    spectator: Connection
    states: dict[object, list[State]] = field(default_factory=dict)
    """Every state each person (by seat) and the spectator ("spectator") received."""

    async def close(self) -> None:
        for conn in [*self.people, self.spectator]:
            await conn.close()


async def watch_to_end(conn: Connection, log: list[State]) -> None:
    async for msg in conn:
        if isinstance(msg, State):
            log.append(msg)
            if msg.view["outcome"] is not None:
                return
    raise AssertionError("the spectator was closed before the end")


async def play_game(host: Host, game: str, players: int, people: int, seed: int,
                    options: dict | None = None, **table) -> Played:
    """A game at `host` with `people` connected players (the first seats) and bots, watched
    by a spectator who came before the start, played to its end."""
    port = host.address[1]
    table_id = host.create_table(game, players, options or {}, bots=players - people,
                                 seed=seed, **table, start_when_full=True)
    host.seed_bots(table_id, seed)
    spectator = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                         name="Watson", table=table_id,
                                         spectate=True)
    conns = [await Connection.connect("127.0.0.1", port, code=host.table_code,
                                      name=f"P{i}", table=table_id)
             for i in range(people)]
    played = Played(table_id, conns, spectator)
    played.states = {conn.seat: [] for conn in conns} | {"spectator": []}
    await asyncio.wait_for(asyncio.gather(
        watch_to_end(spectator, played.states["spectator"]),
        *(play_seat(conn, played.states[conn.seat], seed + conn.seat) for conn in conns)),
        TIMEOUT * 3)
    for conn in [*conns, spectator]:
        await settled(conn)
    return played


async def settled(conn: Connection) -> None:
    """Once the host has answered all `conn` sent, drop what is still to be read: a move a
    seat sent as the game ended is turned down after the last state ("no game is running at
    this table"), and that answer must not be read as the refusal of a later request."""
    await conn.ask(Ping(), lambda msg: isinstance(msg, Pong))
    with contextlib.suppress(TimeoutError):
        while True:
            await conn.next_message(timeout=0)


async def listing(conn: Connection, tokens: list[str] | None = None) -> list[dict]:
    await conn.send(ListReplays(tokens or []))
    return (await next_reply(conn, ReplayList)).games


async def next_reply(conn: Connection, kind: type, timeout: float = 10.0):
    """The next message of `kind`, or AssertionError on an error first."""
    async def find():
        while True:
            msg = await conn.next_message()
            if isinstance(msg, kind):
                return msg
            if isinstance(msg, Error):
                raise AssertionError(f"the host refused: {msg.message}")
    return await asyncio.wait_for(find(), timeout)


async def refusal(conn: Connection, timeout: float = 10.0) -> str:
    """The next error's message, failing if a replay or record came first."""
    async def find():
        while True:
            msg = await conn.next_message()
            if isinstance(msg, Error):
                return msg.message
            assert not isinstance(msg, ReplayStep | ReplayList), msg
    return await asyncio.wait_for(find(), timeout)


async def step(conn: Connection, game: str, eyes, number: int, token: str | None = None
               ) -> ReplayStep:
    await conn.send(ShowReplay(game=game, eyes=eyes, step=number, token=token))
    return await next_reply(conn, ReplayStep)


async def fetch_entries(conn: Connection, game: str, token: str | None = None) -> list[dict]:
    """A finished game's record from its host, part by part, as the replay screen saves it."""
    entries: list[dict] = []
    part, parts = 0, 1
    while part < parts:
        await conn.send(FetchRecord(game=game, part=part, token=token))
        got = await next_reply(conn, RecordPart)
        assert (got.game, got.part) == (game, part)
        entries.extend(got.body)
        part, parts = part + 1, got.parts
    return entries

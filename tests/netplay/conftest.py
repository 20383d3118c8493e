"""Shared fixtures for the netplay tests: a real host on 127.0.0.1, port 0, with its data
directory in tmp_path, and clients that play with the game's own bots from their views."""

from __future__ import annotations

import asyncio
import random
import time
from typing import TypeVar

import engine
from netplay.client import Connection, NotConnected
from netplay.host import Host
from netplay.frames import encode, message, read_message
from netplay.protocol import Error, State
from netplay.transport import open_tls
from support.bot_games import smart_bot
from support.hosts import TIMEOUT, host, private_data_dir, stored_table  # noqa: F401

R = TypeVar("R")


def assert_view_of(view: dict, full: dict) -> None:
    """`view`, as a client rebuilt it from states, is `full` (the engine's view): the same
    fields, with `full`'s events from `events_from` on (a client that joined late or came back
    has the last ones only)."""
    fields = {k: v for k, v in view.items() if k not in ("events", "events_from")}
    assert fields == {k: v for k, v in full.items() if k != "events"}
    assert view["events"] == full["events"][view["events_from"]:]


async def play(conn: Connection, seed: int = 0, log: list | None = None,
               stamps: list | None = None) -> dict:
    """Play `conn`'s seat with the game's bot, from the views it receives, until the game is
    over; return the final view. Free actions (claims) are left alone so each state asks for
    at most one move. `log` gets every message, `stamps` every (arrival time, message)."""
    rng = random.Random(seed)
    async for msg in conn:
        if log is not None:
            log.append(msg)
        if stamps is not None:
            stamps.append((time.monotonic(), msg))
        if isinstance(msg, Error):
            raise AssertionError(f"seat {conn.seat} got an error: {msg.message}")
        if not isinstance(msg, State):
            continue
        view = msg.view
        if view["outcome"] is not None:
            return view
        game = engine.GAMES[view["game"]]
        moves = [a for a in msg.legal if a["type"] not in game.FREE_ACTIONS]
        # A state that only brings someone's claim repeats the turn already answered.
        news = msg.events
        only_talk = bool(news) and all(e["type"] == "claim" for e in news)
        if moves and msg.seat in view["to_act"] and not only_talk:
            try:
                await conn.act(smart_bot(view["game"])(view, moves, rng))
            except NotConnected:
                pass  # the state pushed after the reconnect asks again
    raise AssertionError(f"connection closed before the game ended ({conn.refusal})")


async def bots_have_claimed(host: Host, table_id: str) -> None:
    """Wait until every bot at a Time Bomb table has claimed this deal, as bots do right after
    a deal: a test that watches for changes starts once the table is quiet."""
    table = host.tables[table_id]
    while any(seat.bot_plays and table.game.claims[seat.seat] is None for seat in table.seats):
        await asyncio.sleep(0.005)


async def watch(conn: Connection, log: list | None = None) -> dict:
    async for msg in conn:
        if log is not None:
            log.append(msg)
        if isinstance(msg, State) and msg.view["outcome"] is not None:
            return msg.view
    raise AssertionError("spectator closed before the game ended")


class RawClient:
    """A hand-made client speaking raw frames, for malformed and hostile input."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> "RawClient":
        """Over TLS, as every client talks, trusting the host without pairing (the host lets
        anyone reach a table that is not private)."""
        reader, writer = await open_tls("127.0.0.1", port, TIMEOUT)
        return cls(reader, writer)

    async def send(self, tag: str, **fields) -> None:
        await self.send_bytes(encode(message(tag, **fields)))

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def receive(self, timeout: float = 5.0) -> dict:
        return await asyncio.wait_for(read_message(self.reader), timeout)

    async def receive_until(self, tag: str, timeout: float = 5.0) -> dict:
        while True:
            msg = await self.receive(timeout)
            if msg["t"] == tag:
                return msg

    async def closed_by_host(self, timeout: float = 5.0) -> bool:
        """True once the host has closed the connection (EOF), after any last frames."""
        try:
            while await asyncio.wait_for(self.reader.read(65536), timeout):
                pass
        except ConnectionError:
            pass
        return True

    def close(self) -> None:
        self.writer.close()


async def next_of(conn: Connection, kind: type[R], timeout: float = 5.0, **fields) -> R:
    """The next message of type `kind` (with `fields`) from `conn`, skipping others."""
    async def find():
        while True:
            msg = await conn.next_message()
            if isinstance(msg, kind) and all(getattr(msg, k) == v for k, v in fields.items()):
                return msg

    return await asyncio.wait_for(find(), timeout)

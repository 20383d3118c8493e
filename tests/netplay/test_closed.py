"""A table that closes says so, and who closed it (PROTOCOL.md, `closed`): its players and
spectators are told in words and do not reconnect for ever; a host stopped to go on
elsewhere (`--resume`, a host in the background) says nothing, and its clients reconnect."""

from __future__ import annotations

import asyncio

from netplay.client import CLOSED, Connection
from netplay.protocol import Closed, State

from .conftest import TIMEOUT, next_of


async def test_everyone_at_a_closed_table_is_told_who_closed_it(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=3, start_when_full=True)
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann", table=table_id)
    eve = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Eve", table=table_id, spectate=True)
    await next_of(eve, State)
    await host.close("Bob")
    for conn in (ann, eve):
        closed = await next_of(conn, Closed, timeout=5)
        assert (closed.table, closed.by, closed.message) == (table_id, "Bob",
                                                             "Bob closed the table.")
        # The iteration ends: the client does not try to reconnect to a closed table.
        async with asyncio.timeout(5):
            async for _ in conn:
                pass
        assert conn.status == CLOSED
        await conn.close()


async def test_a_host_stopped_by_its_operator_says_nobody_closed_it(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=3, start_when_full=True)
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann", table=table_id)
    await next_of(ann, State)
    await host.close()
    closed = await next_of(ann, Closed, timeout=TIMEOUT)
    assert closed.by is None and "closed" in closed.message
    await ann.close()


async def test_a_host_knows_how_long_nobody_has_been_at_its_tables(host):
    """`gaslight host --stop-when-empty` (a table the app keeps in the background) stops once
    this has passed the abandoned tables' time."""
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=3,
                                 start_when_full=True)
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann", table=table_id)
    await next_of(ann, State)
    assert host.empty_for() == 0.0
    await ann.close()
    while host.empty_for() == 0.0:
        await asyncio.sleep(0.01)
    assert 0.0 < host.empty_for() < 5.0

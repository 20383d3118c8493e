"""Hosting again is one step (issue 42): a person's app keeps one host key for every table it
hosts for others, in the foreground and in the background (`gaslight host --resume` on the
table's store), so a guest who paired once joins the person's next table without a code, and a
client follows its own table among the hosts that share the identity. Over real hosts on
127.0.0.1, discovery on loopback."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from support.waiting import TIMEOUT

from netplay.client import NotPaired, Status
from netplay.host import Host
from netplay.store import data_dir
from tui import background
from tui.backend import Backend
from tui.listing import TableListing


async def listed(backend: Backend, table: str) -> TableListing:
    """`table`'s row as `backend`'s lobby finds it on the LAN."""
    async with asyncio.timeout(TIMEOUT), contextlib.aclosing(backend.browse()) as browsing:
        async for tables in browsing:
            found = [t for t in tables if t.id == table]
            if found:
                return found[0]
    raise AssertionError(f"table {table} never listed")


async def test_a_second_table_of_the_same_person_is_joined_with_no_code(tmp_path):
    ann = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "ann", bot_delay=0)
    bob = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "bob", bot_delay=0)
    stores: list[str] = []
    try:
        first = await ann.host_table("timebomb", 4, {}, name="First", bots=2, advertise=True)
        row = await listed(bob, first.table)
        assert bob.needs_code(row)  # Bob has never met Ann's host
        with pytest.raises(NotPaired):
            await bob.connect(row.ticket(spectate=False), "Bob")
        bob.remember_code(row.address, first.code)  # he types the code she shows, once
        at_first = await bob.connect(row.ticket(spectate=False), "Bob")

        second = await ann.host_table("holmes", 2, {}, name="Second", bots=0, advertise=True)
        assert second.store != first.store and second.address != first.address
        row = await listed(bob, second.table)
        assert row.host_id == first.host_id and not bob.needs_code(row)
        at_second = await bob.connect(row.ticket(spectate=False), "Bob")
        assert at_second.fingerprint == at_first.fingerprint

        # Ann quits, keeping her tables running in the background: a process of its own on
        # each store, each presenting the same key. Bob's app follows its own table there.
        stores += [first.store, second.store]
        await ann.keep_in_background("Ann")
        for store in stores:
            assert background.running(data_dir(ann.data_dir), store) is not None
        await asyncio.wait_for(reconnected(at_second), TIMEOUT)
        assert (at_second.table, at_second.fingerprint) == (second.table, at_first.fingerprint)

        # A third table in the foreground while the others run in the background: one key.
        third = await ann.host_table("timebomb", 4, {}, name="Third", bots=2, advertise=True)
        row = await listed(bob, third.table)
        assert not bob.needs_code(row)
        at_third = await bob.connect(row.ticket(spectate=False), "Bob")
        assert at_third.fingerprint == at_first.fingerprint
        for conn in (at_first, at_second, at_third):
            await conn.close()
    finally:
        for store in stores:  # the background hosts this test started, by their pid files
            await asyncio.to_thread(background.stop, data_dir(ann.data_dir), store)
        await ann.close()
        await bob.close()


async def reconnected(conn) -> None:
    """Until `conn` has lost its host and found it again."""
    dropped = False
    async for message in conn:
        if isinstance(message, Status):
            dropped = dropped or message.status == "reconnecting"
            if dropped and message.status == "connected":
                return
    raise AssertionError(f"the connection ended: {conn.refusal}")


async def test_a_host_of_another_store_with_the_key_presents_it_after_resume(tmp_path):
    """The store remembers its key: `--resume` on it needs no word of which."""
    first = Host(data_dir=tmp_path, store="lan-1", key="host")
    again = Host(data_dir=tmp_path, store="lan-2", key="host")
    own = Host(data_dir=tmp_path, store="bots-1")
    assert first.fingerprint == again.fingerprint != own.fingerprint
    for host in (first, again, own):
        host.store.close()
    resumed = Host(data_dir=tmp_path, store="lan-2")  # as `gaslight host --resume --store`
    assert resumed.fingerprint == first.fingerprint
    resumed.store.close()
    assert not (tmp_path / "lan-1.pem").exists() and (tmp_path / "host.pem").exists()

"""A deal is a pause (PROTOCOL.md, "Deals"): no bot cuts until every connected person has
claimed or passed (`claim_done`), or the deal's wait has run out."""

from __future__ import annotations

import time

from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import ClaimDone, Lobby, Start, State

from .conftest import next_of

DEAL_WAIT = 2.0
"""The deal's wait these tests configure: short, and long beside the fast pace's 0.5 s."""


async def seated_pair(tmp_path) -> tuple[Host, Connection, Connection]:
    """Ann and Bob at a Time Bomb table of 4 whose bots (seats 3 and 4, the first cutter
    among them) play at the fast pace, with a short deal wait; not started yet."""
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(deal_wait=DEAL_WAIT))
    await host.start()
    table_id = host.create_table("timebomb", 4, {"first_player": 2}, bots=2, bot_pace="fast")
    ann, bob = [await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                         name=name, table=table_id) for name in ("Ann", "Bob")]
    return host, ann, bob


async def first_cut(conn: Connection, waits: list[list[int]]) -> float:
    """When the first state showing a cut wire arrives; `waits` gets each lobby's
    `claim_wait` meanwhile."""
    while True:
        message = await next_of(conn, (State, Lobby), timeout=DEAL_WAIT * 5)
        if isinstance(message, Lobby):
            waits.append(message.claim_wait)
        elif message.view["cuts"] > 0:
            return time.monotonic()


async def test_bots_wait_for_the_people_who_have_not_claimed(tmp_path):
    host, ann, bob = await seated_pair(tmp_path)
    try:
        await ann.send(Start())
        dealt, waits = time.monotonic(), []
        waited = await first_cut(ann, waits) - dealt
        # Nobody claimed: the bots claimed but did not cut for the deal's whole wait, then
        # the first cut came at the fast pace (0.5 s, within 30%).
        assert DEAL_WAIT <= waited < DEAL_WAIT + 3, waited
        assert [0, 1] in waits and waits[-1] == []
    finally:
        await ann.close()
        await bob.close()
        await host.stop()


async def test_bots_cut_once_every_person_has_claimed_or_passed(tmp_path):
    host, ann, bob = await seated_pair(tmp_path)
    try:
        await ann.send(Start())
        dealt = time.monotonic()
        await next_of(ann, Lobby, claim_wait=[0, 1])
        await ann.send(ClaimDone())
        await bob.send(ClaimDone())
        assert await first_cut(ann, []) - dealt < DEAL_WAIT
    finally:
        await ann.close()
        await bob.close()
        await host.stop()


async def test_a_person_who_is_away_is_not_waited_for(tmp_path):
    host, ann, bob = await seated_pair(tmp_path)
    try:
        await ann.send(Start())
        dealt = time.monotonic()
        await next_of(ann, Lobby, claim_wait=[0, 1])
        await bob.close()
        await next_of(ann, Lobby, claim_wait=[0])
        await ann.send(ClaimDone())
        assert await first_cut(ann, []) - dealt < DEAL_WAIT
    finally:
        await ann.close()
        await host.stop()

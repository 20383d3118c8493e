"""Bots speak when people would: at a real host on 127.0.0.1, every bot claims after every deal,
whoever holds the Wire Cutter, within the free-action rate a person's connection has."""

from __future__ import annotations

import asyncio

import pytest

from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits

from .conftest import TIMEOUT, play


def claims_after_each_deal(game) -> list[set[int]]:
    """For each deal, the seats that claimed before the next deal."""
    deals: list[set[int]] = []
    for event in game.events:
        if event.type == "deal":
            deals.append(set())
        elif event.type == "claim":
            deals[-1].add(event.seats[0])
    return deals


@pytest.mark.parametrize("game_id", ["timebomb", "timebomb_evolution"])
async def test_every_bot_claims_after_every_deal(host, game_id):
    table_id = host.create_table(game_id, 5, name="Talk", bots=4, seed=11, start_when_full=True)
    person = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                      name="Ann", table=table_id)
    assert person.seat == 0
    # The person plays without ever claiming (conftest's `play` leaves claims alone).
    await asyncio.wait_for(play(person, seed=3), TIMEOUT)
    game = host.tables[table_id].game
    deals = claims_after_each_deal(game)
    assert len(deals) >= 1
    last_deal = max(i for i, e in enumerate(game.events) if e.type == "deal")
    cuts_since = sum(e.type == "cut" for e in game.events[last_deal:])
    for number, claimed in enumerate(deals, 1):
        if number == len(deals) and cuts_since < 4:
            # The game may end before the last deal's talk is over: the first claims come
            # before any cut, so at least some bot has spoken.
            assert claimed, f"no bot spoke after deal {number}"
        else:
            assert claimed == {1, 2, 3, 4}, f"deal {number}: only {sorted(claimed)} claimed"
    await person.close()


async def test_bots_keep_to_the_free_action_rate(tmp_path):
    """With room for one claim a minute, each bot claims once and then keeps quiet: the host
    never has a bot's claim to refuse."""
    host = Host(data_dir=tmp_path / "data",
                limits=HostLimits(bot_delay=0.002, claim_burst=1, claim_per_second=1 / 60))
    await host.start("127.0.0.1", 0)
    try:
        table_id = host.create_table("timebomb", 5, name="Quiet", bots=4, seed=11,
                                     start_when_full=True)
        person = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                          name="Ann",
                                          table=table_id)
        await asyncio.wait_for(play(person, seed=3), TIMEOUT)
        game = host.tables[table_id].game
        claims = [e.seats[0] for e in game.events if e.type == "claim"]
        assert sorted(claims) == [1, 2, 3, 4]
        await person.close()
    finally:
        await host.stop()

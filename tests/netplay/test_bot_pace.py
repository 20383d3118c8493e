"""A table's bots keep a person's pace (PROTOCOL.md, `create_table.bot_pace`): fast, normal or
slow, each wait drawn within 30% of it from a source of its own, so a seeded game's bots choose
the same whatever their pace."""

from __future__ import annotations

from support.hosts import connect

import asyncio
import time

import pytest

from netplay.bots import PACE_SPREAD, BotDriver
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import CreateTable, Error, Lobby, State, Welcome
from netplay.table import BOT_PACES

from .conftest import next_of, stored_table


async def test_create_table_takes_a_pace_the_lobby_tells_and_the_store_keeps(host):
    holmes = await connect(host, "Holmes")
    await next_of(holmes, Welcome)  # the lobby's
    await holmes.send(CreateTable(game="timebomb", players=5, bots=2, bot_pace="slow"))
    table_id = (await next_of(holmes, Welcome)).table
    assert (await next_of(holmes, Lobby)).bot_pace == "slow"
    await host.store.flush()
    assert stored_table(host.data_dir, table_id).bot_pace == "slow"
    await holmes.close()

    watson = await connect(host, "Watson")
    await next_of(watson, Welcome)  # the lobby's
    await watson.send(CreateTable(game="timebomb", players=5))
    await next_of(watson, Welcome)
    assert (await next_of(watson, Lobby)).bot_pace == "normal"  # the default
    await watson.close()


async def test_an_unknown_pace_is_refused_and_creates_nothing(host):
    lestrade = await connect(host, "Lestrade")
    await lestrade.send(CreateTable(game="timebomb", players=5, bot_pace="ludicrous"))
    error = await next_of(lestrade, Error)
    assert not error.fatal and "fast, normal, slow" in error.message
    assert not host.tables
    await lestrade.close()


@pytest.mark.parametrize("pace", sorted(BOT_PACES))
async def test_each_wait_is_the_pace_within_its_spread_and_leaves_the_bots_choices_alone(pace, host):
    host.create_table("timebomb", 5, bots=4, bot_pace=pace, start_when_full=True)
    table = next(iter(host.tables.values()))
    driver = BotDriver(table, host.apply, None, lambda: None)
    choices = driver.rng.getstate()
    waits = [driver._wait() for _ in range(500)]
    seconds = BOT_PACES[pace]
    assert all(seconds * (1 - PACE_SPREAD) <= w <= seconds * (1 + PACE_SPREAD) for w in waits)
    assert max(waits) - min(waits) > seconds * PACE_SPREAD  # it varies, as a person does
    assert driver.rng.getstate() == choices


async def test_a_fixed_bot_delay_overrides_every_pace(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    table_id = host.create_table("timebomb", 5, bots=4, bot_pace="slow", start_when_full=True)
    driver = BotDriver(host.tables[table_id], host.apply, host.limits.bot_delay, lambda: None)
    assert {driver._wait() for _ in range(20)} == {0.002}
    await host.stop()


async def test_bots_at_a_fast_table_wait_before_they_move(tmp_path):
    """Over real sockets, with no fixed delay: after the person's cut, the next bot move comes
    no sooner than the fast pace's shortest wait."""
    host = Host(data_dir=tmp_path / "data")
    await host.start()
    try:
        table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=3,
                                     bot_pace="fast", seed=3, start_when_full=True)
        ann = await connect(host, "Ann", table=table_id)
        game = host.tables[table_id].game
        while (state := await next_of(ann, State, timeout=20)).seat not in \
                state.view["to_act"]:
            pass
        moves_before = len(game.history)
        cut = next(a for a in state.legal if a["type"] == "cut")
        started = time.monotonic()
        await ann.act(cut)
        while not [a for _, a in game.history[moves_before + 1:] if a["type"] != "claim"]:
            await asyncio.sleep(0.01)
        assert time.monotonic() - started >= BOT_PACES["fast"] * (1 - PACE_SPREAD)
        await ann.close()
    finally:
        await host.stop()

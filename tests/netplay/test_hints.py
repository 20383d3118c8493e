"""Hints (PROTOCOL.md, "Hints"): the move the table's strongest bot would play from the asker's
own view, with a reason, to the asker alone; offered in games against bots and where the
table's host allowed them; and everyone at the table told that a hint was asked."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import Bot
from netplay import hints
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import AskHint, Error, Hint, Lobby, Start, State

from .conftest import next_of
from support.hosts import connect, stored_table

HOLMES_FIRST_SEAT = {"first_player": "chosen"}
"""Holmes with the first seat to move: the person's, at every table here."""


async def my_turn(conn) -> State:
    """The next state that waits on `conn`'s seat."""
    while True:
        state = await next_of(conn, State)
        if conn.seat in state.view["to_act"]:
            return state


async def lobby_with(conn, **fields) -> Lobby:
    return await next_of(conn, Lobby, **fields)


@pytest.fixture
def fixed_hint_rng(monkeypatch):
    """Every hint drawn from `random.Random(5)`, so a test can ask the bot the same."""
    monkeypatch.setattr(hints, "hint_rng", lambda: random.Random(5))


async def test_the_hint_is_the_move_the_bot_plays_from_the_askers_own_view(
        tmp_path, monkeypatch, fixed_hint_rng):
    bot = engine.GAMES["holmes"].BOTS["smart"]
    seen = []

    def explain(view, legal, rng):
        seen.append((view, legal))
        return bot.explain(view, legal, rng)

    # The hint's bot records what it is handed; the bot seat plays on with the bot's own act.
    monkeypatch.setitem(engine.GAMES["holmes"].BOTS, "smart", Bot(bot.act, bot.speak, explain))
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    await host.start()
    try:
        table_id = host.create_table("holmes", 2, HOLMES_FIRST_SEAT, bots=1,
                                     start_when_full=True)
        ann = await connect(host, "Ann", table=table_id)
        for _ in range(3):  # three of Ann's decisions, each after her move
            await my_turn(ann)
            game = host.tables[table_id].game
            await ann.send(AskHint())
            hint = await next_of(ann, Hint)
            view, legal = game.view(ann.seat), game.legal_actions(ann.seat)
            assert seen[-1] == (view, legal)  # the seat's own view, never the game
            assert hint.action == bot(view, legal, random.Random(5))
            assert hint.action in legal
            assert hint.reason and "\n" not in hint.reason
            await ann.act(hint.action)
        await ann.close()
    finally:
        await host.stop()


async def test_everyone_at_the_table_is_told_that_a_hint_was_asked(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    await host.start()
    try:
        table_id = host.create_table("holmes", 2, HOLMES_FIRST_SEAT, bots=1,
                                     start_when_full=True)
        ann = await connect(host, "Ann", table=table_id)
        fan = await connect(host, "Fan", table=table_id, spectate=True)
        await my_turn(ann)
        assert host.tables[table_id].lobby().hints  # a game against a bot
        await ann.send(AskHint())
        await next_of(ann, Hint)
        told = await lobby_with(fan, hints_asked=[1, 0])
        assert told.hints
        await ann.close()
        await fan.close()
    finally:
        await host.stop()


async def test_a_table_of_people_offers_hints_only_when_its_host_allowed_them(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    await host.start()
    try:
        for allowed in (False, True):
            table_id = host.create_table("holmes", 2, HOLMES_FIRST_SEAT, hints=allowed)
            ann = await connect(host, "Ann", table=table_id)
            bob = await connect(host, "Bob", table=table_id)
            await ann.send(Start())
            await my_turn(ann)
            assert (await lobby_with(bob, phase="playing")).hints is allowed
            await ann.send(AskHint())
            if allowed:
                assert (await next_of(ann, Hint)).action in host.tables[table_id].game.\
                    legal_actions(0)
                await lobby_with(bob, hints_asked=[1, 0])
            else:
                refusal = await next_of(ann, Error)
                assert not refusal.fatal and "did not allow hints" in refusal.message
            await ann.close()
            await bob.close()
    finally:
        await host.stop()


async def test_a_hint_is_for_a_move_of_ones_own(tmp_path):
    """Asked while the game waits for someone else: refused in words, and nobody is told."""
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=60))
    await host.start()
    try:
        table_id = host.create_table("timebomb", 4, {"first_player": 1}, bots=3,
                                     start_when_full=True)
        ann = await connect(host, "Ann", table=table_id)
        assert ann.seat == 0
        await next_of(ann, State)
        await ann.send(AskHint())
        refusal = await next_of(ann, Error)
        assert not refusal.fatal and "not waiting for yours" in refusal.message
        assert host.tables[table_id].hints_asked == [0, 0, 0, 0]
        await ann.close()
    finally:
        await host.stop()


async def test_hints_are_rate_limited(tmp_path):
    host = Host(data_dir=tmp_path / "data",
                limits=HostLimits(bot_delay=0.002, hint_burst=2, hint_per_second=0.01))
    await host.start()
    try:
        table_id = host.create_table("holmes", 2, HOLMES_FIRST_SEAT, bots=1,
                                     start_when_full=True)
        ann = await connect(host, "Ann", table=table_id)
        await my_turn(ann)
        for _ in range(3):
            await ann.send(AskHint())
        await next_of(ann, Hint)
        await next_of(ann, Hint)
        refusal = await next_of(ann, Error)
        assert not refusal.fatal and "too many hints" in refusal.message
        assert host.tables[table_id].hints_asked == [2, 0]
        await ann.close()
    finally:
        await host.stop()


async def test_a_tables_hints_survive_resume(tmp_path):
    data = tmp_path / "data"
    host = Host(data_dir=data)
    await host.start()
    table_id = host.create_table("timebomb", 5, {}, name="Baker Street", hints=True)
    await host.stop()
    assert stored_table(data, table_id).hints
    assert host.tables[table_id].summary()["hints"]

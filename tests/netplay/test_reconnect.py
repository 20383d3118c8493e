"""Seats belong to token holders: a reconnect with the token restores the seat and the full
view; a wrong or guessed token is refused and rate-limited; a name is never enough."""

from __future__ import annotations

import asyncio
import logging

import pytest

import engine
from netplay.client import Connection, HostRefused, Status
from netplay.seating import TOKEN_FAILURES
from netplay.protocol import Error, Leave, State, Welcome

from .conftest import TIMEOUT, assert_view_of, bots_have_claimed, next_of, play


def moves(game) -> list[tuple[int, dict]]:
    """The history's moves, without the claims bots make by themselves."""
    return [(seat, action) for seat, action in game.history if action["type"] != "claim"]


async def wait_for_history(host, table_id, length):
    """Until `length` moves (claims aside) have been made."""
    while True:
        game = host.tables[table_id].game
        if game is not None and len(moves(game)) >= length:
            return
        await asyncio.sleep(0.005)


def seed_where_the_first_cut_is_safe(target: int) -> int:
    """A seed whose first cut, seat 0 on `target`, does not end the game."""
    for seed in range(100):
        game = engine.new_game("timebomb", 5, {"first_player": 0}, seed)
        game.apply(0, {"type": "cut", "target": target})
        if game.outcome is None:
            return seed
    raise AssertionError("every seed ends at the first cut")


async def test_dropped_client_reconnects_with_its_token_and_the_game_goes_on(host):
    table_id = host.create_table("timebomb", 5, {"first_player": 0}, bots=3,
                                 seed=seed_where_the_first_cut_is_safe(1), start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    bob = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Bob", table=table_id)
    seat, token = bob.seat, bob.token
    # Ann cuts Bob's wire, so the game is under way and waits for Bob when his link dies.
    await next_of(ann, State)
    await ann.act({"type": "cut", "target": seat})
    await asyncio.wait_for(wait_for_history(host, table_id, 1), TIMEOUT)
    bob._writer.transport.abort()

    await next_of(bob, Status, status="reconnecting")
    await next_of(bob, Status, status="connected")
    welcome = await next_of(bob, Welcome)
    assert (welcome.seat, welcome.token) == (seat, token)
    assert (bob.seat, bob.token, bob.status) == (seat, token, "connected")
    # The first state after the reconnect is the full current view, and Bob is to act.
    state = await next_of(bob, State)
    assert_view_of(state.view, host.tables[table_id].game.view(seat))
    assert state.view["to_act"] == [seat] and state.legal
    await bob.act({"type": "cut", "target": 0})
    finals = await asyncio.wait_for(asyncio.gather(play(ann, 1), play(bob, 2)), TIMEOUT)
    assert all(f["outcome"] is not None for f in finals)
    assert moves(host.tables[table_id].game)[1][0] == seat
    await ann.close()
    await bob.close()


async def test_reconnect_by_token_on_a_new_connection_takes_the_seat_back(host):
    # Seat 0 cuts first, so the game waits for it and, once the bots have claimed, its view
    # holds still.
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=3, start_when_full=True)
    port = host.address[1]
    first = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                     name="Ann", table=table_id,
                                     reconnect=False)
    await bots_have_claimed(host, table_id)
    again = await Connection.connect("127.0.0.1", port, code=host.table_code, name="Someone else",
                                     token=first.token, reconnect=False)
    assert again.seat == first.seat and again.table == table_id
    # The old connection is told and closed; the seat now answers to the new one.
    messages = [m async for m in first]
    assert isinstance(messages[-1], Error) and "taken over" in messages[-1].message
    state = await next_of(again, State)
    assert_view_of(state.view, host.tables[table_id].game.view(again.seat))
    await again.close()


async def test_wrong_token_is_refused_and_a_name_is_never_enough(host):
    table_id = host.create_table("timebomb", 4, bots=3, start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    with pytest.raises(HostRefused, match="belongs to no seat"):
        await Connection.connect("127.0.0.1", port, code=host.table_code,
                                 name="Ann", token="not-a-token")
    # Same name, no token: the game has started, so no seat is handed out.
    with pytest.raises(HostRefused, match="has started"):
        await Connection.connect("127.0.0.1", port, code=host.table_code,
                                 name="Ann", table=table_id)
    assert host.tables[table_id].seats[ann.seat].client is not None
    await ann.close()


async def test_same_name_before_the_game_gets_another_seat_not_the_named_one(host):
    table_id = host.create_table("timebomb", 5, bots=2, start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    impostor = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                        name="Ann", table=table_id)
    assert impostor.seat != ann.seat and impostor.token != ann.token
    await ann.close()
    await impostor.close()


async def test_guessed_tokens_are_rate_limited_and_logged_without_the_token(host, caplog):
    table_id = host.create_table("timebomb", 4, bots=3, start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    caplog.set_level(logging.INFO, logger="gaslight")
    guesses = [f"guess-{i:04d}-xyz" for i in range(TOKEN_FAILURES)]
    for guess in guesses:
        with pytest.raises(HostRefused, match="belongs to no seat"):
            await Connection.connect("127.0.0.1", port, code=host.table_code,
                                     name="Moriarty", token=guess)
    # Past the limit even the right token is turned away for a while.
    with pytest.raises(HostRefused, match="too many wrong seat tokens"):
        await Connection.connect("127.0.0.1", port, code=host.table_code,
                                 name="Moriarty", token=ann.token)
    assert "unknown seat token from 127.0.0.1" in caplog.text
    for secret in (*guesses, ann.token):
        assert secret not in caplog.text
    await ann.close()


async def test_leaving_before_the_game_frees_the_seat_and_voids_the_token(host):
    table_id = host.create_table("timebomb", 5, bots=2, start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    token = ann.token
    await ann.send(Leave())
    welcome = await next_of(ann, Welcome, table=None)
    assert welcome.seat is None and ann.token is None
    assert host.tables[table_id].seats[0].kind == "empty"
    with pytest.raises(HostRefused):
        await Connection.connect("127.0.0.1", port, code=host.table_code, name="Ann", token=token)
    await ann.close()
    assert engine.GAMES  # the engine registry is untouched by the host

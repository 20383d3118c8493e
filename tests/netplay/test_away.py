"""A table never stalls on someone away (issue 42, PROTOCOL.md "The host's powers" and "Covered
seats"): while the table's host is away, the next person holds the host's powers (starting,
letting a bot cover); once the game has waited a while for an away player, anyone at the table
may let a bot cover them; a new game starts with a bot covering everyone away. Over a real
host on 127.0.0.1."""

from __future__ import annotations

import asyncio

from support.hosts import connect

from netplay import tables as tables_module
from netplay.game_record import table_games
from netplay.protocol import AddBot, Error, Lobby, PlayAgain, Start

from .conftest import TIMEOUT, next_of, play


async def lobby_where(conn, test) -> Lobby:
    """The first lobby `conn` hears that passes `test`."""
    async with asyncio.timeout(TIMEOUT):
        while not test(lobby := await next_of(conn, Lobby)):
            pass
    return lobby


async def refused(conn, request, words: str) -> None:
    await conn.send(request)
    message = (await next_of(conn, Error)).message
    assert words in message, message


async def test_the_away_host_is_covered_by_the_next_person(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=1)
    ann = await connect(host, "Ann", table=table_id, reconnect=False)
    bob = await connect(host, "Bob", table=table_id)
    cat = await connect(host, "Cat", table=table_id)
    lobby = await lobby_where(bob, lambda lobby: lobby.seats[2]["kind"] == "human")
    assert (lobby.host_seat, lobby.acting_host, lobby.may_cover) == (0, 0, [])
    await ann.send(Start())
    await lobby_where(bob, lambda lobby: lobby.phase == "playing")
    token = ann.token
    await ann.close()  # Ann, the table's host, cuts first: the game waits for her

    lobby = await lobby_where(bob, lambda lobby: not lobby.seats[0]["connected"])
    # Bob would take over: he holds the host's powers while she is away, and Cat does not.
    assert (lobby.host_seat, lobby.acting_host, lobby.may_cover) == (0, 1, [1])
    await refused(cat, AddBot(table=table_id, seat=0), "only the player who hosts")
    await bob.send(AddBot(table=table_id, seat=0))
    lobby = await lobby_where(cat, lambda lobby: lobby.seats[0]["covered"])
    assert lobby.may_cover == []  # nobody is away uncovered
    game = host.tables[table_id].game
    async with asyncio.timeout(TIMEOUT):
        while not any(seat == 0 for seat, _ in game.history):
            await asyncio.sleep(0.005)  # the bot cuts for her: the table goes on
    # Back with her token, Ann holds her seat and her powers again.
    ann = await connect(host, "Ann", token=token)
    lobby = await lobby_where(ann, lambda lobby: lobby.seats[0]["connected"])
    assert (lobby.acting_host, lobby.seats[0]["covered"]) == (0, False)
    for conn in (ann, bob, cat):
        await conn.close()


async def test_after_a_pause_anyone_at_the_table_may_cover(host, monkeypatch):
    monkeypatch.setattr(tables_module, "COVER_PAUSE", 0.5)
    table_id = host.create_table("timebomb", 4, {"first_player": 1}, bots=1)
    ann = await connect(host, "Ann", table=table_id)
    bob = await connect(host, "Bob", table=table_id, reconnect=False)
    cat = await connect(host, "Cat", table=table_id)
    await lobby_where(cat, lambda lobby: lobby.seats[2]["kind"] == "human")
    await ann.send(Start())
    await lobby_where(cat, lambda lobby: lobby.phase == "playing")
    await bob.close()  # Bob cuts first: the game waits for him

    lobby = await lobby_where(cat, lambda lobby: not lobby.seats[1]["connected"])
    assert lobby.may_cover == [0]  # the table's host, at once
    await refused(cat, AddBot(table=table_id, seat=1), "then anyone at the table may")
    # The pause ends: the host tells the table, and Cat may cover Bob herself.
    lobby = await lobby_where(cat, lambda lobby: 2 in lobby.may_cover)
    assert lobby.may_cover == [0, 2]
    await cat.send(AddBot(table=table_id, seat=1))
    await lobby_where(cat, lambda lobby: lobby.seats[1]["covered"])
    for conn in (ann, cat):
        await conn.close()


async def test_the_host_away_before_the_start_leaves_the_start_to_the_next_person(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=1)
    ann = await connect(host, "Ann", table=table_id, reconnect=False)
    bob = await connect(host, "Bob", table=table_id)
    cat = await connect(host, "Cat", table=table_id)
    await lobby_where(bob, lambda lobby: lobby.seats[2]["kind"] == "human")
    await ann.close()  # gone before the start, not having left: her seat stays hers
    lobby = await lobby_where(bob, lambda lobby: not lobby.seats[0]["connected"])
    assert lobby.acting_host == 1
    await refused(cat, Start(), "only the player who hosts")
    await bob.send(Start())
    # The game begins with a bot in Ann's seat: its first turn is hers.
    lobby = await lobby_where(bob, lambda lobby: lobby.phase == "playing")
    assert lobby.seats[0]["covered"] and lobby.seats[0]["kind"] == "human"
    for conn in (bob, cat):
        await conn.close()


async def test_another_game_never_hands_the_first_turn_to_someone_away(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 2}, bots=1)
    ann = await connect(host, "Ann", table=table_id)
    bob = await connect(host, "Bob", table=table_id)
    cat = await connect(host, "Cat", table=table_id, reconnect=False)
    await lobby_where(ann, lambda lobby: lobby.seats[2]["kind"] == "human")
    await ann.send(Start())
    await asyncio.wait_for(asyncio.gather(play(ann, 1), play(bob, 2), play(cat, 3)), TIMEOUT)
    await cat.close()  # Cat goes back to the lobby at the end
    await lobby_where(ann, lambda lobby: not lobby.seats[2]["connected"])
    await ann.send(PlayAgain())
    await bob.send(PlayAgain())
    # Cat cuts first in the next game too: a bot covers her from its first step.
    lobby = await lobby_where(ann, lambda lobby: lobby.phase == "playing")
    assert lobby.seats[2]["covered"]
    game = host.tables[table_id].game
    async with asyncio.timeout(TIMEOUT):
        while not game.history:
            await asyncio.sleep(0.005)
    assert game.history[0][0] == 2  # played by the bot in her seat
    await host.store.flush()
    _, second = table_games(host.store.records(table_id))
    assert [(c.seat, c.start, c.by) for c in second.covers] == [(2, 0, "host")]
    for conn in (ann, bob):
        await conn.close()


async def test_a_tables_listing_and_announcement_name_who_hosts_it(host):
    """The person whose table it is is named where the table is listed, so the code prompt can
    say whose table asks (issue 42); before anyone sits, nobody is."""
    from netplay.announcement import txt_record
    from tui.address import Address
    from tui.listing import TableListing

    table_id = host.create_table("timebomb", 4, name="Baker Street", bots=2)
    assert host.tables[table_id].summary()["by"] == ""
    ann = await connect(host, "Ann", table=table_id)
    await lobby_where(ann, lambda lobby: lobby.host_seat == 0)
    summary = host.tables[table_id].summary()
    assert summary["by"] == "Ann"
    assert txt_record(summary, "ab" * 32)["by"] == "Ann"
    listing = TableListing.from_message(Address("127.0.0.1", 1), summary, "lan")
    assert (listing.name, listing.by) == ("Baker Street", "Ann")

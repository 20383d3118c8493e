"""The lobby over the wire: tables, seats, bots, start, presence, chat and play again."""

from __future__ import annotations

from support.hosts import connect

import asyncio

import pytest

from netplay.client import Status
from netplay.protocol import (
    MAX_CHAT,
    AddBot,
    Chat,
    ChatLine,
    CreateTable,
    Error,
    ListTables,
    Lobby,
    PlayAgain,
    Sit,
    Start,
    State,
    TableList,
    Welcome,
)

from .conftest import TIMEOUT, next_of, play


async def test_create_sit_add_bot_start_and_play_again(host):
    holmes = await connect(host, "Holmes")
    assert (await next_of(holmes, Welcome)).table is None
    assert (await next_of(holmes, TableList)).tables == []
    await holmes.send(CreateTable(game="timebomb", players=5, options={"first_player": 0}, name="Baker St", bots=1))
    welcome = await next_of(holmes, Welcome)
    assert welcome.seat == 0 and len(welcome.token) >= 32
    table_id = welcome.table
    lobby = await next_of(holmes, Lobby)
    assert lobby.host_seat == 0 and lobby.phase == "waiting"
    assert [s["kind"] for s in lobby.seats] == ["human", "empty", "empty", "empty", "bot"]

    watson = await connect(host, "Watson")
    await watson.send(ListTables())
    await next_of(watson, TableList)  # the one sent on welcome
    listed = (await next_of(watson, TableList)).tables
    assert listed == [{"id": table_id, "name": "Baker St", "by": "Holmes", "game": "timebomb",
                       "players": 5,
                       "seats_taken": 2, "seats_free": 3, "people": 1, "bots": 1,
                       "phase": "waiting", "private": False,
                       "options": {"first_player": 0, "claims": True}, "bot_level": "smart",
                       "bot_pace": "normal", "turn_timer": 0, "hints": False}]
    await watson.send(Sit(table=table_id, seat=0))
    assert "seat 0" in (await next_of(watson, Error)).message
    await watson.send(Sit(table=table_id, seat=2))
    assert (await next_of(watson, Welcome)).seat == 2

    for request, words in [(Start(), "only the player who hosts"),
                           (AddBot(table_id), "only the player who hosts"),
                           (PlayAgain(), "not over")]:
        await watson.send(request)
        assert words in (await next_of(watson, Error)).message

    await holmes.send(AddBot(table=table_id, seat=1))
    while True:
        lobby = await next_of(holmes, Lobby)
        if lobby.seats[1]["kind"] == "bot":
            break
    await holmes.send(Start())
    while (lobby := await next_of(holmes, Lobby)).phase != "playing":
        pass
    assert [s["kind"] for s in lobby.seats] == ["human", "bot", "human", "bot", "bot"]
    assert [s["name"] for s in lobby.seats][:3] == ["Holmes", "Bot 2", "Watson"]

    await asyncio.wait_for(asyncio.gather(play(holmes, 1), play(watson, 2)), TIMEOUT)
    first_game = host.tables[table_id].game
    # Play again is a vote of the people at the table: Watson's ask alone starts nothing.
    await watson.send(PlayAgain())
    while (lobby := await next_of(holmes, Lobby)).play_again != [2]:
        pass
    assert lobby.phase == "over" and host.tables[table_id].game is first_game
    await watson.send(PlayAgain())  # asking twice changes nothing
    await holmes.send(PlayAgain())
    while (lobby := await next_of(holmes, Lobby)).phase != "playing":
        pass
    assert lobby.play_again == []
    assert [s["kind"] for s in lobby.seats] == ["human", "bot", "human", "bot", "bot"]
    second_game = host.tables[table_id].game
    assert second_game is not first_game and (holmes.seat, watson.seat) == (0, 2)
    await asyncio.wait_for(asyncio.gather(play(holmes, 3), play(watson, 4)), TIMEOUT)
    await holmes.close()
    await watson.close()


async def test_bad_table_setup_is_a_clear_error_and_creates_nothing(host):
    holmes = await connect(host, "Holmes")
    await holmes.send(CreateTable(game="timebomb", players=12))
    assert "4-8 players" in (await next_of(holmes, Error)).message
    await holmes.send(CreateTable(game="chess", players=2))
    assert "no game 'chess'" in (await next_of(holmes, Error)).message
    for bots in (9, 5):
        await holmes.send(CreateTable(game="timebomb", players=5, bots=bots))
        assert "at most 4 bots" in (await next_of(holmes, Error)).message
    await holmes.send(CreateTable(game="timebomb", players=5, bots=-1))
    assert "bots must be between 0 and 5" in (await next_of(holmes, Error)).message
    await holmes.send(CreateTable(game="timebomb", players=5, bot_level="genius"))
    assert "no bot level 'genius'" in (await next_of(holmes, Error)).message
    await holmes.send(CreateTable(game="timebomb", players=5, turn_timer=7))
    assert "turn timer is one of" in (await next_of(holmes, Error)).message
    await holmes.send(Sit(table="nosuchid"))
    assert "no table 'nosuchid'" in (await next_of(holmes, Error)).message
    assert host.tables == {}
    await holmes.close()


async def test_presence_shows_who_is_away(host):
    table_id = host.create_table("timebomb", 4, bots=2, start_when_full=True)
    ann = await connect(host, "Ann", table=table_id)
    bob = await connect(host, "Bob", table=table_id, reconnect=False)
    await bob.close()
    while True:
        lobby = await next_of(ann, Lobby)
        if not lobby.seats[1]["connected"]:
            break
    assert lobby.seats[0]["connected"] and lobby.seats[2] == {
        "seat": 2, "name": "Bot 3", "kind": "bot", "connected": True, "covered": False}
    await ann.close()


async def test_chat_channels_limits_and_control_sequences(host):
    # Seat 0 cuts first and no one does, so nothing but chat moves.
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, start_when_full=True)
    ann = await connect(host, "Ann", table=table_id)
    bob = await connect(host, "Bob", table=table_id)
    fan = await connect(host, "Fan", table=table_id, spectate=True)
    lurker = await connect(host, "Lurker")

    await fan.send(Chat(text="Ann is Moriarty, surely"))
    got = await next_of(fan, ChatLine)
    assert got == ChatLine("spectators", "Ann is Moriarty, surely", seat=None, sender="Fan")
    await ann.send(Chat(text="\x1b[2J\x1b]0;owned\x07I cut \x1b[31mBob\x1b[0m"))
    for conn in (ann, bob, fan):
        got = await next_of(conn, ChatLine)
        assert (got.channel, got.text, got.sender, got.seat) == (
            "table", "I cut Bob", "Ann", 0)
    # Bob's first chat is Ann's: the spectators' channel never reached him.
    bob_log = []
    await bob.send(Chat(text="fine"))
    while not isinstance(m := await bob.next_message(5), ChatLine) or m.text != "fine":
        bob_log.append(m)
    assert not any(isinstance(m, ChatLine) and m.channel == "spectators" for m in bob_log)

    await ann.send(Chat(text="x" * (MAX_CHAT + 1)))
    assert f"the limit is {MAX_CHAT}" in (await next_of(ann, Error)).message
    await ann.send(Chat(text="\x1b[0m \x07"))
    assert "empty" in (await next_of(ann, Error)).message
    await lurker.send(Chat(text="hello?"))
    assert "sit at or watch a table" in (await next_of(lurker, Error)).message
    for conn in (ann, bob, fan, lurker):
        await conn.close()


async def test_owner_may_cover_an_away_players_seat_with_a_bot_who_gives_it_back(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 1}, bots=2, start_when_full=True)
    ann = await connect(host, "Ann", table=table_id)
    bob = await connect(host, "Bob", table=table_id, reconnect=False)
    await ann.send(AddBot(table=table_id, seat=1))
    assert "no seat for a bot" in (await next_of(ann, Error)).message  # Bob is here
    token = bob.token
    await bob.close()  # seat 1 cuts first: the game waits for Bob
    while (await next_of(ann, Lobby)).seats[1]["connected"]:
        pass
    await assert_only_the_table_host_may_cover(host, table_id)
    await ann.send(AddBot(table=table_id, seat=1))
    while not (lobby := await next_of(ann, Lobby)).seats[1]["covered"]:
        pass
    assert lobby.seats[1]["kind"] == "human" and lobby.seats[1]["name"] == "Bob"
    # The bot plays Bob's seat...
    game = host.tables[table_id].game
    while not any(seat == 1 for seat, _ in game.history):
        await asyncio.sleep(0.005)
    # ...until Bob comes back with his token: the seat is his again. Ann comes back too, on a
    # fresh connection, so that both follow the game from now (it may even be over).
    bob = await connect(host, "Bob", token=token)
    assert bob.seat == 1 and not host.tables[table_id].seats[1].covered
    ann = await connect(host, "Ann", token=ann.token)
    finals = await asyncio.wait_for(asyncio.gather(play(ann, 5), play(bob, 6)), TIMEOUT)
    assert all(f["outcome"] is not None for f in finals)
    await ann.close()
    await bob.close()


async def assert_only_the_table_host_may_cover(host, table_id):
    """Nobody but the table's host may cover a seat."""
    fan = await connect(host, "Fan", table=table_id, spectate=True)
    await fan.send(AddBot(table=table_id, seat=1))
    assert "only the player who hosts" in (await next_of(fan, Error)).message
    await fan.close()


async def test_spectator_reconnects_to_its_table(host):
    table_id = host.create_table("timebomb", 4, bots=4, start_when_full=True)
    fan = await connect(host, "Fan", table=table_id, spectate=True)
    await next_of(fan, State)
    fan._writer.transport.abort()
    await next_of(fan, Status, status="reconnecting")
    await next_of(fan, Status, status="connected")
    welcome = await next_of(fan, Welcome)
    assert (welcome.table, welcome.spectator, welcome.token) == (table_id, True, None)
    assert (await next_of(fan, State)).seat is None
    await fan.close()


async def test_lobby_visitors_see_tables_appear_and_fill(host):
    visitor = await connect(host, "Visitor")
    assert (await next_of(visitor, TableList)).tables == []
    table_id = host.create_table("timebomb", 4, name="Pushed", bots=2, start_when_full=True)
    listed = (await next_of(visitor, TableList)).tables
    assert [(t["id"], t["seats_taken"]) for t in listed] == [(table_id, 2)]
    ann = await connect(host, "Ann", table=table_id)
    listed = (await next_of(visitor, TableList)).tables
    assert [(t["id"], t["seats_taken"], t["phase"]) for t in listed] == [(table_id, 3, "waiting")]
    await ann.close()
    await visitor.close()


async def test_finished_abandoned_tables_make_room_for_new_ones(host):
    host.tables.max_tables = 2
    finished = host.create_table("timebomb", 4, bots=4, start_when_full=True)
    busy = host.create_table("timebomb", 4, bots=2, start_when_full=True)
    ann = await connect(host, "Ann", table=busy)

    async def over():
        while host.tables[finished].phase != "over":
            await asyncio.sleep(0.005)

    await asyncio.wait_for(over(), TIMEOUT)
    fresh = host.create_table("timebomb", 4, start_when_full=True)
    assert set(host.tables) == {busy, fresh}
    await host.store.flush()
    # The finished game stays in the store, set aside from --resume.
    assert host.store.tables(None)[finished] == "over"
    assert finished not in host.store.tables()
    with pytest.raises(ValueError, match="the limit is 2"):
        host.create_table("timebomb", 4, start_when_full=True)
    await ann.close()

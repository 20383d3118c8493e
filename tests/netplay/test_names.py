"""Names told apart by the host (PROTOCOL.md, "Names"): two people with one name at a table
go by "Alice" and "Alice (2)" in the lobby and in chat, so every screen agrees."""

from __future__ import annotations

from support.hosts import connect

from netplay.protocol import MAX_NAME, Chat, ChatLine, Lobby

from .conftest import next_of


async def seated_names(conn) -> list[str]:
    lobby = await next_of(conn, Lobby)
    return [s["name"] for s in lobby.seats if s["kind"] == "human"]


async def test_people_with_one_name_are_told_apart_in_the_lobby_and_in_chat(host):
    table_id = host.create_table("timebomb", 5, {"first_player": 0}, start_when_full=True)
    first = await connect(host, "Alice", table=table_id)
    second = await connect(host, "Alice", table=table_id)
    third = await connect(host, "ALICE", table=table_id)
    while (names := await seated_names(third)) != ["Alice", "Alice (2)", "ALICE (3)"]:
        assert len(names) < 3, names
    await second.send(Chat(text="it was me"))
    line = await next_of(first, ChatLine)
    assert (line.sender, line.seat) == ("Alice (2)", 1)
    for conn in (first, second, third):
        await conn.close()


async def test_a_seat_keeps_its_name_when_its_token_comes_back_under_another(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, start_when_full=True)
    first = await connect(host, "Alice", table=table_id)
    second = await connect(host, "Alice", table=table_id)
    token = second.token
    await second.close()
    back = await connect(host, "Mallory", token=token)
    await back.send(Chat(text="still me"))
    line = await next_of(first, ChatLine)
    assert line.sender == "Alice (2)"
    for conn in (first, back):
        await conn.close()


async def test_a_told_apart_name_stays_within_the_name_limit(host):
    long = "M" * MAX_NAME
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, start_when_full=True)
    first = await connect(host, long, table=table_id)
    second = await connect(host, long, table=table_id)
    while len(names := await seated_names(second)) < 2:
        pass
    assert names == [long, "M" * (MAX_NAME - 4) + " (2)"]
    for conn in (first, second):
        await conn.close()

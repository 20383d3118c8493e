"""Limits a modified client cannot push past: the tables it may open, and what an idle one
costs."""

from __future__ import annotations

import asyncio

from netplay.host import Host
from netplay.tables import MAX_TABLES

from .conftest import RawPeer, frame, play_to_the_end, seated_table, watch_to_the_end


async def open_and_abandon(port: int, bots: int) -> dict:
    peer = await RawPeer.join(port, "Opener")
    await peer.send({"t": "create_table", "game": "timebomb", "players": 4, "bots": bots})
    reply = await peer.receive_until("welcome", "error")
    peer.close()
    return reply


async def test_a_client_cannot_fill_the_host_with_tables(tmp_path):
    host = Host(data_dir=tmp_path / "data", bot_delay=10)
    await host.start()
    try:
        port = host.address[1]
        # Waiting tables, and tables whose game starts at once (3 bots and the opener).
        opened = [await open_and_abandon(port, bots=3 * (i % 2)) for i in range(MAX_TABLES + 8)]
        assert all(reply["t"] == "welcome" for reply in opened[:MAX_TABLES])
        refused = opened[MAX_TABLES:]
        assert all(r["t"] == "error" and r["fatal"] is False and
                   f"the limit is {MAX_TABLES}" in r["message"] for r in refused)
        # Memory and file descriptors stay bounded: one journal per table, no more.
        assert len(host.tables) == MAX_TABLES
        assert len(list((tmp_path / "data" / "tables").glob("*.journal"))) == MAX_TABLES
        # The host still answers, and a seat at a waiting table is still there to take.
        late = await RawPeer.join(port, "Late", source="127.0.2.1")
        await late.send({"t": "sit", "table": opened[0]["table"]})
        assert (await late.receive_until("welcome"))["seat"] == 1
    finally:
        await host.stop()


async def test_a_flooding_player_cannot_get_the_others_dropped(host):
    table_id, (ann, bob, mallory) = await seated_table(host, humans=3, players=5)
    fan = await RawPeer.join(host.address[1], "Fan", table=table_id, spectate=True)
    flood = b"".join(frame({"t": "chat", "text": f"spam {i} " + "x" * 400}) for i in range(300))
    flood += b"".join(frame({"t": "act", "action": {"type": "cut", "target": 9}})
                      for _ in range(2000))
    # Claims are legal at any time, and each one is news for everyone at the table.
    flood += b"".join(frame({"t": "act", "action": {"type": "claim", "defusing": i % 2,
                                                    "bomb": 0}}) for i in range(300))
    # The honest clients read as they play; the first claim's state sets Ann cutting.
    playing = asyncio.gather(play_to_the_end(ann, 1, stale_ok=True),
                             play_to_the_end(bob, 2, stale_ok=True), watch_to_the_end(fan))
    await mallory.send_bytes(flood)  # and never reads a byte of what comes back
    seats = host.tables[table_id].seats
    game = host.tables[table_id].game

    def claims() -> int:
        return sum(1 for seat, action in game.history if action["type"] == "claim")

    while seats[2].client is not None and claims() < 300:
        await asyncio.sleep(0.01)
    mallory.close()
    while seats[2].client is not None:
        await asyncio.sleep(0.01)
    await ann.send({"t": "add_bot", "table": table_id, "seat": 2})  # her seat plays on
    finals = await asyncio.wait_for(playing, 30)
    assert finals[0] == game.view(0) and finals[1] == game.view(1) and game.outcome
    # The honest players and the spectator were never dropped.
    assert seats[0].client is not None and seats[1].client is not None
    assert len(host.tables[table_id].spectators) == 1

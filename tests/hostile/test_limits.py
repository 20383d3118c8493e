"""Limits a modified client cannot push past: the tables it may open, and what an idle one
costs."""

from __future__ import annotations

import asyncio

from netplay.host import Host
from netplay.limits import HostLimits

from .conftest import (
    RawPeer,
    frame,
    play_to_the_end,
    seated_table,
    sent_view,
    watch_to_the_end,
)

PER_ADDRESS = HostLimits().max_tables_per_address


async def open_table(port: int, bots: int, leave: bool, source: str = "127.0.0.1") -> dict:
    """Create a table that starts when full (with 3 bots, at once, as quick play does), then
    leave it (a request) or just hang up."""
    peer = await RawPeer.join(port, "Opener", source=source)
    await peer.send({"t": "create_table", "game": "timebomb", "players": 4, "bots": bots,
                     "start_when_full": True})
    reply = await peer.receive_until("welcome", "error")
    if leave and reply["t"] == "welcome":
        await peer.send({"t": "leave"})
        await peer.receive_until("welcome")
    peer.close()
    return reply


async def test_a_client_cannot_fill_the_host_with_tables(tmp_path):
    # Abandoned tables close after 3 s: long enough for all of them to be opened first (each
    # opening is a TLS handshake and an fsync, some 60 ms on a busy machine).
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(
        bot_delay=10, max_tables=12, abandoned_after=3.0, heartbeat_timeout=0.2))
    await host.start()
    try:
        port = host.address[1]
        # Create and leave or hang up, fast: a waiting table closes with its last person gone.
        for i in range(40):
            assert (await open_table(port, bots=2, leave=i % 2 == 0))["t"] == "welcome"
        while host.tables:
            await asyncio.sleep(0.01)
        # Create and hang up with the game started (3 bots and the opener): one address may
        # hold only so many tables open.
        opened = [await open_table(port, bots=3, leave=False)
                  for i in range(PER_ADDRESS + 3)]
        assert all(r["t"] == "welcome" for r in opened[:PER_ADDRESS])
        assert all(r["t"] == "error" and r["fatal"] is False
                   and f"{PER_ADDRESS} tables open here, the limit" in r["message"]
                   for r in opened[PER_ADDRESS:])
        assert len(host.tables) == PER_ADDRESS
        # Others still can, up to the host's own limit, which nothing then passes.
        for i in range(host.tables.max_tables - PER_ADDRESS):
            assert (await open_table(port, 3, False, f"127.0.3.{i + 1}"))["t"] == "welcome"
        full = await open_table(port, 3, False, "127.0.4.1")
        assert full["t"] == "error" and "the limit is 12" in full["message"]
        # Nobody comes back: the abandoned games close, and stay in the store for --resume;
        # the waiting tables were forgotten.
        while host.tables:
            await asyncio.sleep(0.1)
        await host.store.flush()
        stored = set(host.store.tables())
        assert stored >= {r["table"] for r in opened[:PER_ADDRESS]}
        assert len(stored) == host.tables.max_tables
        assert (await open_table(port, bots=2, leave=False))["t"] == "welcome"
    finally:
        await host.stop()


async def test_a_flooding_player_cannot_get_the_others_dropped(host):
    table_id, (ann, bob, mallory) = await seated_table(host, humans=3, players=5)
    fan = await RawPeer.join(host.address[1], "Fan", table=table_id, spectate=True)
    flood = b"".join(frame({"t": "chat", "text": f"spam {i} " + "x" * 400}) for i in range(300))
    flood += b"".join(frame({"t": "act", "action": {"type": "cut", "target": 9}})
                      for _ in range(2000))
    # Claims are legal at any time, and each one is news for everyone at the table: they are
    # rate-limited like chat.
    flood += b"".join(frame({"t": "act", "action": {"type": "claim", "defusing": i % 2,
                                                    "bomb": 0}}) for i in range(3000))
    flood += frame({"t": "ping"})
    # The honest clients read as they play; the first claim's state sets Ann cutting.
    playing = asyncio.gather(play_to_the_end(ann, 1, stale_ok=True),
                             play_to_the_end(bob, 2, stale_ok=True), watch_to_the_end(fan))
    await mallory.send_bytes(flood)  # and never reads a byte of what comes back
    seats = host.tables[table_id].seats
    game = host.tables[table_id].game

    def claims() -> int:
        return sum(1 for seat, action in game.history if action["type"] == "claim")

    # Mallory reads only now: every request of hers has been answered once her pong comes.
    refusals = 0
    while (reply := await mallory.receive(30))["t"] != "pong":
        refusals += reply["t"] == "error" and not reply["fatal"]
    assert claims() <= HostLimits().claim_burst + 5 and refusals > 5000
    mallory.close()
    while seats[2].client is not None:
        await asyncio.sleep(0.01)
    await ann.send({"t": "add_bot", "table": table_id, "seat": 2})  # her seat plays on
    finals = await asyncio.wait_for(playing, 30)
    assert finals[0] == sent_view(game, 0) and finals[1] == sent_view(game, 1) and game.outcome
    # The honest players and the spectator were never dropped.
    assert seats[0].client is not None and seats[1].client is not None
    assert len(host.tables[table_id].spectators) == 1

"""Limits a modified client cannot push past: the tables it may open, and what an idle one
costs."""

from __future__ import annotations

from netplay.host import Host

from .conftest import RawPeer


async def open_and_abandon(port: int, bots: int) -> dict:
    peer = await RawPeer.join(port, "Opener")
    await peer.send({"t": "create_table", "game": "timebomb", "players": 4, "bots": bots})
    reply = await peer.receive_until("welcome", "error")
    peer.close()
    return reply


async def test_a_client_cannot_fill_the_host_with_tables(tmp_path):
    host = Host(data_dir=tmp_path / "data", max_tables=5, bot_delay=10)
    await host.start()
    try:
        port = host.address[1]
        # Waiting tables, and tables whose game starts at once (3 bots and the opener).
        opened = [await open_and_abandon(port, bots=3 * (i % 2)) for i in range(40)]
        assert all(reply["t"] == "welcome" for reply in opened)
        # Each new table past the limit took the place of an idle one, journal and all.
        assert len(host.tables) == 5
        assert len(list((tmp_path / "data" / "tables").glob("*.journal"))) == 5
        thief = await RawPeer.open(port)
        await thief.send({"t": "hello", "name": "x", "token": opened[0]["token"]})
        assert "belongs to no seat" in (await thief.receive_until("error"))["message"]

        # Tables with someone connected are never dropped: past the limit, a refusal.
        present = []
        for i in range(5):
            peer = await RawPeer.join(port, f"Host{i}", source=f"127.0.1.{i + 1}")
            await peer.send({"t": "create_table", "game": "timebomb", "players": 4})
            assert (await peer.receive_until("welcome"))["seat"] == 0
            present.append(peer)
        late = await RawPeer.join(port, "Late", source="127.0.2.1")
        await late.send({"t": "create_table", "game": "timebomb", "players": 4})
        reply = await late.receive_until("error")
        assert reply["fatal"] is False and "5 tables, its limit" in reply["message"]
        assert {t.seats[0].name for t in host.tables.values()} == {f"Host{i}" for i in range(5)}
        # A seat at one of those tables is still there to take.
        await late.send({"t": "sit", "table": present[0].table})
        assert (await late.receive_until("welcome"))["seat"] == 1
    finally:
        await host.stop()

"""Malformed input from a modified client closes that connection only: the game in progress,
its players and its spectator carry on to the end, and the host keeps answering."""

from __future__ import annotations

import asyncio
import socket
import struct

import msgpack
import pytest

from netplay.host import Host
from netplay.limits import HostLimits
from netplay.frames import MAX_FRAME, MAX_NESTING
from netplay.frames import PROTOCOL_VERSION as VERSION

from .conftest import (
    RawPeer,
    frame,
    play_to_the_end,
    sent_view,
    seated_table,
    snapshot,
    watch_to_the_end,
)


def body(obj) -> bytes:
    """A frame around any msgpack object, with no "v" added."""
    return frame(msgpack.packb(obj, use_bin_type=True))


def nested(depth: int, leaf="x") -> object:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


HELLO = {"v": VERSION, "t": "hello", "name": "Mallory"}

# (id, payload, words in the fatal error; None when the host may close without a word)
FIRST_FRAMES = [
    ("garbage-msgpack", struct.pack(">I", 5) + b"\xc1" * 5, "malformed msgpack"),
    ("http-request", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "over the limit"),
    ("empty-frame", struct.pack(">I", 0), "empty frame"),
    ("trailing-bytes", frame(msgpack.packb(HELLO) + b"\x01"), "malformed msgpack"),
    ("not-a-map", body(["hello", "Mallory"]), "must hold a msgpack map"),
    ("length-over-limit", struct.pack(">I", MAX_FRAME + 1), "over the limit"),
    ("length-max", b"\xff\xff\xff\xff" + b"\x00" * 64, "over the limit"),
    ("nested-past-limit", body({**HELLO, "name": nested(MAX_NESTING + 4)}),
     f"the limit is {MAX_NESTING}"),
    ("nested-60000", frame(b"\x81\xa1x" + b"\x91" * 60000 + b"\x00"), "nests deeper"),
    ("huge-name", body({**HELLO, "name": "M" * 60000}), "the limit is 32"),
    ("huge-map", body({**HELLO, **{f"k{i}": i for i in range(5000)}}), "has no field"),
    ("huge-list-name", body({**HELLO, "name": list(range(15000))}), "must be a string"),
    ("int-key", body({**HELLO, 7: "x"}), "malformed msgpack"),
    ("nested-int-key", body({**HELLO, "table": {1: 2}}), "not allowed for map key"),
    ("bytes-key", body({**HELLO, b"name": "x"}), "is not a string"),
    ("ext-type", body({**HELLO, "name": msgpack.ExtType(5, b"ab")}), "unsupported msgpack"),
    ("timestamp", frame(b"\x83\xa1v\x01\xa1t\xa5hello\xa4name\xd6\xff\x00\x00\x00\x01"),
     "unsupported msgpack"),
    ("bin-name", body({**HELLO, "name": b"Mallory"}), "unsupported msgpack"),
    ("unknown-type", body({"v": VERSION, "t": "teleport"}), "unknown message type 'teleport'"),
    ("int-tag", body({"v": VERSION, "t": 3}), "no string tag"),
    ("name-wrong-type", body({**HELLO, "name": 7}), "must be a string"),
    ("spectate-int", body({**HELLO, "spectate": 1}), "must be true or false"),
    ("token-int", body({**HELLO, "token": 12345}), "must be a string"),
    ("version-1", body({**HELLO, "v": 1}), "protocol version 1 is not supported"),
    ("version-str", body({**HELLO, "v": "1"}), "protocol version '1' is not supported"),
    ("version-bool", body({**HELLO, "v": True}), "protocol version True is not supported"),
    ("version-float", body({**HELLO, "v": float(VERSION)}),
     f"protocol version {float(VERSION)} is not supported"),
    ("version-missing", body({"t": "hello", "name": "Mallory"}), "no protocol version"),
    ("no-hello-first", body({"v": VERSION, "t": "ping"}),
     "first message must be 'pair' or 'hello'"),
]

# Sent by a client that has joined (as a spectator of the running table).
LATER_FRAMES = [
    ("garbage", struct.pack(">I", 3) + b"\xc1\xc1\xc1", "malformed msgpack"),
    ("length-over-limit", struct.pack(">I", MAX_FRAME + 1), "over the limit"),
    ("act-nested", body({"v": VERSION, "t": "act", "action": nested(10, {"type": "cut"})}),
     "must be a map"),
    ("act-deep-map", body({"v": VERSION, "t": "act", "action": {"type": "cut", "target":
                                                          nested(MAX_NESTING)}}), "nests"),
    ("act-int-key", body({"v": VERSION, "t": "act", "action": {"type": "cut", 1: 1}}),
     "not allowed for map key"),
    ("act-list", body({"v": VERSION, "t": "act", "action": [1, 2]}), "must be a map"),
    ("sit-bool-seat", body({"v": VERSION, "t": "sit", "table": "x", "seat": True}),
     "must be a whole number"),
    ("create-float-players", body({"v": VERSION, "t": "create_table", "game": "timebomb",
                                   "players": 5.0}), "must be a whole number"),
    ("chat-bin", body({"v": VERSION, "t": "chat", "text": b"hi"}), "unsupported msgpack"),
    ("unknown-type", body({"v": VERSION, "t": "become_referee"}), "unknown message type"),
    ("second-hello", body(HELLO), "only for the first message"),
    ("version-0", body({"v": 0, "t": "ping"}), "protocol version 0"),
]


async def running_table(host: Host):
    """A table mid-game: two raw players (one move made) and a spectator; plus a client idling
    in the lobby."""
    table_id, players = await seated_table(host)
    await players[0].send({"t": "act", "action": {"type": "cut", "target": 1}})
    for peer in players:
        await peer.receive_until("state")
    fan = await RawPeer.join(host.address[1], "Fan", table=table_id, spectate=True)
    await fan.receive_until("state")
    idle = await RawPeer.join(host.address[1], "Idle")
    return table_id, players, fan, idle


async def assert_table_plays_on(host: Host, table_id: str, players, fan, idle) -> None:
    await idle.ping()
    # Bob holds the cutter after the first move; nudge him, then everyone plays to the end.
    game = host.tables[table_id].game
    nudge = players[1].send({"t": "act", "action": {"type": "cut", "target": 0}}) \
        if game.cutter == 1 else asyncio.sleep(0)
    await nudge
    finals = await asyncio.wait_for(asyncio.gather(
        play_to_the_end(players[0], 1), play_to_the_end(players[1], 2), watch_to_the_end(fan)),
        20)
    assert finals[2]["outcome"] is not None and game.outcome is not None
    assert finals[0] == sent_view(game, 0) and finals[1] == sent_view(game, 1)


async def expect_closed(peer: RawPeer, words: str | None) -> None:
    if words is not None:
        reply = await peer.receive_until("error")
        assert reply["fatal"] is True and words in reply["message"], reply["message"]
    assert await peer.closed_by_host()


@pytest.mark.parametrize("payload, words", [c[1:] for c in FIRST_FRAMES],
                         ids=[c[0] for c in FIRST_FRAMES])
async def test_a_bad_first_frame_closes_only_its_connection(host, payload, words):
    table_id, players, fan, idle = await running_table(host)
    before = snapshot(host, table_id)
    mallory = await RawPeer.open(host.address[1])
    await mallory.send_bytes(payload)
    await expect_closed(mallory, words)
    assert snapshot(host, table_id) == before
    await assert_table_plays_on(host, table_id, players, fan, idle)


@pytest.mark.parametrize("payload, words", [c[1:] for c in LATER_FRAMES],
                         ids=[c[0] for c in LATER_FRAMES])
async def test_a_bad_frame_from_a_joined_client_closes_only_it(host, payload, words):
    table_id, players, fan, idle = await running_table(host)
    mallory = await RawPeer.join(host.address[1], "Mallory", table=table_id, spectate=True)
    await mallory.receive_until("state")
    before = snapshot(host, table_id)
    await mallory.send_bytes(payload)
    await expect_closed(mallory, words)
    assert snapshot(host, table_id) == before
    assert len(host.tables[table_id].spectators) == 1
    await assert_table_plays_on(host, table_id, players, fan, idle)


@pytest.mark.parametrize("payload", [
    struct.pack(">I", 100) + b"\x83\xa1v\x01",  # the body stops short
    b"\x00\x00",  # the length itself stops short
], ids=["truncated-body", "truncated-length"])
async def test_a_truncated_frame_then_hangup_closes_only_its_connection(host, payload):
    table_id, players, fan, idle = await running_table(host)
    mallory = await RawPeer.join(host.address[1], "Mallory", table=table_id, spectate=True)
    await mallory.send_bytes(payload)
    # TLS has no half-close of its own: the TCP one under it.
    mallory.writer.get_extra_info("socket").shutdown(socket.SHUT_WR)
    await expect_closed(mallory, None)
    while host.tables[table_id].spectators != {c for c in host.tables[table_id].spectators
                                               if c.name == "Fan"}:
        await asyncio.sleep(0.005)
    await assert_table_plays_on(host, table_id, players, fan, idle)


async def test_a_seated_player_stalled_mid_frame_is_dropped_and_keeps_its_seat(tmp_path):
    host = Host(data_dir=tmp_path / "data",
                limits=HostLimits(bot_delay=0.002, heartbeat_timeout=0.4))
    await host.start()
    try:
        table_id, (ann, bob) = await seated_table(host)
        keepalive = asyncio.create_task(ping_forever(ann))
        # Bob's client sends half a frame and never the rest.
        await bob.send_bytes(struct.pack(">I", 40) + b"\x82\xa1")
        assert await bob.closed_by_host(timeout=5)
        seat = host.tables[table_id].seats[1]
        assert seat.kind == "human" and seat.client is None
        back = await RawPeer.join(host.address[1], "Bob", token=bob.token)
        assert back.seat == 1
        keepalive.cancel()
    finally:
        await host.stop()


async def ping_forever(peer: RawPeer) -> None:
    while True:
        await peer.send({"t": "ping"})
        await asyncio.sleep(0.05)


async def test_a_slow_drip_hello_still_times_out(tmp_path):
    """A client that sends its hello one byte at a time cannot hold the handshake open."""
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(handshake_timeout=0.3))
    await host.start()
    try:
        mallory = await RawPeer.open(host.address[1])
        started = asyncio.get_running_loop().time()

        async def drip():
            for byte in frame({"t": "hello", "name": "M" * 20}):
                mallory.writer.write(bytes([byte]))
                await asyncio.sleep(0.05)

        dripping = asyncio.create_task(drip())
        await expect_closed(mallory, "no hello within 0.3 seconds")
        assert asyncio.get_running_loop().time() - started < 2
        dripping.cancel()
        with pytest.raises((asyncio.CancelledError, ConnectionError)):
            await dripping
    finally:
        await host.stop()


async def test_many_connections_from_one_address_are_capped_and_released(host):
    table_id, players, fan, idle = await running_table(host)
    limit = host.limits.max_connections_per_address
    opened = len(host.connections)

    async def attempt():
        # Over the limit, the host closes the connection before its TLS handshake: costing it
        # no handshake's turn, it cannot keep anyone else's connection waiting.
        try:
            return await RawPeer.open(host.address[1])
        except (ConnectionError, OSError):
            return None

    attempts = await asyncio.gather(*(attempt() for _ in range(3 * limit)))
    flood = [peer for peer in attempts if peer is not None]
    assert len(flood) == limit - opened
    await assert_table_plays_on(host, table_id, players, fan, idle)
    for peer in flood:
        peer.close()
    while len(host.connections) > opened:
        await asyncio.sleep(0.01)
    # Another address is not affected, and the freed slots are usable again.
    other = await RawPeer.join(host.address[1], "Neighbour", source="127.0.0.3")
    again = await RawPeer.join(host.address[1], "Again")
    await other.ping()
    await again.ping()

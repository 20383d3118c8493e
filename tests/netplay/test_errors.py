"""Bad moves get an error frame and change nothing; bad bytes close only their connection,
and the table plays on."""

from __future__ import annotations

import asyncio

import msgpack
import pytest

from netplay.client import Connection
from netplay.frames import MAX_FRAME, encode
from netplay.frames import PROTOCOL_VERSION as VERSION
from netplay.protocol import Error, Lobby, State

from .conftest import TIMEOUT, RawClient, bots_have_claimed, next_of, play


async def seated_pair(host, wait_for_state=True):
    """Two players at a 4-seat table with 2 bots, seat 0 to cut first."""
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    bob = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Bob", table=table_id)
    if wait_for_state:
        await next_of(ann, State)
        await next_of(bob, State)
        await bots_have_claimed(host, table_id)
    return table_id, ann, bob


@pytest.mark.parametrize(
    "who, action, error",
    [
        ("ann", {"type": "cut", "target": 0}, "never cut your own wire"),
        ("ann", {"type": "cut", "target": 9}, "no seat 9"),
        ("ann", {"type": "cut"}, "needs the field 'target'"),
        ("ann", {"type": "cut", "target": "1"}, "must be a whole number"),
        ("ann", {"type": "shoot", "target": 1}, "unknown action type 'shoot'"),
        ("bob", {"type": "cut", "target": 0}, "not your turn"),
    ],
)
async def test_illegal_or_out_of_turn_move_gets_an_error_and_changes_nothing(
    host, who, action, error
):
    table_id, ann, bob = await seated_pair(host)
    game = host.tables[table_id].game
    before = (list(game.history), game.view(0), game.view(1))
    actor = ann if who == "ann" else bob
    await actor.act(action)
    reply = await next_of(actor, Error)
    assert error in reply.message and reply.fatal is False
    assert (list(game.history), game.view(0), game.view(1)) == before
    # The connection stays usable: a legal move goes through.
    await ann.act({"type": "cut", "target": 1})
    await next_of(ann, State, timeout=5)
    assert [action for _, action in game.history if action["type"] == "cut"] == [
        {"type": "cut", "target": 1}]
    await ann.close()
    await bob.close()


async def run_game_beside(host, table_id, ann, bob, hostile):
    """Play the table to its end while `hostile()` misbehaves on another connection."""
    outcome = asyncio.gather(play(ann, 1), play(bob, 2))
    await hostile()
    finals = await asyncio.wait_for(outcome, TIMEOUT)
    assert all(f["outcome"] is not None for f in finals)
    assert host.tables[table_id].game.outcome is not None


async def expect_fatal_then_close(raw: RawClient, words: str) -> None:
    reply = await raw.receive_until("error")
    assert reply["fatal"] is True and words in reply["message"]
    assert await raw.closed_by_host()


@pytest.mark.parametrize(
    "payload, words",
    [
        (b"\x00\x00\x00\x03\xc1\xc1\xc1", "malformed msgpack"),
        ((MAX_FRAME + 1).to_bytes(4, "big"), "over the limit"),
        (b"\xff\xff\xff\xff", "over the limit"),
        (encode({"v": 1, "t": "hello", "name": "Future"}), "protocol version 1 is not supported"),
        (encode({"v": VERSION, "t": "act", "action": {}}), "first message must be 'pair' or 'hello'"),
        (len(b := msgpack.packb({1: 1})).to_bytes(4, "big") + b, "malformed msgpack"),
        (encode({"v": VERSION, "t": "hello", "name": ["Ann"]}), "must be a string"),
    ],
    ids=["garbage", "oversized", "huge-length", "wrong-version", "no-hello", "int-key",
         "wrong-type"],
)
async def test_bad_first_frame_closes_only_that_connection(host, payload, words):
    table_id, ann, bob = await seated_pair(host, wait_for_state=False)

    async def hostile():
        raw = await RawClient.open(host.address[1])
        await raw.send_bytes(payload)
        await expect_fatal_then_close(raw, words)
        raw.close()

    await run_game_beside(host, table_id, ann, bob, hostile)
    await ann.close()
    await bob.close()


@pytest.mark.parametrize(
    "payload, words",
    [
        (b"\x00\x00\x00\x02\x92\x01", "malformed msgpack"),
        ((MAX_FRAME + 1).to_bytes(4, "big"), "over the limit"),
        (encode({"v": 2, "t": "ping"}), "protocol version 2"),
        (encode({"v": VERSION, "t": "teleport"}), "unknown message type 'teleport'"),
        (encode({"v": VERSION, "t": "hello", "name": "Again"}), "only for the first message"),
    ],
    ids=["garbage", "oversized", "wrong-version", "unknown-type", "second-hello"],
)
async def test_bad_frame_from_a_spectator_mid_game_closes_only_it(host, payload, words):
    table_id, ann, bob = await seated_pair(host, wait_for_state=False)

    async def hostile():
        raw = await RawClient.open(host.address[1])
        await raw.send("hello", name="Mallory", table=table_id, spectate=True)
        assert (await raw.receive_until("welcome"))["spectator"] is True
        await raw.send_bytes(payload)
        await expect_fatal_then_close(raw, words)
        raw.close()

    await run_game_beside(host, table_id, ann, bob, hostile)
    assert not host.tables[table_id].spectators
    await ann.close()
    await bob.close()


async def test_seated_player_sending_garbage_loses_only_its_link_and_keeps_its_seat(host):
    table_id, ann, bob = await seated_pair(host)
    bob._writer.write(b"\x00\x00\x00\x01\xc1")
    messages = []
    async for msg in bob:
        messages.append(msg)
    assert isinstance(messages[-1], Error) and messages[-1].fatal is True
    seat = host.tables[table_id].seats[1]
    assert seat.kind == "human" and seat.client is None
    # The deal's lobbies (its claim wait, and its end) may come first.
    while (await next_of(ann, Lobby)).seats[1]["connected"]:
        pass
    # The token still holds the seat.
    back = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                    name="Bob", token=bob.token)
    assert back.seat == 1
    await back.close()
    await ann.close()


async def test_handshake_that_never_finishes_times_out(tmp_path):
    from netplay.host import Host
    from netplay.limits import HostLimits

    server = Host(data_dir=tmp_path / "data", limits=HostLimits(handshake_timeout=0.2))
    await server.start()
    raw = await RawClient.open(server.address[1])
    await expect_fatal_then_close(raw, "no hello within 0.2 seconds")
    raw.close()
    await server.stop()


async def test_connections_per_address_are_limited(tmp_path):
    from netplay.host import Host
    from netplay.limits import HostLimits

    server = Host(data_dir=tmp_path / "data", limits=HostLimits(max_connections_per_address=3))
    await server.start()
    port = server.address[1]
    kept = [await Connection.connect("127.0.0.1", port, code=server.table_code,
                                     name=f"P{i}") for i in range(3)]
    # One more is closed before its TLS handshake (PROTOCOL.md, "Limits").
    with pytest.raises((ConnectionError, OSError)):
        await RawClient.open(port)
    await kept[0].close()
    await asyncio.sleep(0.05)
    again = await Connection.connect("127.0.0.1", port, code=server.table_code, name="P3")
    for conn in (*kept[1:], again):
        await conn.close()
    await server.stop()


async def test_silent_client_is_dropped_by_the_heartbeat(tmp_path):
    from netplay.host import Host
    from netplay.limits import HostLimits

    server = Host(data_dir=tmp_path / "data", limits=HostLimits(heartbeat_timeout=0.3))
    await server.start()
    raw = await RawClient.open(server.address[1])
    await raw.send("hello", name="Ghost")
    await raw.receive_until("welcome")
    started = asyncio.get_running_loop().time()
    assert await raw.closed_by_host(timeout=3)
    assert asyncio.get_running_loop().time() - started < 2
    raw.close()
    # A client that pings stays.
    conn = await Connection.connect("127.0.0.1", server.address[1], code=server.table_code,
                                    name="Alive",
                                    heartbeat_interval=0.05, reconnect=False)
    await asyncio.sleep(0.8)
    assert conn.status == "connected"
    await conn.close()
    await server.stop()


async def test_client_explains_a_host_that_does_not_speak_tls():
    """A protocol 2 host reads the ClientHello as a frame far over its limit and answers in
    the clear: the client says what that means instead of a bare TLS failure."""
    from netplay.errors import ProtocolError

    async def old_host(reader, writer):
        await reader.read(100)
        writer.write(encode({"v": 2, "t": "error", "fatal": True,
                             "message": "frame length 369295616 bytes is over the limit"}))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(old_host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with pytest.raises(ProtocolError, match="does not speak TLS: it may run an older Gaslight"):
        await Connection.connect("127.0.0.1", port, code="12345678", name="Ann")
    server.close()
    await server.wait_closed()

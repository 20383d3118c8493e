"""The door of protocols 3 and 4 (PROTOCOL.md, "Transport" and "Pairing"): clients that do
not speak TLS or speak an older protocol, broken, stalled and abandoned handshakes, floods of
half-open connections, wrong, replayed and malformed pairing messages. Each costs the host the
one connection, for a bounded time, and every table plays on."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

import msgpack
import pytest

from netplay import frames
from netplay.errors import ProtocolError
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.pairing import PAIR_FAILURES, ClientPairing
from netplay.protocol import Pair
from netplay.transport import MAX_HANDSHAKES, PLAIN_REFUSAL

from .conftest import VERSION, RawPeer, frame
from .test_malformed import assert_table_plays_on, running_table

HANDSHAKE_TIMEOUT = 0.5


async def raw_socket(port: int, source: str = "127.0.0.1") -> tuple[
        asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bytes:
    """Everything the host sends until it closes; fails if it is still open after `seconds`."""
    received = bytearray()
    async with asyncio.timeout(seconds):
        try:
            while chunk := await reader.read(65536):
                received += chunk
        except ConnectionError:
            pass
    return bytes(received)


async def test_a_protocol_2_client_is_told_in_a_frame_it_can_read(host):
    table_id, players, fan, idle = await running_table(host)
    reader, writer = await raw_socket(host.address[1])
    writer.write(frame({"v": 2, "t": "hello", "name": "Old"}))
    answer = await closed_within(reader, 5)
    length = struct.unpack(">I", answer[:4])[0]
    assert len(answer) == 4 + length  # one frame, then the host closed
    error = msgpack.unpackb(answer[4:], raw=False)
    assert error == {"v": VERSION, "t": "error", "fatal": True, "message": PLAIN_REFUSAL}
    assert f"protocol {VERSION}" in error["message"] and "update Gaslight" in error["message"]
    writer.close()
    await assert_table_plays_on(host, table_id, players, fan, idle)


async def test_a_protocol_3_client_is_told_to_update_in_a_frame_it_can_read(host, monkeypatch):
    """A protocol 3 client speaks TLS and says `hello` with its name first. The host's answer
    is a fatal error of version 4, which the old client's decoder (the same as this one's, at
    version 3) reports as a version mismatch telling its player to update."""
    peer = await RawPeer.open(host.address[1])
    await peer.send({"v": 3, "t": "hello", "name": "Old"})
    error = await peer.receive_until("error")
    assert error == {"v": VERSION, "t": "error", "fatal": True, "message":
                     "protocol version 3 is not supported: this host speaks Gaslight protocol "
                     f"{VERSION}: update Gaslight"}
    assert await peer.closed_by_host()
    monkeypatch.setattr(frames, "PROTOCOL_VERSION", 3)
    body = bytes(peer.received[4:])
    with pytest.raises(ProtocolError, match=f"protocol version {VERSION} is not supported; this "
                                            "side speaks version 3: update Gaslight"):
        frames.decode_body(body)


async def test_garbage_instead_of_a_client_hello_costs_one_connection(host):
    table_id, players, fan, idle = await running_table(host)
    for garbage in (b"\x16\x03\x01\x00\x05hello, host", b"\x16\x03" + bytes(range(256)) * 8,
                    b"GET / HTTP/1.1\r\n\r\n"):
        reader, writer = await raw_socket(host.address[1])
        writer.write(garbage)
        await closed_within(reader, 5)
        writer.close()
    await assert_table_plays_on(host, table_id, players, fan, idle)


async def test_a_client_that_stops_mid_handshake_is_dropped_in_time(tmp_path):
    host = Host(data_dir=tmp_path / "data",
                limits=HostLimits(bot_delay=0.002, handshake_timeout=HANDSHAKE_TIMEOUT))
    await host.start()
    try:
        table_id, players, fan, idle = await running_table(host)
        stalls = []
        for first in (b"", b"\x16", b"\x16\x03\x01\x02\x00\x01"):  # nothing, a byte, a start
            reader, writer = await raw_socket(host.address[1])
            writer.write(first)
            stalls.append((reader, writer))
        started = time.monotonic()
        await asyncio.gather(*(closed_within(reader, 5) for reader, _ in stalls))
        assert time.monotonic() - started < HANDSHAKE_TIMEOUT * 2 + 1
        for _, writer in stalls:
            writer.close()
        await assert_table_plays_on(host, table_id, players, fan, idle)
    finally:
        await host.stop()


async def test_many_half_open_tls_connections_wait_their_turn_and_go(tmp_path):
    """Each of many addresses opens as many connections as it may and stalls each one in its
    handshake: at most MAX_HANDSHAKES are in flight, each is dropped within its timeouts,
    the tables play on and a new client gets in."""
    host = Host(data_dir=tmp_path / "data",
                limits=HostLimits(bot_delay=0.002, handshake_timeout=HANDSHAKE_TIMEOUT))
    await host.start()
    try:
        table_id, players, fan, idle = await running_table(host)
        baseline = len(host.connections)
        per_address = host.limits.max_connections_per_address
        sources = [f"127.0.9.{i + 1}" for i in range(MAX_HANDSHAKES // per_address + 2)]
        flood = [await raw_socket(host.address[1], source)
                 for source in sources for _ in range(per_address)]
        assert len(flood) > MAX_HANDSHAKES
        for _, writer in flood:
            writer.write(b"\x16\x03\x01\x02\x00\x01")  # a ClientHello that never ends
        peak = 0

        async def watch_in_flight():
            nonlocal peak
            while True:
                peak = max(peak, host.door.in_flight)
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch_in_flight())
        await assert_table_plays_on(host, table_id, players, fan, idle)
        # Waiting for a turn and shaking hands each have the timeout: all gone within both.
        await asyncio.gather(*(closed_within(reader, HANDSHAKE_TIMEOUT * 2 + 2)
                               for reader, _ in flood))
        watcher.cancel()
        assert 0 < peak <= MAX_HANDSHAKES
        while len(host.connections) > baseline:
            await asyncio.sleep(0.01)
        newcomer = await RawPeer.join(host.address[1], "Newcomer")
        await newcomer.ping()
        for _, writer in flood:
            writer.close()
    finally:
        await host.stop()


def pair_request(code: str) -> dict:
    return {"t": "pair", "msg": ClientPairing(code).request.msg}


async def pair_by_hand(peer: RawPeer, code: str, fingerprint: str) -> tuple[dict, dict]:
    """Run a pairing as a client would, over a raw peer, then say hello: the pair and paired
    it sent."""
    pairing = ClientPairing(code)
    request = pairing.request.to_dict()
    await peer.send(request)
    answer = await peer.receive_until("pair", "error")
    assert answer["t"] == "pair", answer
    paired = pairing.confirm(Pair(answer["msg"], answer["mac"]), fingerprint).to_dict()
    await peer.send(paired)
    await peer.send({"t": "hello", "name": "Ann"})
    return request, paired


async def test_replayed_pairing_messages_fail_as_a_wrong_code(host):
    honest = await RawPeer.open(host.address[1], source="127.0.8.1")
    request, paired = await pair_by_hand(honest, host.table_code, host.key.fingerprint)
    assert (await honest.receive_until("welcome", "error"))["t"] == "welcome"
    # Someone who recorded both (inside TLS, only the host or the client could have) sends
    # them again: the host's new SPAKE2 message makes a new key, so the old MAC is wrong.
    replay = await RawPeer.open(host.address[1], source="127.0.8.2")
    await replay.send(request)
    fresh = await replay.receive_until("pair")
    assert fresh["msg"] != request["msg"]
    await replay.send(paired)
    refusal = await replay.receive_until("error")
    assert refusal["fatal"] and refusal["message"] == "wrong table code"
    assert await replay.closed_by_host()
    await honest.ping()


async def test_guesses_of_the_code_are_counted_even_when_the_guesser_hangs_up(host):
    """A guesser learns from the host's MAC whether its guess was right: hanging up then must
    still count, or the lockout would never come."""
    wrong = f"{(int(host.table_code) + 1) % 10 ** 8:08d}"
    for _ in range(PAIR_FAILURES):
        peer = await RawPeer.open(host.address[1], source="127.0.8.3")
        await peer.send(pair_request(wrong))
        await peer.receive_until("pair")
        peer.close()
    late = await RawPeer.open(host.address[1], source="127.0.8.3")
    await late.send(pair_request(host.table_code))
    refusal = await late.receive_until("error")
    assert refusal["fatal"] and "too many wrong table codes" in refusal["message"]
    # Another address is not locked out.
    other = await RawPeer.open(host.address[1], source="127.0.8.4")
    await pair_by_hand(other, host.table_code, host.key.fingerprint)
    assert (await other.receive_until("welcome", "error"))["t"] == "welcome"


async def test_a_pairing_left_unanswered_is_dropped_in_time(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(handshake_timeout=0.3))
    await host.start()
    try:
        peer = await RawPeer.open(host.address[1])
        await peer.send(pair_request("12345678"))
        await peer.receive_until("pair")
        reply = await peer.receive_until("error", timeout=3)
        assert reply["fatal"] and "no 'paired' within 0.3 seconds" in reply["message"]
    finally:
        await host.stop()


async def test_malformed_pairing_messages_are_protocol_errors(host):
    honest = pair_request(host.table_code)["msg"]
    for msg, words in [("zz", "must be hex"),
                       ("00" * 33, "malformed SPAKE2"),
                       ("a" * 200, "33 bytes, not 100")]:
        peer = await RawPeer.open(host.address[1], source="127.0.8.5")
        await peer.send({"t": "pair", "msg": msg})
        reply = await peer.receive_until("error")
        assert reply["fatal"] and words in reply["message"], reply["message"]
    for stray in ({"t": "paired", "mac": "00"}, {"t": "pair", "msg": honest}):
        lobby = await RawPeer.join(host.address[1], "Mallory")
        await lobby.send(stray)
        reply = await lobby.receive_until("error")
        assert reply["fatal"] and "is only for the pairing, before 'hello'" in reply["message"]
    peer = await RawPeer.open(host.address[1])
    await peer.send({"t": "hello", "name": "Mallory", "pair": honest})
    reply = await peer.receive_until("error")
    assert reply["fatal"] and "has no field 'pair'" in reply["message"]


@pytest.mark.parametrize("length", [1, 32, 34, 64, 65, 128, 255])
async def test_a_pairing_message_of_the_wrong_length_is_refused_and_costs_a_guess(host, length):
    """`spake2` reads the first 32 bytes of an element and ignores the rest, and takes a short
    one: the host checks the length itself. A wrong one is a protocol error, never a `pair`
    with a MAC, and counts as a failed pairing of the address."""
    honest = bytes.fromhex(pair_request(host.table_code)["msg"])
    msg = (honest * 8)[:length].hex()
    for _ in range(PAIR_FAILURES):
        peer = await RawPeer.open(host.address[1], source="127.0.8.6")
        await peer.send({"t": "pair", "msg": msg})
        reply = await peer.receive_until("pair", "error")
        assert reply["t"] == "error" and reply["fatal"], reply
        assert f"a SPAKE2 message is 33 bytes, not {length}" in reply["message"]
        assert await peer.closed_by_host()
    late = await RawPeer.open(host.address[1], source="127.0.8.6")
    await late.send(pair_request(host.table_code))
    refusal = await late.receive_until("error")
    assert refusal["fatal"] and "too many wrong table codes" in refusal["message"]


@pytest.mark.parametrize("first", [b"", b"\x16", b"\x00"])
async def test_a_connection_closed_at_the_door_frees_its_place_at_once(host, first):
    """One byte (or none) then a close: the door decides on the first byte, so the address's
    place is free long before the handshake timeout (10 s)."""
    baseline = len(host.connections)
    reader, writer = await raw_socket(host.address[1], "127.0.8.7")
    while len(host.connections) == baseline:  # at the door
        await asyncio.sleep(0.01)
    writer.write(first)
    await writer.drain()
    writer.close()
    started = time.monotonic()
    while len(host.connections) > baseline:
        assert time.monotonic() - started < 1, "the place is still held"
        await asyncio.sleep(0.01)


async def test_a_plain_socket_that_says_nothing_is_dropped_in_time(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(handshake_timeout=0.3))
    await host.start()
    try:
        sock = socket.create_connection(("127.0.0.1", host.address[1]))
        sock.setblocking(False)
        reader, writer = await asyncio.open_connection(sock=sock)
        assert await closed_within(reader, 3) == b""
        writer.close()
    finally:
        await host.stop()

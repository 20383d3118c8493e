"""The new door of protocol 3 (PROTOCOL.md, "Transport" and "Pairing"): clients that do not
speak TLS, broken and stalled handshakes, floods of half-open connections, wrong and replayed
pairing messages. Each costs the host the one connection, for a bounded time, and every table
plays on."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

import msgpack

from netplay.host import Host
from netplay.limits import HostLimits
from netplay.pairing import PAIR_FAILURES, ClientPairing
from netplay.protocol import Pair
from netplay.transport import MAX_HANDSHAKES, PLAIN_REFUSAL

from .conftest import RawPeer, frame
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
    assert error == {"v": 3, "t": "error", "fatal": True, "message": PLAIN_REFUSAL}
    assert "update Gaslight" in error["message"]
    writer.close()
    await assert_table_plays_on(host, table_id, players, fan, idle)


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


async def pair_by_hand(peer: RawPeer, code: str, fingerprint: str) -> tuple[dict, dict]:
    """Run a pairing as a client would, over a raw peer: the hello and paired it sent."""
    pairing = ClientPairing(code)
    hello = {"t": "hello", "name": "Ann", "pair": pairing.message}
    await peer.send(hello)
    answer = await peer.receive_until("pair", "error")
    assert answer["t"] == "pair", answer
    paired = pairing.confirm(Pair(answer["msg"], answer["mac"]), fingerprint).to_dict()
    await peer.send(paired)
    return hello, paired


async def test_replayed_pairing_messages_fail_as_a_wrong_code(host):
    honest = await RawPeer.open(host.address[1], source="127.0.8.1")
    hello, paired = await pair_by_hand(honest, host.table_code, host.key.fingerprint)
    assert (await honest.receive_until("welcome", "error"))["t"] == "welcome"
    # Someone who recorded both (inside TLS, only the host or the client could have) sends
    # them again: the host's new SPAKE2 message makes a new key, so the old MAC is wrong.
    replay = await RawPeer.open(host.address[1], source="127.0.8.2")
    await replay.send(hello)
    fresh = await replay.receive_until("pair")
    assert fresh["msg"] != hello["pair"]
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
        await peer.send({"t": "hello", "name": "Guess", "pair": ClientPairing(wrong).message})
        await peer.receive_until("pair")
        peer.close()
    late = await RawPeer.open(host.address[1], source="127.0.8.3")
    await late.send({"t": "hello", "name": "Guess",
                     "pair": ClientPairing(host.table_code).message})
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
        await peer.send({"t": "hello", "name": "Ann", "pair": ClientPairing("12345678").message})
        await peer.receive_until("pair")
        reply = await peer.receive_until("error", timeout=3)
        assert reply["fatal"] and "no 'paired' within 0.3 seconds" in reply["message"]
    finally:
        await host.stop()


async def test_malformed_pairing_messages_are_protocol_errors(host):
    for hello, words in [({"pair": "zz"}, "must be hex"),
                         ({"pair": "00" * 33}, "malformed SPAKE2"),
                         ({"pair": "a" * 200}, "the limit is 128")]:
        peer = await RawPeer.open(host.address[1])
        await peer.send({"t": "hello", "name": "Mallory", **hello})
        reply = await peer.receive_until("error")
        assert reply["fatal"] and words in reply["message"], reply["message"]
    lobby = await RawPeer.join(host.address[1], "Mallory")
    await lobby.send({"t": "paired", "mac": "00"})
    reply = await lobby.receive_until("error")
    assert reply["fatal"] and "'paired' only answers" in reply["message"]


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

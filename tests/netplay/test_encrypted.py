"""Nothing readable crosses the network (issue 25): a relay on loopback records every byte
both ways between real clients and a real host while a game is played to its end with chat,
and none of the secrets the secret-scan tests look for is in the capture."""

from __future__ import annotations

import asyncio
import random

import msgpack

import engine
from netplay.client import Connection
from netplay.protocol import Chat, ChatLine
from netplay.transport import TLS_READ_BUFFER, HostKey, open_tls
from support.relays import RecordingRelay

from .conftest import TIMEOUT, next_of, play, watch

SEED = 0x5EED_0F_5EC2E7  # distinctive: its bytes would stand out anywhere
PLAYERS = 5
CHAT_TEXT = "Moriarty holds the bomb, I swear it"


def canaries(game: engine.Game, tokens: list[str], chat: list[str]) -> dict[str, list[bytes]]:
    """What must never be readable on the wire: every event (hands and roles among them), the
    seed, the seat tokens, the chat, and the frames' own shape."""
    events = [msgpack.packb(e.as_dict()) for e in game.events]
    texts = [e.text.encode() for e in game.events if len(e.text) > 8]
    return {
        "an event": events,
        "an event's words": texts,
        "the seed": [msgpack.packb(SEED), str(SEED).encode(), SEED.to_bytes(8, "big")],
        "a seat token": [t.encode() for t in tokens],
        "chat": [line.encode() for line in chat],
        "a frame": [b"\xa5state", b"\xa7welcome", b"\xa5hello", b"\xa4view"],
    }


async def test_a_whole_game_with_chat_crosses_the_wire_encrypted(host):
    table_id = host.create_table("timebomb", PLAYERS, {"first_player": 0}, bots=2, seed=SEED,
                                 start_when_full=True)
    relay = RecordingRelay(host.address[1])
    async with relay as port:
        clear = bytearray()  # what the spectator's client reads once TLS is off
        fan = await Connection.connect("127.0.0.1", port, code=host.table_code, name="Watson",
                                       table=table_id, spectate=True, on_frame=clear.extend)
        players = [await Connection.connect("127.0.0.1", port, code=host.table_code,
                                            name=f"Player {i}", table=table_id)
                   for i in range(PLAYERS - 2)]
        said = [f"{CHAT_TEXT} ({i})" for i in range(len(players))]
        for conn, text in zip(players, said):
            await conn.send(Chat(text))
        await next_of(fan, ChatLine, text=said[-1], timeout=TIMEOUT)
        finals = await asyncio.wait_for(asyncio.gather(
            watch(fan), *(play(conn, seed=i) for i, conn in enumerate(players))), TIMEOUT * 2)
        tokens = [conn.token for conn in players]
        for conn in [fan, *players]:
            await conn.close()
    game = host.tables[table_id].game
    assert game.outcome is not None and all(f["outcome"] is not None for f in finals)
    assert relay.connections == len(players) + 1
    assert any(e.audience is not None for e in game.events)  # private events: hands, roles
    capture = bytes(relay.captured)
    assert len(capture) > 10_000  # a whole game went through it
    # The patterns are real: the same bytes, decrypted, show the chat and the public events.
    assert all(text.encode() in clear for text in said)
    assert any(text in clear for text in canaries(game, tokens, said)["an event's words"])
    for what, patterns in canaries(game, tokens, said).items():
        for pattern in patterns:
            assert pattern not in capture, f"the capture holds {what} in the clear"


async def test_a_burst_larger_than_the_tls_read_buffer_arrives_whole_and_in_order(tmp_path):
    """The TLS layer reads TLS_READ_BUFFER bytes at a time, an eighth of asyncio's default
    (netplay/transport.py): a burst of many times that, in records of every size up to the
    largest, still reaches the other end whole and in order, both ways."""
    key = HostKey(tmp_path / "host.pem")
    received = asyncio.get_running_loop().create_future()
    burst = bytes(random.Random(7).randbytes(8 * TLS_READ_BUFFER + 12_345))

    async def serve(reader, writer):
        received.set_result(await reader.readexactly(len(burst)))
        writer.write(burst)  # one write: the far end reads it through its own buffer
        await writer.drain()

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=key.server_context())
    try:
        reader, writer = await open_tls("127.0.0.1", server.sockets[0].getsockname()[1], TIMEOUT)
        assert writer.get_extra_info("ssl_object").version() == "TLSv1.3"
        for start in range(0, len(burst), 16_384):  # records of up to 16 KiB, as TLS allows
            writer.write(burst[start:start + 16_384])
        async with asyncio.timeout(TIMEOUT):
            assert await received == burst
            assert await reader.readexactly(len(burst)) == burst
        writer.close()
    finally:
        server.close()

"""A client that never reads cannot stall a table: its bounded outbound buffer overflows, it
is dropped, and everyone else keeps getting every frame on time."""

from __future__ import annotations

import asyncio
import socket
import time

from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.frames import encode, message
from netplay.protocol import Chat, ChatLine, State
from netplay.transport import client_context

from .conftest import TIMEOUT, play

LIMIT = 8 * 1024
CHATS = 1000


async def never_reading_spectator(port: int, table_id: str) -> asyncio.StreamWriter:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    _, writer = await asyncio.open_connection(sock=sock, ssl=client_context(),
                                              server_hostname="gaslight")
    writer.write(encode(message("hello", name="Stuck", table=table_id, spectate=True)))
    await writer.drain()
    return writer


async def test_never_reading_client_is_dropped_and_delays_no_one(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(
        bot_delay=0.002, outbound_limit=LIMIT, chat_burst=10 * CHATS, chat_per_second=10 * CHATS))
    await host.start()
    port = host.address[1]
    # Claims off: this flood is of chat, and the bots' claims after each deal would add
    # states to it.
    table_id = host.create_table("timebomb", 5, {"first_player": 0, "claims": False}, bots=4,
                                 start_when_full=True)
    table = host.tables[table_id]
    stuck = await never_reading_spectator(port, table_id)
    fan_frames: list[tuple[float, dict]] = []
    fan = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Fan", table=table_id, spectate=True)
    while len(table.spectators) < 2:
        await asyncio.sleep(0.005)

    async def fan_reads():
        async for msg in fan:
            fan_frames.append((time.monotonic(), msg))
            if isinstance(msg, State) and msg.view["outcome"] is not None:
                return

    fan_task = asyncio.create_task(fan_reads())
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    ann_frames: list[tuple[float, dict]] = []
    ann_task = asyncio.create_task(play(ann, 1, stamps=ann_frames))
    sent_at = {}
    for i in range(CHATS):
        sent_at[f"{i:04d}"] = time.monotonic()
        await ann.send(Chat(text=f"{i:04d} " + "m" * 480))

    async def stuck_dropped():
        while len(table.spectators) > 1:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(stuck_dropped(), TIMEOUT)
    await asyncio.wait_for(asyncio.gather(fan_task, ann_task), TIMEOUT)

    # The healthy spectator got every chat and every state, as soon as the sender's own echo.
    chats = {m.text[:4]: t for t, m in fan_frames if isinstance(m, ChatLine)}
    echoes = {m.text[:4]: t for t, m in ann_frames if isinstance(m, ChatLine)}
    assert list(chats) == list(echoes) == list(sent_at)
    lags = sorted(abs(chats[k] - echoes[k]) for k in sent_at)
    assert lags[len(lags) // 2] < 0.1 and lags[-1] < 1.0
    cuts = [len(m.view["revealed"]) for _, m in fan_frames if isinstance(m, State)]
    # Bots may also claim, so count the cuts among the applied actions.
    applied_cuts = sum(1 for _, action in table.game.history if action["type"] == "cut")
    assert cuts == sorted(cuts) and cuts[-1] == applied_cuts
    assert table.game.outcome is not None
    stuck.transport.abort()
    await fan.close()
    await ann.close()
    await host.stop()

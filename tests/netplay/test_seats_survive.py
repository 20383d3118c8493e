"""Seats that survive accidents: a client process killed and started again, a turn timer that
hands an away player's seat to a bot until they come back, the chat told again to whoever
returns, and a host that comes back at another address and is followed there."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap

from support.waiting import until

from netplay.client import Connection, Status
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import Chat, ChatLine, CreateTable, Lobby, Start, State, Welcome

from .conftest import TIMEOUT, next_of, play

CLIENT_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys
    from netplay.client import Connection

    async def main():
        conn = await Connection.connect("127.0.0.1", int(sys.argv[1]), code=sys.argv[3],
                                        name="Ann", table=sys.argv[2])
        print(json.dumps({"seat": conn.seat, "token": conn.token, "host": conn.host_id}),
              flush=True)
        await asyncio.Event().wait()  # until killed

    asyncio.run(main())
    """
)


async def test_a_client_process_killed_and_started_again_takes_its_seat_back(host):
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, start_when_full=True)
    bob = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Bob", table=table_id)
    ann_process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENT_SCRIPT, str(host.address[1]), table_id, host.table_code,
        stdout=asyncio.subprocess.PIPE)
    kept = json.loads(await asyncio.wait_for(ann_process.stdout.readline(), TIMEOUT))
    assert kept["host"] == host.host_id
    seat = host.tables[table_id].seats[kept["seat"]]
    await until(lambda: host.tables[table_id].phase == "playing", "the game starts")
    ann_process.kill()  # the terminal dies: no goodbye
    await ann_process.wait()
    await until(lambda: seat.client is None, "the host sees Ann gone")
    # A new run of the app, holding the token it kept on disk, is Ann again.
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann again",
                                   token=kept["token"])
    assert ann.seat == kept["seat"] and seat.client is not None and seat.name == "Ann"
    finals = await asyncio.wait_for(asyncio.gather(play(ann, 1), play(bob, 2)), TIMEOUT)
    assert all(f["outcome"] is not None for f in finals)
    await ann.close()
    await bob.close()


async def test_the_turn_timer_covers_an_away_players_seat_until_they_return(host):
    host_conn = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                         name="Holmes")
    # Ann (seat 1) cuts first: were Holmes, who never acts, to hold the Wire Cutter, the game
    # would never wait for Ann.
    await host_conn.send(CreateTable(game="timebomb", players=4, bots=2, options={"first_player": 1}, turn_timer=30, bot_level="novice"))
    while (welcome := await next_of(host_conn, Welcome, timeout=TIMEOUT)).table is None:
        pass  # the lobby's welcome, before the table's
    table_id = welcome.table
    table = host.tables[table_id]
    assert (table.turn_timer, table.bot_level) == (30, "novice")
    table.turn_timer = 0.2  # the same timer, shorter, for the test
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann", table=table_id,
                                   reconnect=False)
    await host_conn.send(Start())  # the table's host starts it, once Ann sits
    lobby = await next_of(host_conn, Lobby, phase="playing")
    assert (lobby.turn_timer, lobby.bot_level) == (0.2, "novice")
    # Holmes plays his own turns: a game waiting for him would never come to Ann's.
    holmes_plays = asyncio.create_task(play(host_conn, 3))
    token, seat = ann.token, table.seats[ann.seat]
    await ann.close()
    # Ann is away; whenever the game waits for her, the timer runs, then a bot plays for her.
    await until(lambda: seat.covered, "a bot covers Ann's seat")
    assert seat.kind == "human" and seat.bot == "novice"
    await until(lambda: table.game.outcome is not None
                or any(s == seat.seat for s, _ in table.game.history),
                "the bot acts for Ann")
    # She comes back with her token: the seat is hers again.
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann", token=token)
    assert ann.seat == seat.seat and not seat.covered
    holmes_plays.cancel()
    await host_conn.close()
    await ann.close()


async def test_a_returning_player_is_told_the_recent_chat(tmp_path):
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002, chat_burst=30))
    await host.start()
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, start_when_full=True)
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann", table=table_id)
    bob = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Bob", table=table_id,
                                   reconnect=False)
    fan = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Fan", table=table_id,
                                   spectate=True)
    for i in range(25):
        await (ann, bob)[i % 2].send(Chat(text=f"line {i}"))
        await next_of(fan, ChatLine, text=f"line {i}")
    await fan.send(Chat(text="Bob is Moriarty"))
    await next_of(fan, ChatLine, text="Bob is Moriarty")
    await next_of(bob, ChatLine, text="line 24")
    token = bob.token
    await bob.close()
    bob = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Bob", token=token)
    past = []
    while len(past) < 20:
        past.append(await next_of(bob, ChatLine))
    # The last 20 lines of the table's channel, marked as past; never the spectators' channel.
    assert [m.text for m in past] == [f"line {i}" for i in range(5, 25)]
    assert all(m.past and m.channel == "table" for m in past)
    await ann.close()
    await bob.close()
    await fan.close()
    await host.stop()


async def test_a_client_follows_its_host_to_a_new_address(tmp_path):
    first = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    await first.start("127.0.0.1", 0)
    table_id = first.create_table("timebomb", 4, {"first_player": 0}, bots=3, start_when_full=True)
    where: dict[str, tuple[str, int]] = {first.host_id: first.address}

    async def locate(host_id: str, table: str | None):  # what discovery answers on a LAN
        return where.get(host_id)

    ann = await Connection.connect(*first.address, code=first.table_code,
                                   name="Ann", table=table_id, locate=locate,
                                   dead_after=1.0, heartbeat_interval=0.2)
    assert ann.host_id == first.host_id
    await next_of(ann, State)
    await first.stop()
    # The host comes back with --resume, but its old port is taken: it listens elsewhere.
    second = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    assert second.resume() == [table_id] and second.host_id == first.host_id
    await second.start("127.0.0.2", 0)
    where[second.host_id] = second.address
    await next_of(ann, Status, timeout=TIMEOUT, status="connected")
    assert (ann.host, ann.port) == second.address and ann.seat == 0
    final = await asyncio.wait_for(play(ann, 3), TIMEOUT)
    assert final["outcome"] is not None
    await ann.close()
    await second.stop()

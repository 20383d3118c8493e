"""A table of people starts when its host says so (PROTOCOL.md, "Starting a table"): filling
the last seat does not start it; a table made to start when full (quick play, unattended
tables) does. A joiner sees a table's options before sitting."""

from __future__ import annotations

from netplay.client import Connection
from netplay.announcement import read_options, txt_record
from netplay.host import Host
from netplay.protocol import CreateTable, Lobby, Start, State, TableList

from .conftest import next_of


async def join(host: Host, name: str, table: str) -> Connection:
    return await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                    name=name, table=table)


async def test_filling_the_last_seat_does_not_start_a_table_of_people(host):
    table_id = host.create_table("timebomb", 4, {}, bots=2)
    ann = await join(host, "Ann", table_id)
    bob = await join(host, "Bob", table_id)
    # Everyone seated meets in the waiting room: who is here, who hosts, the table's options.
    lobby = await next_of(bob, Lobby, phase="waiting")
    assert [s["name"] for s in lobby.seats] == ["Ann", "Bob", "Bot 3", "Bot 4"]
    assert lobby.host_seat == 0 and lobby.start_when_full is False
    assert (lobby.bot_level, lobby.bot_pace, lobby.turn_timer) == ("smart", "normal", 0)
    assert host.tables[table_id].phase == "waiting"
    await bob.send(Start())  # only the table's host starts it
    await ann.send(Start())
    assert (await next_of(bob, State)).view["outcome"] is None
    await ann.close()
    await bob.close()


async def test_a_table_made_to_start_when_full_starts_with_its_last_seat(host):
    ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Ann")
    await ann.send(CreateTable(game="timebomb", players=4, bots=2, start_when_full=True))
    lobby = await next_of(ann, Lobby, phase="waiting")
    assert lobby.start_when_full is True
    bob = await join(host, "Bob", lobby.table)
    await next_of(bob, State)
    assert host.tables[lobby.table].phase == "playing"
    await ann.close()
    await bob.close()


async def test_a_table_tells_its_options_before_anyone_joins(host):
    host.create_table("timebomb_evolution", 4, {"variante": True}, bots=1, bot_pace="fast",
                      turn_timer=30)
    visitor = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                       name="Cat")
    [entry] = (await next_of(visitor, TableList)).tables
    assert entry["options"]["variante"] is True
    assert (entry["bot_level"], entry["bot_pace"], entry["turn_timer"]) == ("smart", "fast", 30)
    # The LAN's record names the options that differ from the game's defaults.
    record = txt_record(entry, "ab" * 32)
    assert "variante=true" in record["opts"].split()
    assert read_options(record["opts"])["variante"] is True
    await visitor.close()

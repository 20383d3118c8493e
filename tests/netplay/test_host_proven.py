"""The host proven before a word is said (PROTOCOL.md, "Transport"): on every way back to a
table, a machine in the middle (it ends TLS with its own key, opens its own to the real host,
and reads all the client sends it) learns no seat token, name, table id or chat, and the
player is told in words why the client stopped.

Each test first seats a player through a relay that carries the link to the real host, then
cuts that link and sends the reconnect (or the first join, a watch, a replay list) to the
machine in the middle, or lets `locate` find a forged record that leads there."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from netplay.client import CLOSED, Connection, HostKeyChanged, Status, WrongCode
from netplay.discovery import Advertiser, locator
from netplay.host import Host
from netplay.protocol import Chat, ListReplays
from netplay.transport import HostKey
from support.relays import MachineInTheMiddle, RecordingRelay
from support.waiting import until

from .conftest import TIMEOUT, next_of, play
from .test_discovery import DISCOVERY_TIMEOUT, LOOPBACK

NAME = "Irene Adler"
CHAT = "meet me at the Serpentine"
CHANGED_KEY = "has changed its key"


@pytest.fixture
def mitm_key(tmp_path) -> HostKey:
    return HostKey(tmp_path / "mitm.pem")


async def seated(host: Host, port: int, **kwargs) -> Connection:
    """A player paired by the code and seated at a new table of Holmes against a bot (or
    watching it), through `port`; it has said something at the table."""
    table_id = host.create_table("holmes", 2, bots=1, start_when_full=True)
    conn = await Connection.connect("127.0.0.1", port, name=NAME, table=table_id,
                                    code=host.table_code, **kwargs)
    await conn.send(Chat(CHAT))  # not waited for: a state on the way must stay unread
    return conn


async def reconnect_lands_on(conn: Connection, relay: RecordingRelay, port: int) -> None:
    """Cut the link `relay` carries and send the reconnect to `port`; wait until the
    connection gives up."""
    relay.target_port = port
    relay.cut()
    assert await next_of(conn, Status, timeout=TIMEOUT) == Status("reconnecting")
    await until(lambda: conn.status == CLOSED, "the reconnect stopped")


def assert_told_nothing(mitm: MachineInTheMiddle, conn: Connection) -> None:
    """The machine in the middle read none of the player's secrets, and the player was told
    why the connection stopped: the key it met is not the host's (which only a client that
    reached the machine in the middle can have seen)."""
    assert mitm.heard_any(conn.token, NAME, conn.table, CHAT) == []
    assert isinstance(conn.refused, HostKeyChanged)
    assert CHANGED_KEY in conn.refusal and "ask them for the table code" in conn.refusal


async def test_a_reconnect_mid_game_that_lands_on_a_machine_in_the_middle(host, mitm_key):
    """The player joined with the code and holds a seat; its link drops mid-game and the
    reconnect meets another key. Not a byte is said to it, and the connection ends saying
    the key changed, never that the host is gone."""
    relay, mitm = RecordingRelay(host.address[1]), MachineInTheMiddle(mitm_key, host.address[1])
    async with relay as relay_port, mitm as mitm_port:
        conn = await seated(host, relay_port)
        assert conn.token is not None and host.tables[conn.table].game is not None
        await reconnect_lands_on(conn, relay, mitm_port)
    assert_told_nothing(mitm, conn)
    assert not mitm.heard
    await conn.close()


async def test_a_reconnect_after_the_end_that_lands_on_a_machine_in_the_middle(host, mitm_key):
    relay, mitm = RecordingRelay(host.address[1]), MachineInTheMiddle(mitm_key, host.address[1])
    async with relay as relay_port, mitm as mitm_port:
        conn = await seated(host, relay_port)
        final = await asyncio.wait_for(play(conn), TIMEOUT * 2)
        assert final["outcome"] is not None
        await reconnect_lands_on(conn, relay, mitm_port)
    assert_told_nothing(mitm, conn)
    await conn.close()


async def test_a_spectator_s_reconnect_says_nothing_to_a_machine_in_the_middle(host, mitm_key):
    relay, mitm = RecordingRelay(host.address[1]), MachineInTheMiddle(mitm_key, host.address[1])
    async with relay as relay_port, mitm as mitm_port:
        conn = await seated(host, relay_port, spectate=True)
        await reconnect_lands_on(conn, relay, mitm_port)
    assert_told_nothing(mitm, conn)
    await conn.close()


async def test_watching_through_a_machine_in_the_middle_says_nothing(host, mitm_key):
    """A first watch, by the code: the pairing fails before the name or the table is said."""
    table_id = host.create_table("timebomb", 5, bots=4)
    mitm = MachineInTheMiddle(mitm_key, host.address[1])
    async with mitm as port:
        with pytest.raises(WrongCode, match="someone between you and the host"):
            await Connection.connect("127.0.0.1", port, name=NAME, table=table_id,
                                     spectate=True, code=host.table_code)
    assert mitm.connections and mitm.heard_any(NAME, table_id) == []


async def test_following_the_host_to_a_forged_record_says_nothing_there(host, mitm_key):
    """The link drops, nobody answers at the host's address, and discovery finds a record
    that claims the host's identity and leads to a machine in the middle (a forged zeroconf
    record, or a forged TXT `locate` answer). The client checks the key it met first."""
    relay, mitm = RecordingRelay(host.address[1]), MachineInTheMiddle(mitm_key, host.address[1])
    async with mitm as mitm_port:
        asked: list[str] = []

        async def forged_locate(host_id: str, table: str | None) -> tuple[str, int]:
            asked.append(host_id)
            return "127.0.0.1", mitm_port

        async with relay as relay_port:
            conn = await seated(host, relay_port, locate=forged_locate)
            relay.server.close()  # nobody answers at the address any more
            await relay.server.wait_closed()
            relay.cut()
            await until(lambda: conn.status == CLOSED, "the reconnect stopped")
    assert asked == [host.host_id]
    assert (conn.host, conn.port) == ("127.0.0.1", mitm_port)
    assert_told_nothing(mitm, conn)
    await conn.close()


async def test_following_the_host_by_zeroconf_to_a_forged_record_says_nothing_there(
        host, mitm_key):
    """The same with real discovery on loopback: someone announces a table under the host's
    identity and key (`host` and `fp` in its TXT record), at the machine in the middle's port,
    and the client's locator finds it there."""
    relay, mitm = RecordingRelay(host.address[1]), MachineInTheMiddle(mitm_key, host.address[1])
    forged = {"id": secrets.token_hex(4), "name": "Baker Street", "game": "holmes",
              "players": 2, "seats_taken": 1, "seats_free": 1, "phase": "playing"}
    advertiser = Advertiser(LOOPBACK)
    await advertiser.start()
    try:
        async with mitm as mitm_port, relay as relay_port:
            await advertiser.publish(forged, mitm_port, ["127.0.0.1"], host.key.fingerprint)
            conn = await seated(host, relay_port,
                                locate=locator(LOOPBACK, timeout=DISCOVERY_TIMEOUT))
            relay.server.close()
            await relay.server.wait_closed()
            relay.cut()
            await until(lambda: conn.status == CLOSED, "the reconnect stopped",
                        timeout=DISCOVERY_TIMEOUT * 2)
    finally:
        await advertiser.close()
    assert (conn.host, conn.port) == ("127.0.0.1", mitm_port)
    assert_told_nothing(mitm, conn)
    await conn.close()


async def test_a_code_never_replaces_the_key_met_where_a_seat_is_held(host, mitm_key):
    """Rejoining with the seat's token and a code, as `gaslight join --code` does for a player
    who holds a seat: the key kept with the seat is expected, and the code, which a machine in
    the middle may know (it was shown on the host's screen), does not override it."""
    table_id = host.create_table("timebomb", 5, bots=3)
    ann = await Connection.connect("127.0.0.1", host.address[1], name=NAME, table=table_id,
                                   code=host.table_code, reconnect=False)
    token, fingerprint = ann.token, ann.fingerprint
    assert fingerprint == host.key.fingerprint
    await ann.close()
    mitm = MachineInTheMiddle(mitm_key, host.address[1])
    async with mitm as port:
        with pytest.raises(HostKeyChanged, match=CHANGED_KEY):
            await Connection.connect("127.0.0.1", port, name=NAME, token=token,
                                     code=host.table_code, fingerprint=fingerprint)
    assert mitm.heard_any(token, NAME) == []


async def test_fetching_replays_checks_the_key_met_before_sending_the_tokens(host, mitm_key):
    table_id = host.create_table("holmes", 2, bots=1, start_when_full=True)
    ann = await Connection.connect("127.0.0.1", host.address[1], name=NAME, table=table_id,
                                   code=host.table_code, reconnect=False)
    await asyncio.wait_for(play(ann), TIMEOUT * 2)
    token, fingerprint = ann.token, ann.fingerprint
    await ann.close()
    mitm = MachineInTheMiddle(mitm_key, host.address[1])
    async with mitm as port:
        with pytest.raises(HostKeyChanged, match=CHANGED_KEY):
            conn = await Connection.connect("127.0.0.1", port, name=NAME, reconnect=False,
                                            code=host.table_code, fingerprint=fingerprint)
            await conn.send(ListReplays([token]))
    assert mitm.heard_any(token, NAME) == []

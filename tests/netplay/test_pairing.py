"""Protocol 3's trust (PROTOCOL.md, "Transport" and "Pairing"): the host's key, pairing by the
table code, pins, private tables, and a machine in the middle, all over real sockets."""

from __future__ import annotations

import asyncio
import stat

import pytest

from netplay.client import Connection, HostKeyChanged, HostRefused, NotPaired, WrongCode
from netplay.host import Host
from netplay.pairing import PAIR_FAILURES, read_code, show_code
from netplay.pins import KnownHosts
from netplay.frames import encode, message, read_message
from netplay.protocol import Error, Sit, TableList, Welcome
from netplay.transport import HostKey, client_context, identity, open_tls, peer_fingerprint
from support.relays import MachineInTheMiddle

from .conftest import TIMEOUT, next_of


async def test_the_host_key_is_owner_only_kept_across_restarts_and_makes_the_identity(tmp_path):
    first = Host(data_dir=tmp_path / "data")
    fingerprint, code = first.key.fingerprint, first.table_code
    assert first.host_id == identity(fingerprint) == fingerprint[:16]
    assert stat.S_IMODE(first.key.path.stat().st_mode) == 0o600
    assert first.key.path.parent == first.store.path.parent  # beside the store
    assert len(code) == 8 and code.isdigit()
    await first.start()
    await first.stop()
    again = Host(data_dir=tmp_path / "data")
    assert (again.key.fingerprint, again.table_code) == (fingerprint, code)
    await asyncio.to_thread(again.store.close)
    other = Host(data_dir=tmp_path / "elsewhere")
    assert other.key.fingerprint != fingerprint
    await asyncio.to_thread(other.store.close)


async def test_the_client_sees_the_fingerprint_the_host_has(host):
    reader, writer = await open_tls("127.0.0.1", host.address[1], TIMEOUT)
    assert peer_fingerprint(writer) == host.key.fingerprint
    assert writer.get_extra_info("ssl_object").version() == "TLSv1.3"
    writer.close()


async def test_first_pairing_pins_the_host_and_later_joins_need_no_code(host, tmp_path):
    pins = tmp_path / "seats" / "known_hosts.json"
    table_id = host.create_table("timebomb", 5, bots=3, start_when_full=True)
    with pytest.raises(NotPaired, match="is not paired with this computer yet") as refused:
        await Connection.connect("127.0.0.1", host.address[1], name="Ann",
                                 known_hosts=KnownHosts(pins))
    assert refused.value.host_id == host.host_id
    assert not host.connections.lobby_visitors()  # it said nothing: no hello, no name
    ann = await Connection.connect("127.0.0.1", host.address[1], name="Ann", table=table_id,
                                   code=show_code(host.table_code).replace("-", ""),
                                   known_hosts=KnownHosts(pins))
    assert stat.S_IMODE(pins.stat().st_mode) == 0o600
    assert KnownHosts(pins).pinned(host.host_id) == host.key.fingerprint
    # Another visit, from a new process's known hosts, with no code: the pin is enough.
    lobby = await Connection.connect("127.0.0.1", host.address[1], name="Ann again",
                                     known_hosts=KnownHosts(pins), reconnect=False)
    assert isinstance(await next_of(lobby, TableList), TableList)
    await lobby.close()
    await ann.close()


async def test_a_changed_key_is_refused_loudly_saying_what_to_do(host, tmp_path):
    pins = KnownHosts(tmp_path / "known_hosts.json")
    address = f"127.0.0.1:{host.address[1]}"
    impostor_key = HostKey(tmp_path / "other.pem").fingerprint
    pins.pin(impostor_key, address)  # the host that used to be at this address
    with pytest.raises(HostKeyChanged, match="has changed its key .* ask them for the table "
                                             "code and join with it"):
        await Connection.connect("127.0.0.1", host.address[1], name="Ann", known_hosts=pins)
    # With the code, pairing proves the host knows it: its new key replaces the old pin.
    conn = await Connection.connect("127.0.0.1", host.address[1], name="Ann", known_hosts=pins,
                                    code=host.table_code, reconnect=False)
    assert pins.expected_at(address) == host.key.fingerprint
    await conn.close()


async def test_a_wrong_code_fails_and_five_lock_the_address_out(host):
    for _ in range(PAIR_FAILURES):
        with pytest.raises(WrongCode, match="the table code is wrong"):
            await Connection.connect("127.0.0.1", host.address[1], name="Mallory",
                                     code=f"{(int(host.table_code) + 1) % 10 ** 8:08d}")
    with pytest.raises(HostRefused, match="too many wrong table codes"):
        await Connection.connect("127.0.0.1", host.address[1], name="Mallory",
                                 code=host.table_code)
    assert host.connections.lobby_visitors() == []


async def test_a_private_table_asks_the_code_of_every_join(host):
    private = host.create_table("timebomb", 5, bots=3, private=True, start_when_full=True)
    pins = KnownHosts()
    visitor = await Connection.connect("127.0.0.1", host.address[1], name="Ann",
                                       code=host.table_code, known_hosts=pins)
    listed = (await next_of(visitor, TableList)).tables
    assert [t["private"] for t in listed] == [True]
    await visitor.close()
    # Paired before, but without the code this time: refused, at its hello or at a sit.
    with pytest.raises(HostRefused, match=f"table {private} is private: its table code is "
                                          "needed"):
        await Connection.connect("127.0.0.1", host.address[1], name="Ann", table=private,
                                 known_hosts=pins)
    lobby = await Connection.connect("127.0.0.1", host.address[1], name="Ann", known_hosts=pins)
    await lobby.send(Sit(table=private))
    assert "private" in (await next_of(lobby, Error)).message
    await lobby.close()
    ann = await Connection.connect("127.0.0.1", host.address[1], name="Ann", table=private,
                                   code=host.table_code, known_hosts=pins)
    assert ann.seat == 0
    # Taking the seat back with its token asks the code too.
    token = ann.token
    await ann.close()
    with pytest.raises(HostRefused, match="private"):
        await Connection.connect("127.0.0.1", host.address[1], name="Ann", token=token,
                                 known_hosts=pins)
    back = await Connection.connect("127.0.0.1", host.address[1], name="Ann", token=token,
                                    code=host.table_code, known_hosts=pins)
    assert back.seat == 0
    await back.close()


async def test_only_a_paired_client_may_create_a_private_table(host):
    from netplay.protocol import CreateTable

    pins = KnownHosts()
    paired = await Connection.connect("127.0.0.1", host.address[1], name="Ann",
                                      code=host.table_code, known_hosts=pins)
    pinned = await Connection.connect("127.0.0.1", host.address[1], name="Bob",
                                      known_hosts=pins)
    await pinned.send(CreateTable("timebomb", 5, bots=3, private=True))
    assert "table code" in (await next_of(pinned, Error)).message
    await paired.send(CreateTable("timebomb", 5, bots=3, private=True))
    welcome = await next_of(paired, Welcome)
    while welcome.table is None:  # the lobby's welcome came first
        welcome = await next_of(paired, Welcome)
    assert host.tables[welcome.table].private
    await paired.close()
    await pinned.close()


async def test_a_machine_in_the_middle_cannot_pair_even_relaying_the_right_code(host, tmp_path):
    """A first join: the client pairs before it says a word, so the machine in the middle,
    which reads all the client sends it, learns neither its name nor its table."""
    table_id = host.create_table("timebomb", 5, bots=3, start_when_full=True)
    mitm = MachineInTheMiddle(HostKey(tmp_path / "mitm.pem"), host.address[1])
    async with mitm as port:
        with pytest.raises(WrongCode, match="the table code is wrong, or someone between you "
                                            "and the host"):
            await Connection.connect("127.0.0.1", port, name="Ann Onymous", table=table_id,
                                     code=host.table_code)
    assert mitm.heard  # it read the pairing message
    assert mitm.heard_any("Ann Onymous", table_id) == []
    # The host never seated anyone.
    assert host.tables[table_id].seats_taken() == 3


async def test_a_host_that_skips_the_pairing_is_not_trusted(tmp_path):
    key = HostKey(tmp_path / "fake.pem")

    async def fake_host(reader, writer):
        await read_message(reader)
        writer.write(encode(message("welcome", table=None, seat=None, token=None,
                                    spectator=False, host=key.identity)))
        await writer.drain()

    server = await asyncio.start_server(fake_host, "127.0.0.1", 0, ssl=key.server_context())
    port = server.sockets[0].getsockname()[1]
    with pytest.raises(WrongCode, match="did not pair when asked to"):
        await Connection.connect("127.0.0.1", port, name="Ann", code="12345678")
    server.close()


def test_codes_read_as_people_type_them():
    assert read_code("1234-5678") == read_code(" 1234 5678 ") == "12345678"
    assert show_code("12345678") == "1234-5678"
    for wrong in ("1234-567", "abcd-efgh", "123456789"):
        with pytest.raises(ValueError, match="8 digits"):
            read_code(wrong)


async def test_plain_tls_clients_of_a_table_that_is_not_private_need_no_code(host):
    """The code protects players from an impostor host; it does not keep anyone off a table
    that is not private (PROTOCOL.md, "Pairing")."""
    table_id = host.create_table("timebomb", 5, bots=3, start_when_full=True)
    reader, writer = await asyncio.open_connection("127.0.0.1", host.address[1],
                                                   ssl=client_context(),
                                                   server_hostname="gaslight")
    writer.write(encode(message("hello", name="Anyone", table=table_id)))
    assert (await asyncio.wait_for(read_message(reader), TIMEOUT))["t"] == "welcome"
    writer.close()

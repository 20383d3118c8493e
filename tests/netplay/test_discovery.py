"""Discovery: tables announced on zeroconf with public TXT facts, found, updated and lost by a
browser. Loopback only, or inside network namespaces the test creates and always removes:
nothing here announces or browses on the machine's real interfaces."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import textwrap

import pytest

from netplay.client import Connection, HostKeyChanged, NotPaired
from netplay.announcement import TXT_KEYS, txt_record
from netplay.discovery import Advertiser, TableBrowser, locator
from netplay.frames import PROTOCOL_VERSION
from netplay.host import Host
from netplay.pins import KnownHosts

LOOPBACK = ["127.0.0.1"]
DISCOVERY_TIMEOUT = 15.0


async def next_event(browser: TableBrowser, table_id: str, kind: str):
    """The next event of `kind` about `table_id`; other tests' tables may show up too."""
    async def find():
        async for event in browser:
            if event.table.id == table_id and event.kind == kind:
                return event.table

    return await asyncio.wait_for(find(), DISCOVERY_TIMEOUT)


async def test_loopback_table_appears_changes_and_vanishes(tmp_path):
    host = Host(data_dir=tmp_path / "data", advertise=True, interfaces=LOOPBACK)
    table_id = host.create_table("timebomb", 5, name="Baker Street", bots=2, seed=987654321,
                                 start_when_full=True)
    address = await host.start("127.0.0.1", 0)
    async with TableBrowser(interfaces=LOOPBACK) as browser:
        table = await next_event(browser, table_id, "added")
        assert (table.name, table.game, table.players, table.seats_taken, table.seats_free,
                table.phase, table.version) == ("Baker Street", "timebomb", 5, 2, 3, "waiting",
                                                 PROTOCOL_VERSION)
        assert (table.host, table.port, table.host_id) == (*address, host.host_id)

        ann = await Connection.connect(*address, code=host.table_code, name="Ann",
                                       table=table_id)
        table = await next_event(browser, table_id, "changed")
        assert (table.seats_taken, table.seats_free) == (3, 2)

        await ann.close()
        await host.stop()
        gone = await next_event(browser, table_id, "removed")
        assert gone.id == table_id


@contextlib.asynccontextmanager
async def advertiser_at_a_port():
    """An advertiser of the test's own, and something listening at the port it announces
    (browsers drop a host that does not answer): the advertiser and that port."""
    advertiser = Advertiser(LOOPBACK)
    await advertiser.start()
    listener = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    try:
        yield advertiser, listener.sockets[0].getsockname()[1]
    finally:
        await advertiser.close()
        listener.close()


async def test_a_phase_seen_before_is_announced_again(tmp_path):
    """Play again: `playing` after `over` repeats an earlier TXT record but for its `seq`, so
    browsers see the table playing again instead of keeping it `over`."""
    table_id = secrets.token_hex(4)
    fingerprint = secrets.token_hex(32)  # this test's own: tests on other workers share loopback
    summary = {"id": table_id, "name": "Again", "game": "holmes", "players": 2,
               "seats_taken": 2, "seats_free": 0, "phase": "playing"}
    async with advertiser_at_a_port() as (advertiser, port), \
            TableBrowser(interfaces=LOOPBACK) as browser:
        await advertiser.publish(summary, port, ["127.0.0.1"], fingerprint)
        assert (await next_event(browser, table_id, "added")).phase == "playing"
        await advertiser.publish({**summary, "phase": "over"}, port, ["127.0.0.1"], fingerprint)
        assert (await next_event(browser, table_id, "changed")).phase == "over"
        await advertiser.publish(summary, port, ["127.0.0.1"], fingerprint)
        again = await next_event(browser, table_id, "changed")
        assert (again.phase, again.seq) == ("playing", 2)


async def test_a_locator_finds_a_host_by_its_identity(tmp_path):
    host = Host(data_dir=tmp_path / "data", advertise=True, interfaces=LOOPBACK)
    host.create_table("timebomb", 5, name="Baker Street", bots=2, start_when_full=True)
    address = await host.start("127.0.0.1", 0)
    try:
        locate = locator(LOOPBACK, timeout=DISCOVERY_TIMEOUT)
        assert await locate(host.host_id) == address
        # An identity nobody announces: a fixed one could be another test's on loopback.
        assert await locator(LOOPBACK, timeout=1.0)(secrets.token_hex(8)) is None
    finally:
        await host.stop()


async def test_a_forged_record_claiming_a_paired_host_leads_nowhere(tmp_path):
    """Anyone on the LAN can announce anything. A record that names a host the player paired
    with (its identity and `fp`) but leads to another key is refused before the client says
    anything: at a new address the client asks for the table code, at the paired host's own
    address it says the key changed. The record's `fp` is never taken for a pin."""
    real = Host(data_dir=tmp_path / "real")
    real_address = await real.start("127.0.0.1", 0)
    known_hosts = KnownHosts(tmp_path / "player" / "known_hosts.json")
    ann = await Connection.connect(*real_address, name="Ann", code=real.table_code,
                                   known_hosts=known_hosts, reconnect=False)
    await ann.close()
    assert known_hosts.pinned(real.host_id) == real.key.fingerprint

    impostor = Host(data_dir=tmp_path / "impostor")
    impostor_address = await impostor.start("127.0.0.1", 0)
    table_id = impostor.create_table("timebomb", 5, name="Baker Street", bots=3,
                                     start_when_full=True)
    summary = impostor.tables[table_id].summary()
    advertiser = Advertiser(LOOPBACK)
    await advertiser.start()
    try:
        async with TableBrowser(interfaces=LOOPBACK) as browser:
            await advertiser.publish(summary, impostor_address[1], ["127.0.0.1"],
                                     real.key.fingerprint)
            forged = await next_event(browser, table_id, "added")
        assert (forged.host_id, forged.fingerprint) == (real.host_id, real.key.fingerprint)
        assert forged.port == impostor_address[1]
        with pytest.raises(NotPaired):
            await Connection.connect(forged.host, forged.port, name="Ann", table=forged.id,
                                     known_hosts=known_hosts, reconnect=False)
        assert impostor.tables[table_id].seats_taken() == 3  # the bots only: nobody sat

        # The impostor takes the paired host's own address: the pin there says who is expected.
        await real.stop()
        await impostor.stop()
        impostor = Host(data_dir=tmp_path / "impostor")
        await impostor.start(*real_address)
        with pytest.raises(HostKeyChanged):
            await Connection.connect(*real_address, name="Ann", known_hosts=known_hosts,
                                     reconnect=False)
        assert known_hosts.pinned(real.host_id) == real.key.fingerprint
    finally:
        await advertiser.close()
        await impostor.stop()
        await real.stop()


def test_txt_record_holds_only_public_facts():
    summary = {"id": "ab12cd34", "name": "Baker Street", "by": "Ann", "game": "timebomb",
               "players": 5, "seats_taken": 2, "seats_free": 3, "people": 1, "bots": 1,
               "phase": "playing", "options": {"first_player": "random", "claims": False}}
    record = txt_record(summary, "0123456789abcdef" * 4)
    assert tuple(record) == TXT_KEYS
    assert record == {"v": str(PROTOCOL_VERSION), "host": "0123456789abcdef",
                      "fp": "0123456789abcdef" * 4, "id": "ab12cd34",
                      "name": "Baker Street", "by": "Ann", "game": "timebomb", "players": "5",
                      "taken": "2",
                      "free": "3", "people": "1", "bots": "1", "phase": "playing",
                      "opts": "claims=false", "seq": "0"}


async def test_gaslight_host_and_tables_keep_to_gaslight_interfaces(tmp_path):
    # No --interface: both commands must take loopback from the environment alone.
    env = {**os.environ, "GASLIGHT_DATA_DIR": str(tmp_path / "data"),
           "GASLIGHT_INTERFACES": "127.0.0.1"}
    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--game", "timebomb", "--players", "6",
        "--bots", "1", "--name", "Diogenes Club",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env)
    try:
        banner = (await asyncio.wait_for(host.stdout.readline(), DISCOVERY_TIMEOUT)).decode()
        assert banner.startswith("Gaslight host listening on 127.0.0.1:"), banner
        address = banner.split()[-1]
        # Wide enough that no cell wraps, whatever other hosts' tables share the listing; ours
        # is the row with our host's address (another Gaslight may run a table of that name).
        listing = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", "tables", "--timeout", "2.5",
            stdout=asyncio.subprocess.PIPE, env={**env, "COLUMNS": "240"})
        out = (await asyncio.wait_for(listing.communicate(), DISCOVERY_TIMEOUT))[0].decode()
        line = next(line for line in out.splitlines() if address in line)
        assert "Diogenes Club" in line and "Time Bomb" in line and "5/6" in line  # as the lobby
        assert "timebomb" not in out and "'" not in line  # titles, not ids or Python quotes
    finally:
        host.send_signal(signal.SIGTERM)
        await host.wait()


# ---------------------------------------------------------------------------------------------
# Network namespaces: two hosts and a browser, each in its own namespace, on a bridge.

SUBNET = "10.203.77"
BROWSER_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys
    from netplay.discovery import TableBrowser

    async def main():
        async with TableBrowser(interfaces=[sys.argv[1]]) as browser:
            async for event in browser:
                t = event.table
                print(json.dumps({"kind": event.kind, "id": t.id, "name": t.name,
                                  "game": t.game, "players": t.players,
                                  "taken": t.seats_taken, "free": t.seats_free,
                                  "phase": t.phase, "host": t.host, "port": t.port}),
                      flush=True)

    asyncio.run(main())
    """
)


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def netns_available() -> str | None:
    """Why network namespaces cannot be used here, or None if they can."""
    if shutil.which("ip") is None:
        return "the ip command is missing"
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    probe = f"glprobe{secrets.token_hex(3)}"
    try:
        ip("netns", "add", probe)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        return f"ip netns add failed: {getattr(error, 'stderr', b'') or error}"
    ip("netns", "del", probe)
    return None


@contextlib.contextmanager
def bridged_namespaces():
    """Namespaces a and b wired through a bridge that lives in namespace c, the browser's.
    Nothing is created in the machine's own namespace, and everything is removed after."""
    tag = secrets.token_hex(3)
    names = {k: f"gl{tag}{k}" for k in "abc"}
    created = []
    try:
        for name in names.values():
            ip("netns", "add", name)
            created.append(name)
            ip("-n", name, "link", "set", "lo", "up")
        c = names["c"]
        ip("-n", c, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        ip("-n", c, "addr", "add", f"{SUBNET}.1/24", "dev", "br0")
        ip("-n", c, "link", "set", "br0", "up")
        for index, side in enumerate("ab", start=2):
            ns = names[side]
            ip("-n", c, "link", "add", f"v{side}", "type", "veth", "peer", "name", "eth0",
               "netns", ns)
            ip("-n", c, "link", "set", f"v{side}", "master", "br0", "up")
            ip("-n", ns, "addr", "add", f"{SUBNET}.{index}/24", "dev", "eth0")
            ip("-n", ns, "link", "set", "eth0", "up")
        yield names
    finally:
        for name in created:
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)


async def spawn_in(namespace: str, *argv: str, env: dict) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        "ip", "netns", "exec", namespace, sys.executable, *argv,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env)


@pytest.mark.netns
async def test_hosts_in_two_namespaces_are_found_by_a_browser_in_a_third(tmp_path):
    reason = netns_available()
    if reason:
        pytest.skip(reason)
    env = {**os.environ, "GASLIGHT_DATA_DIR": str(tmp_path / "data")}
    processes = []
    with bridged_namespaces() as ns:
        try:
            browser = await spawn_in(ns["c"], "-c", BROWSER_SCRIPT, f"{SUBNET}.1", env=env)
            processes.append(browser)
            hosts = {}
            for index, (side, players) in enumerate((("a", 5), ("b", 6)), start=2):
                address = f"{SUBNET}.{index}"
                process = await spawn_in(
                    ns[side], "-m", "tui.cli", "host", "--game", "timebomb", "--players",
                    str(players), "--bots", "1", "--name", f"Table {side.upper()}",
                    "--interface", address, "--data-dir", str(tmp_path / side), env=env)
                processes.append(process)
                banner = (await asyncio.wait_for(process.stdout.readline(), DISCOVERY_TIMEOUT))
                hosts[f"Table {side.upper()}"] = (process, banner.decode().split()[-1], players)

            seen: dict[str, dict] = {}

            async def until(predicate):
                while not predicate():
                    line = await browser.stdout.readline()
                    assert line, "the browser exited"
                    event = json.loads(line)
                    seen.setdefault(event["name"], {})[event["kind"]] = event

            await asyncio.wait_for(
                until(lambda: all("added" in seen.get(n, {}) for n in hosts)),
                DISCOVERY_TIMEOUT)
            for name, (_, address, players) in hosts.items():
                found = seen[name]["added"]
                assert f"{found['host']}:{found['port']}" == address
                assert (found["game"], found["players"], found["taken"], found["free"],
                        found["phase"]) == ("timebomb", players, 1, players - 1, "waiting")

            stopped, _, _ = hosts["Table A"]
            stopped.send_signal(signal.SIGTERM)
            await stopped.wait()
            await asyncio.wait_for(until(lambda: "removed" in seen["Table A"]),
                                   DISCOVERY_TIMEOUT)
            assert "removed" not in seen["Table B"]
        finally:
            for process in processes:
                if process.returncode is None:
                    process.kill()
                    await process.wait()


async def test_a_host_killed_without_a_goodbye_leaves_every_browser(tmp_path):
    """kill -9 sends no goodbye, and its records would stay cached for 75 minutes: the open
    browser drops the table within 10 s all the same, and one opened later agrees."""
    env = {**os.environ, "GASLIGHT_DATA_DIR": str(tmp_path / "data"),
           "GASLIGHT_INTERFACES": "127.0.0.1"}
    name = f"Ghost {secrets.token_hex(3)}"
    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--game", "timebomb", "--players", "5",
        "--name", name, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env=env)
    try:
        async with TableBrowser(interfaces=LOOPBACK) as browser:
            banner = (await asyncio.wait_for(host.stdout.readline(), DISCOVERY_TIMEOUT)).decode()
            table_id = (await host.stdout.readline()).decode().split()[1].rstrip(":")
            found = await next_event(browser, table_id, "added")
            assert (found.name, found.address) == (name, banner.split()[-1])
            host.kill()
            await host.wait()
            killed = asyncio.get_running_loop().time()
            gone = await next_event(browser, table_id, "removed")
            assert gone.id == table_id
            assert asyncio.get_running_loop().time() - killed < 10
            async with TableBrowser(interfaces=LOOPBACK) as fresh:
                await asyncio.sleep(2)
                assert table_id not in {t.id for t in fresh.tables.values()}
            assert table_id not in {t.id for t in browser.tables.values()}
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()


async def test_a_tables_records_heard_after_its_goodbye_do_not_list_it_again(tmp_path):
    """Issue 42's ghosts: a host's answer queued before its table closed can arrive after the
    table's goodbye, with the table's SRV and TXT records but no PTR. The browser took it for
    an announcement and listed the closed table again, while its host ran. The late answer is
    handed to the browser's zeroconf here as if it had come from the network."""
    from zeroconf import DNSIncoming, DNSOutgoing, DNSPointer, DNSService
    from zeroconf.const import _FLAGS_AA, _FLAGS_QR_RESPONSE

    table_id = secrets.token_hex(4)
    fingerprint = secrets.token_hex(32)
    summary = {"id": table_id, "name": "Closed", "game": "holmes", "players": 2,
               "seats_taken": 1, "seats_free": 1, "phase": "waiting"}
    async with advertiser_at_a_port() as (advertiser, port), \
            TableBrowser(interfaces=LOOPBACK) as browser:
        await advertiser.publish(summary, port, ["127.0.0.1"], fingerprint)
        await next_event(browser, table_id, "added")
        (name,) = [n for n, t in browser.tables.items() if t.id == table_id]
        cache = browser._zc.zeroconf.cache
        heard = [r for r in cache.async_entries_with_name(name)
                 if not isinstance(r, DNSPointer)]  # its SRV and TXT
        (server,) = {r.server for r in heard if isinstance(r, DNSService)}
        heard += cache.async_entries_with_name(server)  # its address
        await advertiser.withdraw(table_id)
        await next_event(browser, table_id, "removed")

        late = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
        for record in heard:
            late.add_answer_at_time(record, 0)
        for packet in late.packets():
            browser._zc.zeroconf.record_manager.async_updates_from_response(DNSIncoming(packet))
        with pytest.raises(TimeoutError):  # from the cache, it was listed at once
            await asyncio.wait_for(next_event(browser, table_id, "added"), 3.0)
        assert table_id not in {t.id for t in browser.tables.values()}

"""Zeroconf discovery: each table is a `_gaslight._tcp.local.` service, and a browser yields
tables appearing, changing and vanishing.

The TXT record (`netplay.announcement`) holds only public facts (protocol version, the host's
identity and its key's fingerprint, table id and name, game id, seats taken and free, how many
people and bots sit there, phase, the options that differ from the game's defaults), built from
the table's public summary and the host's fingerprint, nothing else.
Anyone on the LAN can announce anything: the identity and the fingerprint are hints for the
lobby, never trust. A client that connects still checks the host's key against its pin, or
pairs by the table code (PROTOCOL.md, "Pairing").

A host killed without a goodbye leaves its records in every browser's cache for as long as
their TTL says (75 minutes for a PTR). So a browser also checks, every few seconds, that each
host it lists still accepts a TCP connection, and forgets the tables of one that does not, cache
records included: an open lobby and a freshly opened one list the same tables.

`interfaces` is a list of IP addresses to announce and browse on. None means every interface,
which is what players on a LAN want; tests and development machines pass
`["127.0.0.1"]` or run inside network namespaces of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from dataclasses import dataclass
from typing import AsyncIterator, Final, Literal

from zeroconf import DNSPointer, DNSQuestionType, InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from netplay.announcement import DiscoveredTable, instance_name, read_options, txt_record
from netplay.protocol import MAX_NAME

log = logging.getLogger("gaslight.discovery")

SERVICE_TYPE: Final = "_gaslight._tcp.local."
RESOLVE_TIMEOUT_MS: Final = 3000
LIVENESS_INTERVAL: Final = 2.0
"""Seconds between two checks that a listed host still answers."""
LIVENESS_TIMEOUT: Final = 2.0
"""Seconds a host has to accept the check's connection. A refused connection is a dead host
at once; a host that does not answer in time is dead after two checks in a row (a busy one is
not dropped for one slow answer)."""
MISSES_ALLOWED: Final = 1
ASKED: Final = DNSQuestionType.QM
"""Every question asks for a multicast answer. zeroconf asks its first for a unicast one (QU),
sent to the asker's port 5353, which every mDNS program on a machine shares: the kernel hands
it to one of them only, maybe another app's, and a lobby that missed it heard of the tables at
its next question, 1, 4 or 9 s later (a fresh lobby took about 14 s to list a table on a
machine running other Gaslights). A multicast answer reaches every listener."""


def _zeroconf(interfaces: list[str] | None) -> AsyncZeroconf:
    if interfaces is None:
        return AsyncZeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
    version = IPVersion.All if any(":" in i for i in interfaces) else IPVersion.V4Only
    return AsyncZeroconf(interfaces=list(interfaces), ip_version=version)


def all_ipv4_addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine, for announcing on all interfaces."""
    import ifaddr  # a zeroconf dependency

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                found.append(ip.ip)
    return found or ["127.0.0.1"]


@dataclass(frozen=True)
class TableEvent:
    kind: Literal["added", "changed", "removed"]
    table: DiscoveredTable


def parse_service(info: AsyncServiceInfo) -> DiscoveredTable | None:
    """The table an announcement describes, or None if its record is not a Gaslight table's.

    Anyone on the LAN can announce anything, so every field is checked."""
    try:
        props = {
            k.decode("utf-8", "replace"): (v or b"").decode("utf-8", "replace")
            for k, v in info.properties.items()
        }
        addresses = info.parsed_addresses(IPVersion.V4Only) or info.parsed_addresses()
        if not addresses or not info.port:
            return None
        return DiscoveredTable(
            id=props["id"][:64],
            name=props.get("name", "")[:MAX_NAME],
            game=props["game"][:64],
            players=int(props["players"]),
            seats_taken=int(props["taken"]),
            seats_free=int(props["free"]),
            phase=props["phase"][:16],
            version=int(props["v"]),
            host=addresses[0],
            port=info.port,
            host_id=props.get("host", "")[:32],
            fingerprint=props.get("fp", "")[:64],
            seq=int(props.get("seq") or 0),
            people=int(props["people"]) if props.get("people") else None,
            bots=int(props["bots"]) if props.get("bots") else None,
            options=read_options(props.get("opts", "")),
            by=props.get("by", "")[:MAX_NAME],
        )
    except (KeyError, ValueError):
        return None


class Advertiser:
    """Announces tables on the chosen interfaces. Every call is cheap to repeat: `publish`
    registers a table the first time and updates its TXT record afterwards."""

    def __init__(self, interfaces: list[str] | None = None):
        self.interfaces = interfaces
        self._zc: AsyncZeroconf | None = None
        self._infos: dict[str, AsyncServiceInfo] = {}
        self._server = f"gaslight-{secrets.token_hex(4)}.local."
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        self._zc = _zeroconf(self.interfaces)

    async def publish(self, summary: dict, port: int, addresses: list[str],
                      fingerprint: str) -> None:
        async with self._lock:
            if self._zc is None:
                return
            old = self._infos.get(summary["id"])
            seq = 0 if old is None else int(old.properties[b"seq"]) + 1
            info = AsyncServiceInfo(
                SERVICE_TYPE,
                f"{instance_name(summary)}.{SERVICE_TYPE}",
                port=port,
                properties=txt_record(summary, fingerprint, seq),
                addresses=[socket.inet_pton(_family(a), a) for a in addresses],
                server=self._server,
            )
            if old is None:
                # No probing for a name conflict: the name ends in the table's random id, so a
                # conflict means a forger, whom probing would not stop (the record carries no
                # trust). Probing took about a second per table, one table at a time, so a
                # host that opened many tables was heard of a minute late.
                await self._zc.async_register_service(info, cooperating_responders=True)
            elif {**old.properties, b"seq": b""} != {**info.properties, b"seq": b""}:
                await self._zc.async_update_service(info)
            else:
                return  # nothing changed: the announcement stands
            self._infos[summary["id"]] = info

    async def withdraw(self, table_id: str) -> None:
        async with self._lock:
            info = self._infos.pop(table_id, None)
            if info is not None and self._zc is not None:
                goodbyes = await self._zc.async_unregister_service(info)
                await goodbyes

    async def close(self) -> None:
        async with self._lock:
            if self._zc is None:
                return
            zc, self._zc = self._zc, None
            if self._infos:
                with contextlib.suppress(Exception):
                    await zc.async_unregister_all_services()
            self._infos.clear()
            await zc.async_close()


def _family(address: str) -> int:
    return socket.AF_INET6 if ":" in address else socket.AF_INET


class TableBrowser:
    """An async iterator of `TableEvent`s for Gaslight tables on the chosen interfaces.

        async with TableBrowser(interfaces=["127.0.0.1"]) as browser:
            async for event in browser:
                ...

    `tables` holds the tables known now, by service name. A table is listed once its
    announcement is resolved, and only while it is still announced and its host answers.
    """

    def __init__(self, interfaces: list[str] | None = None,
                 liveness_interval: float = LIVENESS_INTERVAL):
        self.interfaces = interfaces
        self.liveness_interval = liveness_interval
        self.tables: dict[str, DiscoveredTable] = {}
        self._events: asyncio.Queue[TableEvent] = asyncio.Queue()
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task] = set()
        self._announced: dict[str, int] = {}
        """Every service announced and not withdrawn, with its generation: a resolution
        started before the service was withdrawn (or announced anew) is not listed."""
        self._generations = 0
        self._resolving: set[str] = set()
        self._misses: dict[tuple[str, int], int] = {}
        self._watch: asyncio.Task | None = None

    async def __aenter__(self) -> "TableBrowser":
        self._zc = _zeroconf(self.interfaces)
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_change], question_type=ASKED
        )
        self._watch = asyncio.get_running_loop().create_task(self._watch_hosts())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None

    def _on_change(self, zeroconf, service_type: str, name: str, state_change) -> None:
        if state_change is ServiceStateChange.Removed:
            self._announced.pop(name, None)
            self._drop(name)
            return
        if state_change is ServiceStateChange.Updated and name not in self._announced:
            # A service is announced by its PTR record (Added) alone. zeroconf also says
            # Updated when a SRV or TXT record of a name it has no PTR for arrives: an answer
            # its host queued before the table closed (answers go out 20-500 ms late,
            # gathered) and sent after the goodbye. Taken for an announcement, it listed the
            # closed table again, from the cache, for as long as its host ran.
            return
        self._generations += 1
        self._announced[name] = self._generations
        self._start_resolving(name)

    def _start_resolving(self, name: str) -> None:
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _drop(self, name: str) -> None:
        table = self.tables.pop(name, None)
        if table is not None:
            self._events.put_nowait(TableEvent("removed", table))

    async def _resolve(self, name: str) -> None:
        generation = self._announced.get(name)
        if self._zc is None or generation is None:
            return
        self._resolving.add(name)
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            found = await info.async_request(self._zc.zeroconf, RESOLVE_TIMEOUT_MS,
                                             question_type=ASKED)
        finally:
            self._resolving.discard(name)
        if not found or self._announced.get(name) != generation:
            # Not answered (the next check tries again), or withdrawn meanwhile.
            return
        table = parse_service(info)
        if table is None:
            log.info("ignored a malformed %s announcement", SERVICE_TYPE)
            return
        old = self.tables.get(name)
        if old is not None and table.seq < old.seq:
            return  # an older announcement, still in the cache
        self.tables[name] = table
        if old is None:
            self._events.put_nowait(TableEvent("added", table))
        elif old != table:
            self._events.put_nowait(TableEvent("changed", table))

    async def _watch_hosts(self) -> None:
        """Forever: drop the tables of every host that no longer answers, and resolve again
        the announcements that were not answered in time."""
        while True:
            await asyncio.sleep(self.liveness_interval)
            for name in self._announced.keys() - self.tables.keys() - self._resolving:
                self._start_resolving(name)
            places = {(t.host, t.port) for t in self.tables.values()}
            answers = await asyncio.gather(*(answers_at(*place) for place in places))
            for place, answer in zip(places, answers):
                if answer is True:
                    self._misses.pop(place, None)
                    continue
                misses = self._misses.get(place, 0) + 1
                if answer is False and misses <= MISSES_ALLOWED:
                    self._misses[place] = misses  # slow, maybe only busy: once more
                    continue
                self._misses.pop(place, None)
                for name, table in list(self.tables.items()):
                    if (table.host, table.port) == place:
                        self._forget(name)

    def _forget(self, name: str) -> None:
        """A table whose host is gone: unlisted, and its records out of the cache, so that
        the host, back again, is announced anew."""
        self._announced.pop(name, None)
        self._drop(name)
        if self._zc is None:
            return
        cache = self._zc.zeroconf.cache
        stale = [r for r in cache.async_entries_with_name(SERVICE_TYPE)
                 if isinstance(r, DNSPointer) and r.alias == name]
        cache.async_remove_records(stale + cache.async_entries_with_name(name))

    def __aiter__(self) -> AsyncIterator[TableEvent]:
        return self

    async def __anext__(self) -> TableEvent:
        return await self._events.get()


async def answers_at(host: str, port: int) -> bool | None:
    """Whether something accepts a TCP connection at host:port: True, None when it is
    refused (nobody listens there: a host that died), False when nothing came in time."""
    try:
        async with asyncio.timeout(LIVENESS_TIMEOUT):
            _, writer = await asyncio.open_connection(host, port)
    except asyncio.TimeoutError:
        return False
    except OSError:
        return None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


async def discover(interfaces: list[str] | None = None, timeout: float = 2.0,
                   stop: asyncio.Event | None = None) -> list[DiscoveredTable]:
    """The tables announced within `timeout` seconds, or until `stop` is set, for
    `gaslight tables`."""
    async with TableBrowser(interfaces) as browser:
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(timeout):
                await (stop or asyncio.Event()).wait()
        return sorted(browser.tables.values(), key=lambda t: (t.name, t.id))


def locator(interfaces: list[str] | None = None, timeout: float = 3.0):
    """A `locate` for `netplay.client.Connection`: where the host with a given identity
    announces a given table now, found by browsing for up to `timeout` seconds. Several hosts
    may share one identity (one person's tables share their key), so the table decides; with
    no table, or none announced in time, the identity alone does, if one address has it."""

    async def locate(host_id: str, table: str | None = None) -> tuple[str, int] | None:
        async with TableBrowser(interfaces) as browser:
            async def find() -> tuple[str, int]:
                while True:
                    for found in browser.tables.values():
                        if found.host_id == host_id and table in (None, found.id):
                            return found.host, found.port
                    await browser.__anext__()

            try:
                async with asyncio.timeout(timeout):
                    return await find()
            except asyncio.TimeoutError:
                places = {(t.host, t.port) for t in browser.tables.values()
                          if t.host_id == host_id}
                return places.pop() if len(places) == 1 else None

    return locate

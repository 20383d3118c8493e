"""Keeps the LAN's picture of one host's tables current, through zeroconf (`netplay.discovery`).

A zeroconf registration probes the network for a second or more, and the advertiser makes one
announcement at a time. Announcing every change in turn queued them behind a busy host (tables
playing, ending and starting again), so the LAN heard of a change minutes late and a stopping
host waited for the whole queue. So only the latest facts of each table wait here: a table that
changes again before its turn is announced once, as it is then, and stopping drops what waits
(closing the advertiser says goodbye for every table at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("gaslight.host")


class Announcer:
    @classmethod
    async def open(cls, interfaces: list[str] | None, address: tuple[str, int],
                   fingerprint: str) -> "Announcer":
        """An announcer for a host listening at `address`, on `interfaces` (None: all)."""
        from netplay.discovery import Advertiser

        advertiser = Advertiser(interfaces)
        await advertiser.start()
        announcer = cls(advertiser, address[1],
                        lambda: advertised_addresses(address[0], interfaces), fingerprint)
        announcer._task = asyncio.get_running_loop().create_task(announcer._run())
        return announcer

    def __init__(self, advertiser: Any, port: int, addresses: Callable[[], list[str]],
                 fingerprint: str) -> None:
        self.advertiser = advertiser
        self.port = port
        self.addresses = addresses
        self.fingerprint = fingerprint
        """The host key's, which each record carries (with the identity made from it)."""
        self._due: dict[str, dict | None] = {}
        """Per table, its latest summary to publish, or None to withdraw it; oldest first."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    def publish(self, summary: dict) -> None:
        self._due.pop(summary["id"], None)  # to the back of the queue, as it is now
        self._due[summary["id"]] = summary
        self._wake.set()

    def withdraw(self, table_id: str) -> None:
        self._due.pop(table_id, None)
        self._due[table_id] = None
        self._wake.set()

    @property
    def waiting(self) -> int:
        """Announcements not made yet."""
        return len(self._due)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._due:
                table_id = next(iter(self._due))
                summary = self._due.pop(table_id)
                try:
                    if summary is None:
                        await self.advertiser.withdraw(table_id)
                    else:
                        await self.advertiser.publish(summary, self.port, self.addresses(),
                                                      self.fingerprint)
                except Exception as error:  # the LAN is a courtesy: play goes on without it
                    log.warning("could not announce table %s: %s", table_id, error)

    async def close(self) -> None:
        """Drop what waits and say goodbye for every table."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._due.clear()
        await self.advertiser.close()


def advertised_addresses(bound: str, interfaces: list[str] | None) -> list[str]:
    """The addresses a host listening on `bound` is reached at, to announce."""
    if bound not in ("0.0.0.0", "::", ""):
        return [bound]
    if interfaces:
        return list(interfaces)
    from netplay.discovery import all_ipv4_addresses

    return all_ipv4_addresses()

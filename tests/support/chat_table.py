"""A Time Bomb table on 127.0.0.1 that records what one player says: for typing into a real
app (a terminal's, a browser page's) and checking that each line arrived as typed.

Four seats: the player whose lines are recorded, a listening client that records them, and two
bots that play on meanwhile (the player is offered a claim at each deal and has cuts to make,
so dialogs open and close under the keys).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import ChatLine

ARRIVAL = 10.0
"""Seconds a line may take to reach the listener before it counts as lost."""


class ChatTable:
    def __init__(self, data: Path, speaker: str, *, advertise: bool = False) -> None:
        """`advertise`: announced on loopback, so that a page's lobby lists it."""
        # People may chat as fast as they like here: what is measured is the keys.
        limits = HostLimits(chat_burst=1000, chat_per_second=1000.0, bot_delay=0.5)
        self.host = Host(data_dir=data, limits=limits, advertise=advertise,
                         interfaces=["127.0.0.1"])
        self.speaker = speaker
        self.heard: list[str] = []
        self.arrived = asyncio.Event()
        self.name = f"Typing {os.getpid()}-{id(self) % 10000}"

    async def start(self) -> None:
        await self.host.start("127.0.0.1", 0)
        # An option changed, so the lobby's hint names this table when its row is highlighted
        # (other tables may be listed on loopback too: `sit_in_the_page` goes by the hint).
        self.table = self.host.create_table("timebomb", 4, {"first_player": 0}, name=self.name,
                                            bots=2, start_when_full=True)
        self.listener = await Connection.connect("127.0.0.1", self.port, name="Lis",
                                                 table=self.table, code=self.code)
        self.listening = asyncio.create_task(self.listen())

    @property
    def port(self) -> int:
        return self.host.address[1]

    @property
    def code(self) -> str:
        return self.host.table_code

    async def listen(self) -> None:
        async for message in self.listener:
            if isinstance(message, ChatLine) and message.sender == self.speaker:
                self.heard.append(message.text)
                self.arrived.set()

    async def until_heard(self, count: int) -> None:
        """Until `count` lines have arrived, or ARRIVAL seconds went by without."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(ARRIVAL):
                while len(self.heard) < count:
                    self.arrived.clear()
                    await self.arrived.wait()

    async def stop(self) -> None:
        self.listening.cancel()
        await self.listener.close()
        await self.host.stop()


async def sit_in_the_page(guest, table: ChatTable, name: str, rows: int = 40) -> None:
    """A new page's guest names themself, finds `table` in the lobby (the hint names the
    highlighted table), joins it with its code and waits for the game."""
    await guest.give_name(name)
    await guest.wait_for(table.name, timeout=60)
    screen = await guest.act("Home")
    for _ in range(rows):  # other tables may be listed on loopback too
        if f"{table.name}:" in screen:
            break
        screen = await guest.act("ArrowDown")
    else:
        raise AssertionError(f"the cursor never reached {table.name}; the page shows:\n{screen}")
    await guest.act("Enter")
    await guest.wait_for(f"Table code for 127.0.0.1:{table.port}")
    await guest.type(table.code)
    await guest.press("Enter")
    await guest.wait_for("Role", timeout=60)


async def say_in_the_page(guest, table: ChatTable, lines) -> None:
    """Each line said at `table` from the page, half typed with no delay between keys and half
    inserted at once as a phone keyboard or an input method does, each with its Enter, the
    next once the table heard it."""
    for n, line in enumerate(lines, 1):
        if n % 2:
            await guest.page.keyboard.type(line, delay=0)
        else:
            await guest.page.keyboard.insert_text(line)
        await guest.press("Enter")
        await table.until_heard(n)

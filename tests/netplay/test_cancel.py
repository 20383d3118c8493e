"""A task that waits on the network and is cancelled stays cancelled, and loses nothing.

On Python 3.11, `asyncio.wait_for` returns the inner result and drops the cancellation when
both land in the same turn of the loop (CPython gh-86296): the capacity benchmark cancelled
its players, one of them went on playing, and the run hung. The code uses `asyncio.timeout`,
which runs the wait in the task itself.
"""

from __future__ import annotations

import ast
import contextlib
import asyncio
from pathlib import Path

import pytest

from netplay.client import Connection, Status

from .conftest import TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "netplay", "tui", "benchmarks")


async def test_a_cancelled_wait_for_the_next_message_stays_cancelled_and_keeps_the_message(host):
    """Whatever turn of the loop the cancel comes in after the message arrives, the waiting
    task either got the message before the cancel (which then does nothing), or ends
    cancelled with the message still waiting for the next reader."""
    conn = await Connection.connect("127.0.0.1", host.address[1], name="Ann", reconnect=False,
                                    code=host.table_code)
    try:
        with contextlib.suppress(TimeoutError):
            while True:  # the welcome and whatever else a lobby connection hears first
                await conn.next_message(0.2)
        outcomes = []
        for turns in range(8):
            arrived = Status(f"marker {turns}")
            waiting = asyncio.create_task(conn.next_message(TIMEOUT))
            await asyncio.sleep(0)  # it waits on the inbox now
            conn._inbox.put_nowait(arrived)  # what the reading task does with a message
            for _ in range(turns):
                await asyncio.sleep(0)
            if waiting.cancel():
                with pytest.raises(asyncio.CancelledError):
                    await waiting
                assert conn._inbox.get_nowait() is arrived
                outcomes.append("cancelled")
            else:
                assert waiting.result() is arrived
                outcomes.append("received")
        # Both ends of the race came up: the cancel landed before and after the hand-over.
        assert {"cancelled", "received"} <= set(outcomes)
    finally:
        await conn.close()


def wait_for_calls(path: Path) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(path.read_text(), str(path)))
            if isinstance(node, ast.Attribute) and node.attr == "wait_for"
            and isinstance(node.value, ast.Name) and node.value.id == "asyncio"]


def test_no_code_waits_with_asyncio_wait_for():
    """The idiom is `async with asyncio.timeout(...)`, everywhere, for the reason above."""
    found = {str(path.relative_to(ROOT)): lines
             for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if (lines := wait_for_calls(path))}
    assert found == {}

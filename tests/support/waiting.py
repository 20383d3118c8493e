"""Waiting until something holds, once for every test: on the event loop (`until`), in a
Pilot flow (`until_shown`), or woken by the app's messages (`support.flows.Waiter`). Each
fails with an AssertionError that names what it waited for, so a test never hangs the suite."""

from __future__ import annotations

import asyncio
import contextlib

TIMEOUT = 20.0
"""Seconds a test waits before it fails."""


@contextlib.asynccontextmanager
async def failing_after(timeout: float, what: str, then=lambda: ""):
    """The body may take `timeout` seconds; after that the test fails, naming `what` and what
    `then()` tells of the moment it gave up."""
    try:
        async with asyncio.timeout(timeout):
            yield
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout} s waiting: {what}{then()}") from None


async def until(predicate, what: str, timeout: float = TIMEOUT, every: float = 0.005):
    """`predicate()`'s first true result, checked every `every` seconds."""
    async with failing_after(timeout, what):
        while not (result := predicate()):
            await asyncio.sleep(every)
    return result


async def until_shown(pilot, predicate, what: str, timeout: float = TIMEOUT):
    """`predicate()`'s first true result, the app given a pause to draw between checks."""
    async with failing_after(timeout, what,
                             lambda: f" (on top: {type(pilot.app.screen).__name__})"):
        while not (result := predicate()):
            await pilot.pause(0.02)
    return result

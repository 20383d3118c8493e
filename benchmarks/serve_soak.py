"""`gaslight serve` held against a hostile LAN for 2 minutes, beside 10 real pages (issue 45).

    uv run python benchmarks/serve_soak.py [--seconds 120] [--words 4]

Ten guests open the page in Chromium and each opens Ctrl+R's name box. Their key to screen (a
letter typed there, as `browser.py` times it) is measured first against the server alone, then
for `--seconds` while attackers from four other addresses come and go: guests who open the
page and leave (closing or dropping the connection), floods of the largest messages a page may
send, pages that ask for a huge screen and stop reading, sockets that never greet, and
connections that never finish a request. Then everyone leaves.

Printed: the apps left running at the end (every app the server ran, by pid; goal 0), the
sessions the server still counts (goal 0), the server's memory (RSS) before and after, and the
real pages' key-to-screen p99 under attack against the idle server's (goal <= 1.5x). The
server runs with the limits an owner gets; every server listens on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).parent))

from browser import asked_name, milliseconds, percentile, rss_kib, type_word  # noqa: E402
from hostile.serve_attack import (SHORT, RawGuest, alive, masked_text_frame,  # noqa: E402
                                  start)
from playwright.async_api import async_playwright  # noqa: E402
from support.browser import launch  # noqa: E402

from tui.serve.limits import ServeLimits  # noqa: E402

PAGES = 10
ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]
TARGET_RATIO = 1.5
DEFAULTS = {name: getattr(ServeLimits(), name) for name in SHORT}
"""The deadlines an owner gets, not the tests' short ones."""


class Attack:
    """The attackers' loops, until `until`; every app the server ran is noted as it goes."""

    def __init__(self, attacked, until: float) -> None:
        self.attacked = attacked
        self.until = until
        self.limits = ServeLimits()
        self.apps_seen: set[int] = set()
        self.done: dict[str, int] = {}

    def running(self) -> bool:
        return time.monotonic() < self.until

    def count(self, what: str) -> None:
        self.done[what] = self.done.get(what, 0) + 1

    async def watch_apps(self) -> None:
        while self.running():
            self.apps_seen.update(await asyncio.to_thread(self.attacked.apps))
            await asyncio.sleep(0.5)

    async def keep_coming(self, source: str, what: str, visit) -> None:
        """New guests from `source`, one after another until the attack ends, each getting
        the page and then doing `visit(guest)` with it."""
        while self.running():
            with contextlib.suppress(Exception):
                async with RawGuest(self.attacked.url, source) as guest:
                    if (await guest.visit())[0] != 200:  # full: try again in a moment
                        await asyncio.sleep(1)
                        continue
                    await visit(guest)
                    self.count(what)

    async def arrive_and_leave(self, guest: RawGuest) -> None:
        websocket = await guest.socket()
        await asyncio.sleep(random.uniform(1, 5))
        if random.random() < 0.5:
            await websocket.close()
        else:  # gone without a word, as a phone leaving the LAN
            websocket.get_extra_info("socket").shutdown(socket.SHUT_RDWR)

    async def flood(self, guest: RawGuest) -> None:
        burst = '["stdin", "' + "\\t" * (self.limits.stdin_message - 20) + '"]'
        websocket = await guest.socket()
        ends = time.monotonic() + random.uniform(5, 15)
        while time.monotonic() < ends and self.running():
            await websocket.send_str(burst)

    async def stall(self, guest: RawGuest) -> None:
        writer = await guest.stalled_socket(10_000, 10_000, [["ping", "0"]])
        for step in range(400):
            if not self.running():
                break
            width = 10_000 if step % 2 else self.limits.columns - 1
            writer.write(masked_text_frame(json.dumps(
                ["resize", {"width": width, "height": 10_000}]).encode()))
            await asyncio.sleep(0.1)
        writer.close()

    async def say_nothing(self, guest: RawGuest) -> None:
        websocket = await guest.socket(greet=False)
        await websocket.receive(timeout=self.limits.first_message + 10)

    async def half_open(self, source: str) -> None:
        while self.running():
            with contextlib.suppress(Exception):
                held = [await asyncio.open_connection(self.attacked.url.split("//")[1]
                                                      .split(":")[0], self.attacked.port,
                                                      local_addr=(source, 0))
                        for _ in range(20)]
                await asyncio.sleep(self.limits.request_deadline + 1)
                for _, writer in held:
                    writer.close()
                self.count("half-open connections")

    async def run(self) -> None:
        first, second, third, fourth = ATTACKERS
        loops = [self.watch_apps(), self.half_open(fourth),
                 self.keep_coming(first, "guests who came and went", self.arrive_and_leave),
                 self.keep_coming(second, "guests who came and went", self.arrive_and_leave),
                 self.keep_coming(second, "floods", self.flood),
                 self.keep_coming(third, "pages that stopped reading", self.stall),
                 self.keep_coming(fourth, "sockets that never greeted", self.say_nothing)]
        await asyncio.gather(*loops)


async def typing(guests, words: int) -> list[float]:
    samples = []
    for word in range(words):
        samples += await type_word(guests[word % len(guests)])
    return samples


async def soak(args: argparse.Namespace) -> None:
    attacked = start(Path(tempfile.mkdtemp(prefix="gaslight-soak-serve-")) / "serve",
                     "--max-sessions", str(PAGES + 8), "--per-device", str(PAGES),
                     limits=DEFAULTS)
    print(f"gaslight serve at {attacked.url}, the limits an owner gets, "
          f"{PAGES + 8} sessions at most", flush=True)
    rss_alone = rss_kib(attacked.pid)
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            guests = [await asked_name(browser, attacked.url, f"Guest {n + 1}")
                      for n in range(PAGES)]
            idle = await typing(guests, args.words * PAGES)
            rss_pages = rss_kib(attacked.pid)
            print(f"idle server, {PAGES} pages: key to screen {milliseconds(idle)}", flush=True)

            attack = Attack(attacked, time.monotonic() + args.seconds)
            attacking = asyncio.create_task(attack.run())
            attacked_samples = []
            while attack.running():
                attacked_samples += await typing(guests, PAGES)
            await attacking
            print(f"under attack ({args.seconds:.0f} s): key to screen "
                  f"{milliseconds(attacked_samples)}", flush=True)
            for what, count in attack.done.items():
                print(f"  {count} {what}")
            attack.apps_seen.update(attacked.apps())
            await browser.close()

        # Every page and attacker is gone: the last app has its grace, then is killed.
        await asyncio.sleep(ServeLimits().exit_grace + 5)
        left = sorted(pid for pid in attack.apps_seen if alive(pid))
        rss_end = rss_kib(attacked.pid)
        ratio = percentile(attacked_samples, 0.99) / percentile(idle, 0.99)
        print(f"apps run: {len(attack.apps_seen)}; left running at the end: {len(left)} "
              f"(goal 0){': ' + str(left) if left else ''}")
        print(f"sessions the server still counts: {attacked.sessions()} (goal 0)")
        print(f"server memory (RSS): {rss_alone / 1024:.1f} MiB alone, "
              f"{rss_pages / 1024:.1f} MiB with {PAGES} pages, {rss_end / 1024:.1f} MiB at the "
              f"end: {(rss_end - rss_pages) / 1024:+.1f} MiB over the attack")
        print(f"key to screen p99 under attack / idle: {ratio:.2f}x "
              f"(goal <= {TARGET_RATIO}x)")
        print(f"lines in the server's log: {len(attacked.log().splitlines())}, "
              f"tracebacks: {attacked.log().count('Traceback')}")
    finally:
        attacked.stop()
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="how long the attack lasts (default 120)")
    parser.add_argument("--words", type=int, default=4,
                        help="words each page types for the idle figure (default 4)")
    asyncio.run(soak(parser.parse_args()))


if __name__ == "__main__":
    main()

"""`gaslight serve` in a real browser: Debian's Chromium, headless, driven by Playwright, each
guest's page read from the xterm.js terminal that draws it (`support.browser`).

Every server listens on 127.0.0.1. The tests run one after another (one xdist group): each
starts a server, a browser and an app process per page, which is all two cores take at once.
"""

from __future__ import annotations

import asyncio
import itertools
import os

import pytest
from support.browser import CHROMIUM, Guest, launch, start_serve

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
                allow_module_level=True)

from playwright.async_api import Error as BrowserError  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")

LAPTOP = {"width": 1000, "height": 600}
PHONE_LANDSCAPE = {"width": 844, "height": 390}
"""A phone on its side (CSS pixels)."""


@pytest.fixture
def serve(tmp_path):
    """Starts `gaslight serve` with the given arguments; every server stops after the test,
    and none may leave an app process behind."""
    started = []

    def start(*arguments: str):
        served = start_serve(tmp_path / f"serve-{len(started)}", *arguments)
        started.append(served)
        return served

    yield start
    for served in started:
        apps = served.app_processes()
        served.stop()
        assert not [pid for pid in apps if alive(pid)], "an app outlived its server"


@pytest.fixture
async def browser():
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()


async def guest_context(browser, viewport=LAPTOP):
    """A browser of its own: its own cookies, so a guest of its own."""
    return await browser.new_context(ignore_https_errors=True, viewport=viewport)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def until(predicate, what: str, timeout: float = 15.0):
    async with asyncio.timeout(timeout):
        while not (result := predicate()):
            await asyncio.sleep(0.1)
    return result


async def test_two_pages_are_two_guests_each_with_their_name(serve, browser, tmp_path):
    """Each page gets its own app, asks its own name and keeps it; the guest id is an
    HttpOnly, Secure cookie, and each guest's directory is owner-only."""
    served = serve()
    assert served.url.startswith("https://127.0.0.1:")
    ann_browser, bob_browser = await guest_context(browser), await guest_context(browser)
    ann = await Guest.open(ann_browser, served.url)
    bob = await Guest.open(bob_browser, served.url)
    await ann.give_name("Ann")
    await bob.give_name("Bob")
    assert "Bob" not in await ann.screen() and "Ann" not in await bob.screen()
    assert len(served.app_processes()) == 2

    (cookie,) = await ann_browser.cookies()
    assert (cookie["name"], cookie["httpOnly"], cookie["secure"]) == ("gaslight_guest", True,
                                                                      True)
    assert cookie["value"] != (await bob_browser.cookies())[0]["value"]
    guests = sorted((tmp_path / "serve-0" / "guests").iterdir())
    assert len(guests) == 2 and all(g.stat().st_mode & 0o077 == 0 for g in guests)

    await ann.page.reload()
    ann = Guest(ann.page)
    await ann.page.wait_for_function("() => window.gaslightTerminal")
    await ann.wait_for("Playing as Ann")  # not asked again
    await until(lambda: len(served.app_processes()) == 2, "the reloaded page's old app to end")


async def test_a_time_bomb_game_against_bots_to_its_end_with_a_chat_line(serve, browser):
    """Quick play from a page at the bots' fastest pace, every move by key, to the end."""
    served = serve()
    ann = await Guest.open(await guest_context(browser), served.url)
    await ann.give_name("Ann")
    await ann.press("Control+g")
    await ann.wait_for("Play against bots")
    await ann.press("1")  # Time Bomb
    screen = await ann.wait_for("Bot pace")
    for _ in range(10):  # Tab to the bots' pace
        if "▸ Bot pace" in screen:
            break
        screen = await ann.act("Tab")
    await ann.act("Enter")  # the pace's list
    await ann.act("ArrowUp")
    await ann.act("Enter")
    await ann.wait_for("▸ Bot pace          Fast")
    await ann.act("Tab")
    await ann.press("Enter")  # Play
    await ann.wait_for("Ann (you)")
    await play_time_bomb_to_the_end(ann, say="good luck, detectives")


async def play_time_bomb_to_the_end(guest: Guest, say: str) -> str:
    """Claim what the offer highlights (the guest's own wires); on each turn, cut a wire of
    the next other player in turn (one with none left refuses, and the next is asked). `say`
    goes to the chat the first time no dialog is open. Returns the end screen."""
    others = itertools.cycle("2345")
    deadline = asyncio.get_running_loop().time() + 180
    while asyncio.get_running_loop().time() < deadline:
        screen = await guest.screen()
        if "You won" in screen or "You lost" in screen:
            return screen
        if say and "⏎ Cut" in screen:
            await guest.type(say)
            await guest.press("Enter")
            await guest.wait_for(f"Ann: {say}")
            await guest.act("Escape")  # the keyboard back to the table
            say = ""
        elif "Enter: claim it" in screen:
            await guest.act("Enter")
        elif "face-down wires:" in screen:
            await guest.act("1")
            await guest.act("Enter")
        elif "your cut" in screen:
            # One key at a time, as a person types: a digit and Enter in one burst would
            # read as a sentence for the chat.
            await guest.act(next(others))
            await guest.act("Enter")
        else:
            await asyncio.sleep(0.1)
    raise AssertionError(f"the game is not over; the page shows:\n{screen}")

"""A guest with only a phone (issue 43): `gaslight serve` in Debian's Chromium with Playwright's
phone emulation (a phone's viewport, a finger's pointer, no physical keyboard), driven by taps
on the terminal's cells and the text a phone's keyboard inserts, and its Enter.

Every server and host listens on 127.0.0.1: the page's address is the loopback the test asked
for. The tests run one after another (one xdist group), each as short as its game allows:
the bots play fast.
"""

from __future__ import annotations

import re
import secrets

import pytest
from support.browser import CHROMIUM, PHONE, PHONE_ON_ITS_SIDE, Guest, launch, start_serve

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
                allow_module_level=True)

from playwright.async_api import async_playwright  # noqa: E402
from support.qr_reading import code_on, read_png, read_text  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")

NAME_ASKED = "What name should the other players see?"


@pytest.fixture
def served(tmp_path):
    served = start_serve(tmp_path / "serve")
    yield served
    served.stop()


@pytest.fixture
async def browser():
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()


async def phone(browser, url: str, device=PHONE) -> Guest:
    context = await browser.new_context(ignore_https_errors=True, **device)
    return await Guest.open(context, url)


async def named(guest: Guest, name: str) -> None:
    """The name a phone's keyboard gives: its text, then its Enter."""
    await guest.wait_for(NAME_ASKED)
    await guest.insert(name)
    await guest.press("Enter")
    await guest.wait_for(f"Playing as {name}")


async def test_the_code_gaslight_serve_prints_opens_the_page_on_a_phone(served, browser):
    """The QR code in the server's output reads back as the address it printed, and a phone
    opening it gets a page laid out for its width: 46 columns of a readable font, the whole
    lobby, no too-small notice, and buttons for keys, tapped (its name typed by its keyboard;
    `?` then shows the code again, which reads back from the page's pixels)."""
    (address,) = read_text(code_on("\n".join(served.output)))
    assert address == served.url
    guest = await phone(browser, address)
    await named(guest, "Ann")
    columns, rows = await guest.size()
    assert 46 <= columns < 60 and rows >= 40  # the narrow layouts, at a readable size
    font = await guest.page.evaluate("() => document.getElementById('terminal').dataset.fontSize")
    assert int(font) >= 13
    screen = await guest.screen()
    assert "too small" not in screen and "Tables on your network" in screen
    assert "Play vs bots" in screen and "^g" not in screen  # a button, named in words
    screen = await guest.tap("Keys")
    assert "Keys you can use here now" in screen
    await guest.act("End")  # the code is under the keys
    code = await guest.page.screenshot(scale="css")
    assert read_png(code) == [address]
    screen = await guest.tap("Close", last=True)
    assert "Keys you can use here now" not in screen

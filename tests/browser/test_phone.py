"""A guest with only a phone (issue 43): `gaslight serve` in Debian's Chromium with Playwright's
phone emulation (a phone's viewport, a finger's pointer, no physical keyboard), driven by taps
on the terminal's cells and the text a phone's keyboard inserts, and its Enter.

Every server and host listens on 127.0.0.1: the page's address is the loopback the test asked
for. The tests run one after another (one xdist group), each as short as its game allows:
the bots play fast.
"""

from __future__ import annotations

import asyncio
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
    await guest.tap_for("Keys", "Keys you can use here now")
    await guest.act("End")  # the code is under the keys
    code = await guest.page.screenshot(scale="css")
    assert read_png(code) == [address]
    screen = await guest.tap("Close", last=True)
    assert "Keys you can use here now" not in screen


SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 800}}


async def bots_table(guest: Guest) -> str:
    """A Time Bomb table against bots, the guest cutting first, reached by taps alone: the
    screen at the claim offer of the first deal."""
    await guest.tap_for("Play vs bots", "random")
    await guest.tap_for("random", "seat 1")  # the first cutter's list opens
    await guest.tap("seat 1")
    await guest.tap("Play  ")  # the dialog's button, not its title
    return await guest.wait_for("dealt: claim?", timeout=90)


async def first_line_under(guest: Guest, title: str) -> tuple[str, int]:
    """The words of a dialog's first line in view, once it has held still (the offer scrolls
    to its true line as it opens), and its row: the bots' claims in the log use its words."""
    seen = None
    for _ in range(40):
        lines = (await guest.screen()).splitlines()
        at = next(i for i, line in enumerate(lines) if title in line) + 1
        line = (lines[at].strip("│ ").removesuffix("← true").strip(), at)
        if line == seen:
            return line
        seen = line
        await asyncio.sleep(0.3)
    raise AssertionError(f"the line under {title!r} never held still")


@pytest.mark.parametrize("device", [PHONE, SMALL_PHONE], ids=["390x844", "360x800"])
async def test_a_time_bomb_game_on_an_upright_phone_is_played_by_taps(served, browser, device):
    """Every action a tap, every panel in view: the claim (a tap on its line), the chat from
    the phone's keyboard with its Enter, hiding the hand, the rules, the keys, a cut (a tap on
    a player, then on a wire) and leaving, on a page with no physical keyboard."""
    guest = await phone(browser, served.url, device)
    await named(guest, "Ann")
    screen = await bots_table(guest)
    assert "too small" not in screen
    for name in ("Ann (you)", "Bot 2", "Bot 3", "Bot 4", "Bot 5"):
        assert name in screen  # the whole table, above its log
    assert "Role: ☂" in screen or "Role: ♠" in screen
    assert re.search(r"Wires: .*(Safe|Defusing|Bomb)", screen)
    assert "No claim" in screen and "^" not in screen.splitlines()[-1]  # buttons, not keys

    claim, row = await first_line_under(guest, "dealt: claim?")
    await guest.tap_cell(len(claim) // 2 + 2, row)
    await guest.wait_for(f"Ann claims {claim}.")
    # The bots wait on the first cutter: all this happens before anyone cuts.
    await guest.tap("Chat  ")
    line = f"9 lives via phone keyboard {secrets.token_hex(2)}"
    await guest.insert(line)
    await guest.press("Enter")  # the phone keyboard's Enter
    await guest.wait_for(f"Ann: {line}")

    screen = await guest.tap_for("Hide", "Role and wires hidden")
    assert "Wires:" not in screen and "Show" in screen
    await guest.tap_for("Show", "Wires:")

    await guest.tap_for("Rules", "Your role")
    await guest.tap("Close", last=True)
    await guest.tap_for("Keys", "Keys you can use here now")
    await guest.tap("Close", last=True)

    await guest.tap_for("Bot 3  ", "Cut one of Bot 3's")
    await guest.tap("1 ▮")
    await guest.wait_for("Ann ✂ Bot 3")  # in the revealed wires (the chat is the pane shown)

    screen = await guest.tap("Lobby")
    if "Leave the game?" in screen:  # unless that cut, or the bots' after it, ended it
        await guest.tap("Back to the lobby")
    await guest.wait_for("Tables on your network")


async def test_a_phone_on_its_side_shows_the_table_and_its_buttons(served, browser):
    """844x390: the table at 80 columns or more, no too-small notice, every player, and the
    buttons of a finger under it."""
    guest = await phone(browser, served.url, PHONE_ON_ITS_SIDE)
    await named(guest, "Ann")
    columns, rows = await guest.size()
    assert columns >= 80 and rows >= 24
    screen = await bots_table(guest)
    assert "too small" not in screen
    for name in ("Ann (you)", "Bot 2", "Bot 5"):
        assert name in screen
    await guest.tap("No claim")
    await guest.tap("Bot 2  ")
    await guest.tap("1 ▮")
    await guest.wait_for("Ann ✂ Bot 2")

"""A guest with only a phone (issue 43): `gaslight serve` in Debian's Chromium with Playwright's
phone emulation (a phone's viewport, a finger's pointer, no physical keyboard), driven by taps
on the terminal's cells and the text a phone's keyboard inserts, and its Enter.

Every server and host listens on 127.0.0.1: the page's address is the loopback the test asked
for. The tests run one after another (one xdist group), each as short as its game allows:
the bots play fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import secrets

import pytest
from rich.cells import cell_len
from support.browser import CHROMIUM, PHONE, PHONE_ON_ITS_SIDE, Guest, launch, start_serve

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
                allow_module_level=True)

from playwright.async_api import async_playwright  # noqa: E402
from support.qr_reading import code_on, read_png, read_text  # noqa: E402

from tui.games.timebomb_evolution.model import QUESTIONS  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")


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


async def test_the_code_gaslight_serve_prints_opens_the_page_on_a_phone(served, browser):
    """The QR code in the server's output reads back as the address it printed, and a phone
    opening it gets a page laid out for its width: 46 columns of a readable font, the whole
    lobby, no too-small notice, and buttons for keys, tapped (its name typed by its keyboard;
    `?` then shows the code again, which reads back from the page's pixels)."""
    (address,) = read_text(code_on("\n".join(served.output)))
    assert address == served.url
    guest = await phone(browser, address)
    await guest.give_name("Ann", by_phone=True)
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
        words = re.sub("[▁▂▃▄▅▆▇█]", "", lines[at])  # the list's scroll bar, when it has one
        line = (words.strip("│ ").removesuffix("← true").strip(), at)
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
    await guest.give_name("Ann", by_phone=True)
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
    await guest.tap_for("Show", "Wires:", last=True)  # the bar's, not the panel's words

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
    await guest.give_name("Ann", by_phone=True)
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


# -- each game from a phone, against bots at their fastest pace ----------------------------------


async def against_bots(guest: Guest, listed: str, *settings: tuple[str, str]) -> None:
    """The quick-play game `listed` (its line in the list) against the fastest bots, its
    `settings` (a row's label, the choice) changed by taps: a tap on a game's line picks it
    and shows its settings; the Play button plays."""
    await guest.tap_for("Play vs bots", "Bot pace")
    await guest.tap(listed)
    await guest.held_still()
    for label, choice in (*settings, ("Bot pace", "Fast")):
        await choose(guest, label, choice)
    await guest.tap("Play  ")


async def choose(guest: Guest, label: str, choice: str) -> None:
    """A Select of the quick-play form: a tap on its value opens its list, a tap on `choice`
    (its nearest showing below the row, where the list opens, or else above, where it opens
    near the bottom of the screen) closes it."""
    lines, at = [], None
    for attempt in range(60):
        if attempt % 15 == 0:  # a tap that found the form still moving is tapped again
            lines = (await guest.held_still()).splitlines()
            row = next(i for i, line in enumerate(lines) if setting_row(line, label))
            after = lines[row].find(label) + len(label)
            value = after + len(lines[row][after:]) - len(lines[row][after:].lstrip())
            before = lines
            await guest.tap_cell(value + 1, row)
        await asyncio.sleep(0.1)
        lines = (await guest.screen()).splitlines()
        nearest = [*range(row + 1, len(lines)), *range(row - 1, -1, -1)]
        # The list's line, not a row of the form that was there before the tap.
        at = next((i for i in nearest if choice in lines[i] and lines[i] != before[i]), None)
        if at is not None:
            break
    assert at is not None, f"{label}'s list never showed {choice!r}:\n" + "\n".join(lines)
    await guest.tap_cell(cell_len(lines[at][:lines[at].find(choice)]) + len(choice) // 2, at)
    for _ in range(50):
        if any(label in line and choice in line for line in (await guest.screen()).splitlines()):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{label} never showed {choice!r}:\n" + await guest.screen())


def setting_row(line: str, label: str) -> bool:
    """`line` is the form's row of the setting `label`: the label starts it (the game's
    summary above may hold the same word, as Évolution's holds "Variante")."""
    return line.strip("█│ ").removeprefix("▸ ").startswith(f"{label}  ")


async def tap_first_choice(guest: Guest, title: str) -> str:
    """Tap the first choice of the dialog titled `title` (its line numbered 1): the screen."""
    lines = (await guest.wait_for(title)).splitlines()
    top = next(i for i, line in enumerate(lines) if title in line)
    row = next(i for i in range(top + 1, len(lines)) if lines[i].startswith("│ 1 "))
    before = await guest.screen()
    await guest.tap_cell(len(lines[row].rstrip("│ ")) // 2 + 2, row)
    return await guest.settled(before)


async def test_a_machinations_round_on_an_upright_phone_with_its_secret_vote_tapped(served, browser):
    """A bot proposes a crew, the phone's vote is two taps (the bar's Vote, then Approve), and
    the vote's outcome follows on the board, the phone's own vote said to it alone."""
    guest = await phone(browser, served.url)
    await guest.give_name("Ann", by_phone=True)
    await against_bots(guest, "3. Moriarty", ("First proposer", "seat 2"))
    await guest.wait_for("Bot 2 proposes with")
    await guest.tap_for("Vote  ", "1 Approve:")  # the dialog's line, not the coach's words
    await guest.tap("1 Approve:")
    # The votes are shown once all are in: Ann's among the yeses.
    screen = await guest.wait_for(" · approved · yes ", " · failed · yes ")
    assert "yes Ann" in screen


async def test_a_holmes_day_is_played_by_taps(served, browser):
    """Holmes against the bot, its first day: each turn the bar's Choose, then a tap on the
    dialog's first choice, until Day 2 begins."""
    guest = await phone(browser, served.url)
    await guest.give_name("Ann", by_phone=True)
    await against_bots(guest, "4. Holmes")
    while "Day 2/" not in (screen := await guest.wait_for("Choose  ", "Day 2/", timeout=60)):
        await guest.tap_for("Choose  ", "Your choice")
        await tap_first_choice(guest, "Your choice")
    assert "Ann" in screen


async def test_a_reloaded_phone_page_takes_its_seat_back(served, browser):
    """page.reload() mid-game: the new page's app is back at the same seat, the same role."""
    guest = await phone(browser, served.url)
    await guest.give_name("Ann", by_phone=True)
    screen = await bots_table(guest)
    role = next(line for line in screen.splitlines() if "Role:" in line)
    await guest.page.reload(wait_until="domcontentloaded")
    await guest.page.wait_for_function("() => window.gaslightTerminal")
    await guest.tap("Rejoin")  # the new page's lobby offers the seat back
    screen = await guest.wait_for("Role:")
    assert role in screen and "Ann (you)" in screen


ROUND_ONE_OVER = ("Round 2/", "You won", "You lost")
"""The status line once the first round has ended: the second begins, or a bomb ended it."""


async def test_an_evolution_round_with_the_variante_is_played_by_taps(served, browser):
    """Time Bomb Évolution with the Variante set on the quick-play form by taps, the phone
    cutting first: no claim, then each turn a tap on a player and on a wire, or on the bar's
    Decide and the first choice when a bomb's power asks the phone, until round 2 begins
    (25-33 s at load 7: three settings tapped, then five cuts at the bots' fastest pace)."""
    guest = await phone(browser, served.url)
    await guest.give_name("Ann", by_phone=True)
    await against_bots(guest, "2. Time Bomb Évolution", ("Variante", "yes"),
                       ("First cutter", "seat 1"))
    screen = await guest.wait_for("dealt: claim?", timeout=60)
    assert "Variante" in screen  # the Bombs panel's title
    await guest.tap("No claim")
    targets, cuts = itertools.cycle(("Bot 2  ", "Bot 3  ", "Bot 4  ")), 0
    async with asyncio.timeout(90):
        while True:
            screen = await guest.screen()
            if any(over in screen for over in ROUND_ONE_OVER):
                break
            if "your choice" in screen:
                screen = await guest.tap_for("Decide", "│ 1 ")
                (question,) = (q[:20] for q in QUESTIONS.values() if q[:20] in screen)
                await tap_first_choice(guest, question)
            elif "your cut" in screen:
                with contextlib.suppress(AssertionError):  # a player the cut may not reach
                    await guest.tap_for(next(targets), "1 ▮")
                    await guest.tap("1 ▮")
                    await guest.wait_for("Ann ✂", timeout=5)
                    cuts += 1
            else:
                await asyncio.sleep(0.1)
    assert cuts >= 1  # the first cut at least, by taps

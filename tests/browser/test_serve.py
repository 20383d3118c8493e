"""`gaslight serve` in a real browser: Debian's Chromium, headless, driven by Playwright, each
guest's page read from the xterm.js terminal that draws it (`support.browser`).

Every server listens on 127.0.0.1. The tests run one after another (one xdist group): each
starts a server, a browser and an app process per page, which is all two cores take at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import os
import secrets
import ssl

import pytest
from support.browser import CHROMIUM, Guest, launch, start_serve

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
                allow_module_level=True)

import aiohttp  # noqa: E402
from playwright.async_api import Error as BrowserError  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402
from support.flows import Waiter, pair, play_screen  # noqa: E402
from support.screen_text import screen_text  # noqa: E402
from support.waiting import until  # noqa: E402

from netplay.host import Host  # noqa: E402
from tui.address import Address  # noqa: E402
from tui.app import create_app  # noqa: E402
from tui.backend import Backend  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")

LAPTOP = {"width": 1000, "height": 600}
PHONE_LANDSCAPE = {"width": 844, "height": 390}
"""A phone on its side (CSS pixels)."""
APP_SECONDS = 15.0
"""Seconds a page's app process may take to end."""
LOOK_EVERY = 0.1
"""Seconds between looks at the app processes (a look may run ps)."""
ROWS_TO_SEARCH = 40
"""Rows of the lobby a guest looks through for the test's own table."""


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


def guest_cookie(cookies: list[dict]) -> dict:
    (cookie,) = [cookie for cookie in cookies if cookie["name"] == "gaslight_guest"]
    return cookie


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_two_pages_are_two_guests_each_with_their_name(serve, browser, tmp_path):
    """Each page gets its own app, asks its own name and keeps it; the guest id is an
    HttpOnly, Secure cookie, and each guest's directory is owner-only. The page fetches
    nothing from any other host."""
    served = serve()
    assert served.url.startswith("https://127.0.0.1:")
    ann_browser, bob_browser = await guest_context(browser), await guest_context(browser)
    asked = []
    ann_browser.on("request", lambda request: asked.append(request.url))
    ann = await Guest.open(ann_browser, served.url)
    bob = await Guest.open(bob_browser, served.url)
    await ann.give_name("Ann")
    await bob.give_name("Bob")
    assert "Bob" not in await ann.screen() and "Ann" not in await bob.screen()
    assert len(served.app_processes()) == 2
    # Nothing from another host: a LAN may have no way out, and a guest's visit is no one
    # else's business.
    host = served.url.replace("https://", "wss://")
    assert asked and all(url.startswith((served.url, host)) for url in asked), asked

    cookies = {cookie["name"]: cookie for cookie in await ann_browser.cookies()}
    cookie = cookies["gaslight_guest"]
    assert (cookie["httpOnly"], cookie["secure"]) == (True, True)
    assert cookie["value"] != guest_cookie(await bob_browser.cookies())["value"]
    # The page's own cookie says only what its pointer is: a laptop's is a mouse's.
    assert set(cookies) == {"gaslight_guest", "gaslight_pointer"}
    assert cookies["gaslight_pointer"]["value"] == "fine"
    guests = sorted((tmp_path / "serve-0" / "guests").iterdir())
    assert len(guests) == 2 and all(g.stat().st_mode & 0o077 == 0 for g in guests)
    # A crash's traceback shows its locals: each app's stderr stays with its guest.
    assert all((g / "app.log").stat().st_mode & 0o077 == 0 for g in guests)

    await ann.page.reload()
    ann = Guest(ann.page)
    await ann.page.wait_for_function("() => window.gaslightTerminal")
    await ann.wait_for("Playing as Ann")  # not asked again
    await until(lambda: len(served.app_processes()) == 2, "the reloaded page's old app to end",
                timeout=APP_SECONDS, every=LOOK_EVERY)


async def test_a_time_bomb_game_against_bots_to_its_end_with_a_chat_line(serve, browser):
    """Quick play from a page at the bots' fastest pace, every move by key, to the end; F1
    shows the game's rules on the way."""
    served = serve()
    ann = await Guest.open(await guest_context(browser), served.url)
    await ann.give_name("Ann")
    await ann.press("Control+g")
    await ann.wait_for("Play against bots")
    await ann.press("1", "F1")  # Time Bomb, and its rules
    await ann.wait_for("Big Ben is rigged with a bomb")
    # Esc on its own: an Esc with the next key close behind reads as Alt and that key.
    await ann.act("Escape")
    # Keys are handled in order: five Tabs reach Time Bomb's pace (players, first cutter,
    # claims, bots, pace), whenever the app gets to them.
    await ann.press(*["Tab"] * 5)
    await ann.wait_for("▸ Bot pace")
    await ann.press("Enter")  # the pace's list
    await ann.wait_for("Slow")
    await ann.press("ArrowUp", "Enter")
    await ann.wait_for("▸ Bot pace          Fast")
    await ann.press("Tab")
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
            await guest.wait_for(f"Ann: {say}")  # and the keys are the table's again at once
            say = ""
        elif "Enter: claim it" in screen:
            await guest.act("Enter")
        elif "✂ Cut one of" in screen:  # the wire dialog, its title "… face-down wires"
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


async def test_a_closed_tab_takes_its_seat_back(serve, browser):
    """Closing the page ends its app, as closing a terminal would; the same browser's next
    page is offered the seat, and takes it back at the same game."""
    served = serve()
    context = await guest_context(browser)
    ann = await Guest.open(context, served.url)
    await ann.give_name("Ann")
    await ann.press("Control+g")
    await ann.wait_for("Play against bots")
    await ann.press("1", "Enter")  # Time Bomb as last set up: bots at a person's pace
    role = role_shown(await ann.wait_for("Role: "))
    (app,) = served.app_processes()
    await ann.page.close()
    await until(lambda: not alive(app), "the closed page's app to end",
                timeout=APP_SECONDS, every=LOOK_EVERY)
    assert served.app_processes() == []

    ann = await Guest.open(context, served.url)
    await ann.wait_for("Take it back now?")
    await ann.press("Enter")  # Rejoin
    assert role_shown(await ann.wait_for("Role: ")) == role


def role_shown(screen: str) -> str:
    """The words of the "Role:" line of the player's own panel, without the log's column
    beside it (whose text and scroll bar move with the log)."""
    line = next(line for line in screen.splitlines() if "Role: " in line)
    return line[line.index("Role: "):].split("│")[0].strip()


async def test_at_most_max_sessions_pages_and_the_next_is_told_it_is_full(serve, browser):
    """One session allowed: a second guest gets the full page, however often it reloads, and
    no second app starts; once the first page closes (its app gone), the second gets in.
    A websocket without the page's cookie, or with a cookie that is not one we made, gets
    nothing."""
    served = serve("--max-sessions", "1")
    first = await Guest.open(await guest_context(browser), served.url)
    await first.wait_for("What name should the other players see?")
    second = await guest_context(browser)
    flood = await asyncio.gather(*(second.request.get(served.url) for _ in range(30)))
    assert {response.status for response in flood} == {503}
    assert "Gaslight is full" in await flood[0].text()
    assert len(served.app_processes()) == 1

    websocket = served.url.replace("https://", "wss://") + "ws"
    for cookie in ({}, {"gaslight_guest": "../../../../tmp/elsewhere-is-not-a-guest-id"}):
        async with aiohttp.ClientSession(cookies=cookie) as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(websocket, ssl=False)
        assert refused.value.status in (403, 503)

    (app,) = served.app_processes()
    await first.page.close()
    await until(lambda: not alive(app), "the closed page's app to end",
                timeout=APP_SECONDS, every=LOOK_EVERY)
    guest = await Guest.open(second, served.url)
    await guest.wait_for("What name should the other players see?")


async def test_one_device_gets_at_most_its_pages_and_the_next_is_told_why(serve, browser):
    """Two pages per device: a third tab from the same address (however often reloaded, and
    whatever its cookie) gets a page that says so, and no app; its websocket is refused. Once
    one of the two closes, the third gets in. The sessions left stay for other devices."""
    served = serve("--per-device", "2")
    first = await Guest.open(await guest_context(browser), served.url)
    second = await Guest.open(await guest_context(browser), served.url)
    for guest in (first, second):
        await guest.wait_for("What name should the other players see?")
    third = await guest_context(browser)
    flood = await asyncio.gather(*(third.request.get(served.url) for _ in range(10)))
    assert {response.status for response in flood} == {429}
    assert "open here already" in await flood[0].text()
    websocket = served.url.replace("https://", "wss://") + "ws"
    cookies = await first.page.context.cookies()
    async with aiohttp.ClientSession(cookies={c["name"]: c["value"] for c in cookies}) as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(websocket, ssl=False,
                                     headers={"Origin": served.url.rstrip("/")})
    assert refused.value.status == 429
    assert len(served.app_processes()) == 2

    await first.page.close()
    await until(lambda: len(served.app_processes()) == 1, "the closed page's app to end",
                timeout=APP_SECONDS, every=LOOK_EVERY)
    guest = await Guest.open(third, served.url)
    await guest.wait_for("What name should the other players see?")


async def test_plain_http_only_with_the_flag_and_its_warning(serve, browser):
    """The HTTPS server does not answer plain HTTP, and the fingerprint it printed is the one
    of the certificate it presents; `--insecure-http` serves plain HTTP, saying first that
    anyone on the LAN could read the guests' screens."""
    served = serve()
    host, port = served.url.removeprefix("https://").rstrip("/").split(":")
    presented = ssl.PEM_cert_to_DER_cert(ssl.get_server_certificate((host, int(port))))
    digest = hashlib.sha256(presented).hexdigest().upper()
    assert any(line.endswith(":".join(digest[i:i + 2] for i in range(0, 64, 2)))
               for line in served.output if "SHA-256 fingerprint" in line)
    page = await (await guest_context(browser)).new_page()
    with pytest.raises(BrowserError):
        await page.goto(served.url.replace("https://", "http://"))

    plain = serve("--insecure-http")
    assert plain.url.startswith("http://127.0.0.1:")
    assert any(line.startswith("WARNING: plain HTTP") for line in plain.output)
    context = await guest_context(browser)
    guest = await Guest.open(context, plain.url)
    await guest.wait_for("What name should the other players see?")
    cookie = guest_cookie(await context.cookies())
    assert cookie["httpOnly"] and not cookie["secure"]


async def at_our_table(browser, url: str, name: str, key: str, table: str, host: Host) -> Guest:
    """A new guest who names themself, moves the lobby's cursor to the row named `table`,
    presses `key` there (Enter sits, F3 watches) and types `host`'s table code.

    Another Gaslight on this machine (another test run, a player's) may list tables on loopback
    too, even one of the same name in the first row: the guest goes by the lobby's hint, which
    names the highlighted table when it has an option changed, as `table` has."""
    guest = await Guest.open(await guest_context(browser), url)
    await guest.give_name(name)
    await guest.wait_for(table)
    screen = await guest.act("Home")
    for _ in range(ROWS_TO_SEARCH):
        if f"{table}: " in screen:
            break
        screen = await guest.act("ArrowDown")
    else:
        raise AssertionError(f"the cursor never reached {table}; the page shows:\n{screen}")
    await guest.act(key)
    await guest.wait_for(f"Table code for 127.0.0.1:{host.address[1]}")
    await guest.type(host.table_code)
    await guest.press("Enter")
    return guest


async def test_a_terminal_player_and_a_browser_guest_at_one_table(serve, browser, tmp_path):
    """A LAN host's table, found by the guest's discovery on the serving machine: the guest
    pairs with its code and sits with a terminal player (an app under Pilot, here), and each
    reads the other's name and chat; a second guest watches it."""
    host = Host(data_dir=tmp_path / "lan", advertise=True, interfaces=["127.0.0.1"])
    _, port = await host.start("127.0.0.1", 0)
    ours = f"Baker Street {secrets.token_hex(3)}"  # no other table's name, on any host
    # An option changed, so the lobby's hint names this table when its row is highlighted.
    host.create_table("timebomb", 4, {"first_player": 0}, name=ours, bots=2)
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "tom", discover=False)
    pair(backend, host)
    tom = create_app(backend, player_name="Tom", initial=(Address("127.0.0.1", port), False))
    waiter = Waiter()
    served = serve()
    try:
        async with tom.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
            await waiter.until(pilot, lambda: play_screen(tom), "Tom at the table")
            ann = await at_our_table(browser, served.url, "Ann", "Enter", ours, host)
            await ann.wait_for("Ann (you)")
            await ann.wait_for("Tom")
            await waiter.until(pilot, lambda: "Ann" in screen_text(tom), "Ann on Tom's screen")

            await ann.type("evening, Tom")
            await ann.press("Enter")
            # Tom's claim offer may cover his chat: read what his chat holds.
            table = play_screen(tom)
            await waiter.until(pilot, lambda: ("Ann", "evening, Tom", "table") in table.chat.lines,
                               "Ann's line in Tom's chat")
            table.say("evening, Ann")
            await ann.wait_for("Tom: evening, Ann")

            # A second guest watches the full table, with F3 (Chromium keeps Ctrl+W).
            bob = await at_our_table(browser, served.url, "Bob", "F3", ours, host)
            await bob.wait_for("Spectator chat")
            screen = await bob.wait_for("Tom")
            assert "Ann" in screen and "(you)" not in screen
    finally:
        await host.stop()


async def test_a_phone_on_its_side_gets_the_whole_screen_and_f_keys(serve, browser):
    """844x390 CSS pixels hold the 80x24 cells every screen is laid out for; the footer and
    `?` show F2 for Host, since Chromium keeps Ctrl+N, and F2 opens the host form."""
    served = serve()
    guest = await Guest.open(await guest_context(browser, PHONE_LANDSCAPE), served.url)
    await guest.give_name("Ann")
    columns, rows = await guest.page.evaluate(
        "() => [window.gaslightTerminal.cols, window.gaslightTerminal.rows]")
    assert columns >= 80 and rows >= 24
    screen = await guest.screen()
    assert "f2 Host" in screen and "^n" not in screen and "needs at least" not in screen
    await guest.act("?")
    screen = await guest.wait_for("Keys you can use here now")
    assert "f2" in screen and "^n" not in screen
    await guest.act("Escape")
    await guest.act("F2")
    await guest.wait_for("Host a table on this computer")


async def reload_at_once(page, tries: int = 5) -> None:
    """Reload `page` as soon as its last reload committed. Chromium sometimes swaps the
    page's document host at that moment and refuses the next reload ("Not attached to an
    active page") before the server has seen a request: that is the browser's race, not the
    server's, so the reload is asked again."""
    for _ in range(tries - 1):
        try:
            await page.reload(wait_until="commit")
            return
        except BrowserError as error:
            if "Not attached to an active page" not in str(error):
                raise
            await asyncio.sleep(0.05)
    await page.reload(wait_until="commit")


async def test_a_flood_of_reloads_leaves_one_app(serve, browser):
    """A page reloaded again and again, faster than its app starts: each reload's app waits
    for the last one of that guest to end, so apps never pile up beyond the device's three
    pages, the last reload is never told the device has too many open (it waits a moment for
    the ones it left), and one app is left."""
    served = serve()
    context = await guest_context(browser)
    guest = await Guest.open(context, served.url)
    await guest.wait_for("What name should the other players see?")
    most = 0
    for _ in range(12):
        await reload_at_once(guest.page)
        most = max(most, len(served.app_processes()))
    guest = Guest(guest.page)
    await guest.page.wait_for_function("() => window.gaslightTerminal")
    await guest.wait_for("What name should the other players see?")
    await until(lambda: len(served.app_processes()) == 1, "one app left",
                timeout=APP_SECONDS, every=LOOK_EVERY)
    assert most <= 3  # --per-device's default

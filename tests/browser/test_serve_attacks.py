"""Issue 45 from a real browser: attacks on `gaslight serve` that need Chromium's own rules
(cookies' SameSite, a websocket's Origin) or its screen (a guest's app, driven by keys).

Each test checks, after its attack, the server's session count, that the apps it started are
gone (by pid) and what a new guest gets. Every server listens on 127.0.0.1 (the last test's in
a network namespace of its own), with the short deadlines of `hostile.serve_attack`.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostile.serve_attack import (REAPED, SHORT, a_new_guest_gets_an_app, alive, gone, serve,
                                  sessions_become, start)  # noqa: F401
from support.browser import CHROMIUM, Guest, launch

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
                allow_module_level=True)

from aiohttp import web  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from netplay.transport import HostKey  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")

LAPTOP = {"width": 1000, "height": 600}
NAME_ASKED = "What name should the other players see?"


@pytest.fixture
async def browser():
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()


async def guest_context(browser):
    return await browser.new_context(ignore_https_errors=True, viewport=LAPTOP)


async def another_site(routes: list, key: HostKey | None = None) -> tuple[web.AppRunner, int]:
    """A web server of someone else's on 127.0.0.1: plain HTTP, or HTTPS with `key`."""
    app = web.Application()
    app.add_routes(routes)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=key.server_context() if key else None)
    await site.start()
    return runner, runner.addresses[0][1]


def html(text: str) -> web.Response:
    return web.Response(text=f"<!DOCTYPE html><html><body>{text}</body></html>",
                        content_type="text/html")


async def test_a_link_from_another_site_keeps_the_guest_who_they_are(serve, browser):
    """Ann names herself, leaves for another site (http://localhost: another site by its
    scheme and its host), and comes back by a link there and by its redirect: each time she
    arrives as Ann, with the same cookie (SameSite=Strict sent none, and she was asked her
    name again as a new guest). Her old pages' apps end; a new guest is still asked."""
    attacked = serve()
    context = await guest_context(browser)
    ann = await Guest.open(context, attacked.url)
    await ann.give_name("Ann")
    (cookie,) = [c for c in await context.cookies() if c["name"] == "gaslight_guest"]
    assert cookie["sameSite"] == "Lax"
    first_app = attacked.apps()

    async def link(request: web.Request) -> web.Response:
        return html(f'<a id="back" href="{attacked.url}">Gaslight</a>')

    async def redirect(request: web.Request) -> web.Response:
        raise web.HTTPFound(attacked.url)

    runner, port = await another_site([web.get("/", link), web.get("/go", redirect)])
    try:
        elsewhere = f"http://localhost:{port}/"
        await ann.page.goto(elsewhere)
        await ann.page.click("#back")
        await ann.page.wait_for_function("() => window.gaslightTerminal")
        await Guest(ann.page).wait_for("Playing as Ann")
        await ann.page.goto(elsewhere + "go")
        await ann.page.wait_for_function("() => window.gaslightTerminal")
        await Guest(ann.page).wait_for("Playing as Ann")
    finally:
        await runner.cleanup()
    assert [c["value"] for c in await context.cookies()
            if c["name"] == "gaslight_guest"] == [cookie["value"]]
    await gone(first_app, SHORT["exit_grace"] + REAPED, "the pages Ann left")
    await sessions_become(attacked, 1)
    assert len(attacked.apps()) == 1
    await a_new_guest_gets_an_app(attacked, "127.0.0.2")


async def test_a_page_from_another_port_cannot_open_a_guests_socket(serve, browser, tmp_path):
    """A page served over HTTPS on another port of the server's address is the same site, so
    Ann's browser sends her cookie with its websocket to the server: the server refuses it for
    its Origin, before any app starts. Ann's own page plays on."""
    attacked = serve()
    context = await guest_context(browser)
    ann = await Guest.open(context, attacked.url)
    await ann.give_name("Ann")
    (app,) = attacked.apps()
    socket_url = attacked.url.replace("https://", "wss://") + "ws?width=80&height=24"
    script = f"""<script>
      const socket = new WebSocket("{socket_url}");
      socket.onopen = () => {{ document.title = "opened"; }};
      socket.onclose = () => {{ if (document.title !== "opened") document.title = "refused"; }};
    </script>"""
    async def thief_page(request: web.Request) -> web.Response:
        return html(script)

    runner, port = await another_site([web.get("/", thief_page)],
                                      HostKey(tmp_path / "another-site.pem"))
    try:
        thief = await context.new_page()
        await thief.goto(f"https://127.0.0.1:{port}/")
        await thief.wait_for_function("() => document.title !== ''")
        assert await thief.title() == "refused"
    finally:
        await runner.cleanup()
    assert attacked.apps() == [app] and attacked.sessions() == 1
    await ann.act("Control+r")  # her own page still answers her keys
    await ann.wait_for(NAME_ASKED)
    await ann.page.close()
    await gone([app], SHORT["exit_grace"] + REAPED, "Ann's app")
    await sessions_become(attacked, 0)
    await a_new_guest_gets_an_app(attacked)


def background_hosts(data_dir: Path) -> list[int]:
    """The pids of `gaslight host --resume` processes on a store of `data_dir`."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            command = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--resume" in command and str(data_dir).encode() in command:
            found.append(int(proc.name))
    return found


async def test_a_table_a_guest_hosts_is_never_kept_running_in_the_background(serve, browser,
                                                                           tmp_path):
    """Ann hosts a table from her page and quits: she is not offered to keep it running,
    nothing goes on in the background (no host process, no pid file), the table is closed,
    and her app ends. A new guest gets an app."""
    attacked = serve()
    ann = await Guest.open(await guest_context(browser), attacked.url)
    await ann.give_name("Ann")
    (app,) = attacked.apps()
    await ann.act("F2")
    await ann.wait_for("Host a table on this computer")
    await ann.press("Tab", "Enter")  # the table's name, as offered: Enter hosts it
    screen = await ann.wait_for("with the code")
    assert re.search(r"\d{4}-\d{4}", screen), screen
    await ann.press("Control+c")  # the browser's Ctrl+Q
    question = await ann.wait_for("You host in this page")
    assert "Keep it running" not in question  # a page's table does not outlive it
    await ann.press("2", "Enter")  # 1 Stay, 2 Quit closing it
    await gone([app], SHORT["exit_grace"] + REAPED + 5, "Ann's app, once she quit")
    guests = tmp_path / "serve-0" / "guests"
    assert background_hosts(guests) == []
    assert not list(guests.glob("*/data/*.pid")) and not list(guests.glob("*/data/lan-*"))
    await sessions_become(attacked, 0)
    assert attacked.apps() == []
    await a_new_guest_gets_an_app(attacked)


@contextlib.contextmanager
def a_lan_of_its_own():
    """A network namespace whose LAN is a veth pair at 10.77.N.1/24, and a Chromium that runs
    in it: the server's pages come from the LAN, not from its loopback. Nothing is created in
    the machine's own namespace, and all of it goes after."""
    if shutil.which("ip") is None or os.geteuid() != 0:
        pytest.skip("a network namespace needs root and the ip command")
    name = f"glserve{secrets.token_hex(3)}"
    lan = f"10.77.{secrets.randbelow(250) + 1}.1"
    try:
        subprocess.run(["ip", "netns", "add", name], check=True, capture_output=True, timeout=10)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"ip netns add failed: {getattr(error, 'stderr', b'') or error}")
    try:
        for command in (["link", "set", "lo", "up"],
                        ["link", "add", "v0", "type", "veth", "peer", "name", "v1"],
                        ["addr", "add", f"{lan}/24", "dev", "v0"],
                        ["link", "set", "v0", "up"], ["link", "set", "v1", "up"]):
            subprocess.run(["ip", "-n", name, *command], check=True, capture_output=True,
                           timeout=10)
        yield name, lan
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)


def host_in(namespace: str, interface: str, data_dir: Path) -> tuple[subprocess.Popen, int]:
    """`gaslight host` in `namespace`, listening on `interface`: its process and port."""
    process = subprocess.Popen(
        ["ip", "netns", "exec", namespace, sys.executable, "-m", "tui.cli", "host", "--game",
         "timebomb", "--players", "4", "--bots", "2", "--interface", interface,
         "--no-announce", "--port", "0", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        if found := re.search(r"listening on \S+:(\d+)", line):
            return process, int(found.group(1))
    raise AssertionError("the host did not start")


@pytest.mark.netns
async def test_from_a_page_a_host_is_found_on_the_lan_and_never_on_the_servers_loopback(
        tmp_path):
    """The server's computer runs a table for its owner on its own loopback, another on the
    LAN. A guest's page (from the LAN) finds the LAN's by address, and is refused the
    loopback's, in the same words whether a port answers there or not: the page learns
    nothing of the server's own ports."""
    with a_lan_of_its_own() as (namespace, lan):
        private, private_port = host_in(namespace, "127.0.0.1", tmp_path / "private")
        shared, shared_port = host_in(namespace, lan, tmp_path / "shared")
        attacked = start(tmp_path / "serve", "--interface", lan,
                         prefix=("ip", "netns", "exec", namespace))
        wrapper = tmp_path / "chromium-in-namespace"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {namespace} {CHROMIUM} "$@"\n')
        wrapper.chmod(0o755)
        try:
            assert attacked.url.startswith(f"https://{lan}:")
            async with async_playwright() as playwright:
                chromium = await playwright.chromium.launch(
                    executable_path=str(wrapper), headless=True, args=["--no-sandbox"])
                ann = await Guest.open(await guest_context(chromium), attacked.url)
                await ann.give_name("Ann")
                (app,) = attacked.apps()
                for typed in (f"127.0.0.1:{private_port}", "127.0.0.1:1"):
                    await ann.act("Control+o")
                    await ann.wait_for("The host's address")
                    await ann.type(typed)
                    await ann.press("Enter")
                    screen = await ann.wait_for(f"Cannot reach {typed}")
                    assert "loopback" in screen, screen
                await ann.act("Control+o")
                await ann.type(f"{lan}:{shared_port}")
                await ann.press("Enter")
                await ann.wait_for(f"Table code for {lan}:{shared_port}")  # reached it
                await sessions_become(attacked, 1)
                await ann.page.close()
                await gone([app], SHORT["exit_grace"] + REAPED, "Ann's app")
                await sessions_become(attacked, 0)
                newcomer = await Guest.open(await guest_context(chromium), attacked.url)
                await newcomer.wait_for(NAME_ASKED)
                await chromium.close()
        finally:
            apps = attacked.apps()
            attacked.stop()
            for host in (private, shared):
                host.kill()
                host.wait()
            assert not [pid for pid in apps if alive(pid)]

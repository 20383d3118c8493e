"""`gaslight serve` without a browser: what makes a guest, the certificate it keeps, what a
guest's app may reach, and the bounds the server keeps (the browser tests in tests/browser
play through it, and tests/hostile/test_serve_*.py attack it)."""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import ssl
import sys
import time

import pytest
from aiohttp.test_utils import make_mocked_request

from tui.address import (GUEST_NETWORKS_ENV, Address, AddressNotAllowed, check_reachable,
                         parse_address)
from tui.backend import Backend
from tui.listing import connect_error_text

from tui.serve.console import UNSAFE, OneLine, Quieter
from tui.serve.limits import ServeLimits
from tui.serve.page import Allowance, PageRefused, parse_message
from tui.serve.server import (GUEST_COOKIE, GUEST_COOKIE_SECONDS, GUESTS_DIR, GaslightServer,
                              certificate_fingerprint, guest_id, network_of, new_guest_id)


def request_with(cookie: str):
    return make_mocked_request("GET", "/ws", headers={"Cookie": f"{GUEST_COOKIE}={cookie}"})


def test_a_guest_id_we_made_is_a_guest():
    made = new_guest_id()
    assert guest_id(request_with(made)) == made


@pytest.mark.parametrize("cookie", [
    "", "..", "../../../../etc", "a" * 31, "a" * 33, "/" + "a" * 31, "a" * 30 + "/.",
    "." * 32, "a" * 31 + "%", "a" * 31 + "~",
])
def test_a_cookie_we_did_not_make_is_no_guest_and_never_a_path(cookie):
    assert guest_id(request_with(cookie)) is None


def test_the_certificate_is_owner_only_and_kept_across_restarts(tmp_path):
    first = GaslightServer(tmp_path / "serve")
    again = GaslightServer(tmp_path / "serve")
    assert certificate_fingerprint(first.key) == certificate_fingerprint(again.key)
    assert first.key.path.stat().st_mode & 0o077 == 0
    assert (tmp_path / "serve").stat().st_mode & 0o077 == 0
    fingerprint = certificate_fingerprint(first.key)
    assert len(fingerprint.split(":")) == 32 and fingerprint == fingerprint.upper()
    assert isinstance(first.key.server_context(), ssl.SSLContext)


def test_plain_http_makes_no_certificate(tmp_path):
    server = GaslightServer(tmp_path / "serve", https=False)
    assert server.key is None and server.scheme == "http"
    assert not list((tmp_path / "serve").iterdir())


def test_a_guest_not_seen_for_longer_than_the_cookie_lasts_is_forgotten(tmp_path):
    """No browser can name a guest whose cookie expired: the server forgets its directory
    (its name, seats and known hosts) when it starts. A visit renews the cookie and the
    mark; nothing but a guest's directory is ever removed."""
    server = GaslightServer(tmp_path / "serve", https=False)
    gone, kept, back = new_guest_id(), new_guest_id(), new_guest_id()
    for guest in (gone, kept, back):
        (server.guest_home(guest) / "data").mkdir()
    other = server.root / GUESTS_DIR / "notes"
    other.mkdir()
    long_ago = time.time() - GUEST_COOKIE_SECONDS - 60
    for old in (gone, back, "notes"):
        os.utime(server.root / GUESTS_DIR / old, (long_ago, long_ago))
    server.visited(back)
    assert server.forget_expired_guests() == [gone]
    assert sorted(p.name for p in (server.root / GUESTS_DIR).iterdir()) == sorted(
        [kept, back, "notes"])
    assert (server.guest_home(back) / "data").is_dir()


# -- what a guest in a browser may reach (tui.address, the backend) ---------------------------

LAN = (ipaddress.ip_network("192.168.1.0/24"),)


@pytest.mark.parametrize("typed", ["192.168.1.20:7777", "192.168.1.254:1"])
def test_a_guest_reaches_a_host_on_their_network(typed):
    check_reachable(parse_address(typed), LAN)


@pytest.mark.parametrize("typed, why", [
    ("127.0.0.1:22", "never the serving computer's own loopback"),
    ("[::1]:22", "never the serving computer's own loopback"),
    ("10.8.0.1:7777", "this network only"),
    ("192.168.2.1:7777", "this network only"),
    ("[::ffff:192.168.1.20]:7777", "this network only"),
    ("localhost:22", "not a name"),
    ("gaslight.example:7777", "not a name"),
])
def test_a_guest_is_refused_every_other_host_with_a_sentence_the_lobby_shows(typed, why):
    """A refusal is an OSError whose strerror the lobby shows after "Cannot reach HOST:PORT:"
    (`connect_error_text`), as it shows a host that does not answer: the guest learns nothing
    about the port."""
    address = parse_address(typed)
    with pytest.raises(AddressNotAllowed) as refused:
        check_reachable(address, LAN)
    assert why in refused.value.strerror
    shown = connect_error_text(address, refused.value)
    assert shown == f"Cannot reach {address}: {refused.value.strerror}."


def test_an_app_of_its_own_reaches_anywhere_and_a_guests_follows_its_networks(monkeypatch):
    monkeypatch.delenv(GUEST_NETWORKS_ENV, raising=False)
    assert Backend().guest_networks is None
    Backend().check_reachable(Address("127.0.0.1", 22))
    monkeypatch.setenv(GUEST_NETWORKS_ENV, "192.168.1.0/24,127.0.0.1/32")
    guest = Backend()
    assert guest.guest_networks == (LAN[0], ipaddress.ip_network("127.0.0.1/32"))
    guest.check_reachable(Address("127.0.0.1", 22))  # the owner let guests reach it
    with pytest.raises(AddressNotAllowed):
        guest.trust(Address("127.0.0.2", 22))


async def test_a_guests_app_reaches_the_hosts_it_runs_itself(tmp_path):
    """Quick play and a guest's own tables are hosts on 127.0.0.1 in the guest's app: theirs
    to reach, whatever their networks."""
    backend = Backend(data_dir=tmp_path, discover=False, bot_delay=0, guest_networks=LAN)
    ticket = await backend.play_bots("Ann")
    try:
        assert ticket.address.host == "127.0.0.1"
        assert backend.trust(ticket.address)["code"] is not None
        with pytest.raises(AddressNotAllowed):
            backend.trust(Address("127.0.0.1", ticket.address.port + 1))
    finally:
        await backend.close()


async def test_a_guests_tables_are_never_kept_in_the_background(tmp_path):
    """Quitting a guest's app that hosts a table for others closes the table for everyone,
    even when asked to keep it running: no background host is started."""
    from tui import background

    backend = Backend(data_dir=tmp_path, discover=False, bot_delay=0, guest_networks=LAN,
                      interfaces=["127.0.0.1"])
    assert not backend.may_keep_in_background
    ticket = await backend.host_table("timebomb", 4, {}, name="Baker Street", bots=2,
                                      advertise=True)
    await backend.keep_in_background("Ann")
    assert backend.hosts == [] and background.running(tmp_path, ticket.store) is None
    assert not list(tmp_path.glob(f"{ticket.store}.*"))
    assert Backend(data_dir=tmp_path, discover=False, guest_networks=None).may_keep_in_background


# -- the bounds of `gaslight serve` (tui.serve.limits, .page, .console) -----------------------

def test_the_limits_an_owner_gets():
    """SECURITY.md ("In a browser") states these: a change to one is a change to it."""
    limits = ServeLimits()
    assert (limits.exit_grace, limits.send_deadline, limits.heartbeat) == (3.0, 10.0, 15.0)
    assert (limits.first_message, limits.idle, limits.request_deadline) == (10.0, 1800.0, 10.0)
    assert (limits.keepalive, limits.connections_per_address, limits.connections) == (
        15.0, 64, 512)
    assert (limits.columns, limits.rows, limits.smallest_columns, limits.smallest_rows) == (
        300, 100, 10, 5)
    assert (limits.stdin_message, limits.stdin_per_second) == (16 * 1024, 4 * 1024)
    assert (limits.app_packet, limits.app_memory) == (4 * 1024 * 1024, 512 * 1024 * 1024)


def test_limits_are_changed_by_name_and_a_wrong_one_is_named():
    changed = ServeLimits().changed(["exit_grace=0.5", "connections=9"])
    assert (changed.exit_grace, changed.connections) == (0.5, 9)
    with pytest.raises(ValueError, match="there is no limit 'grace'"):
        ServeLimits().changed(["grace=1"])
    with pytest.raises(ValueError, match="connections takes a number"):
        ServeLimits().changed(["connections=many"])


@pytest.mark.parametrize("asked, held", [
    ((10_000, 10_000), (300, 100)), ((80, 24), (80, 24)), ((0, -5), (10, 5)),
    ((2**64, 1), (300, 5)),
])
def test_a_page_gets_a_screen_within_the_limits(asked, held):
    assert ServeLimits().screen(*asked) == held
    message = json.dumps(["resize", {"width": asked[0], "height": asked[1]}])
    assert parse_message(message, ServeLimits()) == ("resize", held)


@pytest.mark.parametrize("text, parsed", [
    ('["stdin", "\\t"]', ("stdin", "\t")), ('["ping", "1700000000000"]', ("ping", "1700000000000")),
    ('["focus"]', ("focus", None)), ('["blur"]', ("blur", None)),
])
def test_what_a_page_sends(text, parsed):
    assert parse_message(text, ServeLimits()) == parsed


@pytest.mark.parametrize("text", [
    "", "[", "{}", "[]", '["stdin"]', '["stdin", 3]', '["stdin", "a", "b"]',
    '["resize", {"width": "80", "height": 24}]', '["resize", {"width": 80}]',
    '["ping", "' + "9" * 65 + '"]', '["quit"]', '["open_url", {"url": "x"}]', "null",
])
def test_a_message_no_page_sends_is_refused(text):
    with pytest.raises(PageRefused):
        parse_message(text, ServeLimits())


def test_a_page_is_read_no_faster_than_its_allowance():
    """A burst goes at once; past it, each byte waits its share of the second."""
    now = [100.0]
    allowance = Allowance(per_second=1000, burst=4000, clock=lambda: now[0])
    assert allowance.wait_for(4000) == 0
    assert allowance.wait_for(500) == 0.5
    assert allowance.wait_for(1000) == 1.5
    now[0] += 10  # a quiet page earns its burst back, and no more
    assert allowance.wait_for(4000) == 0 and allowance.wait_for(1000) == 1.0


@pytest.mark.parametrize("raw", ["\x1b[2J", "\x9b31m", "\x07", "\x00", "\x7f", "\u202e",
                                 "line\nbreak", "\r"])
def test_no_guest_text_reaches_the_console_unescaped(raw):
    line = OneLine().format(logging.makeLogRecord(
        {"name": "aiohttp.server", "msg": "from %s", "args": (f"agent {raw} end",),
         "levelno": logging.WARNING, "levelname": "WARNING"}))
    assert not UNSAFE.search(line) and "end" in line


def test_an_exception_is_one_line_without_its_traceback():
    try:
        raise ValueError("bad\x9b header")
    except ValueError:
        record = logging.makeLogRecord({"name": "aiohttp.server", "msg": "Error handling request",
                                        "exc_info": sys.exc_info(), "levelno": logging.ERROR})
    line = OneLine().format(record)
    assert line.endswith("Error handling request: ValueError: bad\\x9b header")
    assert "\n" not in line and "Traceback" not in line


def test_a_kind_of_warning_is_printed_once_a_while_with_a_count():
    quieter = Quieter(quiet_for=60)

    def record(msg: str, level: int = logging.WARNING) -> logging.LogRecord:
        return logging.makeLogRecord({"name": "gaslight.serve", "msg": msg, "levelno": level})

    assert quieter.filter(record("cannot accept a connection: %s"))
    assert not any(quieter.filter(record("cannot accept a connection: %s")) for _ in range(5))
    assert quieter.filter(record("another kind"))
    assert all(quieter.filter(record("a page opened", logging.INFO)) for _ in range(3))
    quieter.last[("gaslight.serve", "cannot accept a connection: %s")] -= 61
    again = record("cannot accept a connection: %s")
    assert quieter.filter(again) and again.msg.endswith("(and 5 more like it left out)")


def test_a_page_reaching_loopback_is_on_loopbacks_network():
    assert network_of("127.0.0.1") == ipaddress.ip_network("127.0.0.0/8")
    assert network_of("203.0.113.9") == ipaddress.ip_network("203.0.113.9/32")  # no interface


# -- a phone's way in: the QR code, the page, what the page and its app tell each other --------

@pytest.mark.parametrize("address", ["https://192.168.1.20:8443/", "https://10.200.100.250:65535/",
                                     "http://[fd00:1234:5678::abcd]:8443/"])
def test_the_qr_code_reads_back_as_the_address(address):
    from support.qr_reading import read_text

    from tui.serve.qr import qr_for_terminal, qr_rows

    rows = qr_rows(address)
    assert read_text(rows) == [address]
    # Every module about square in a terminal's cell, twice as high as it is wide.
    assert len({len(row) for row in rows}) == 1 and len(rows[0]) <= 2 * len(rows) + 1
    coloured = qr_for_terminal(address, colours=True).splitlines()
    assert [line.removeprefix("\x1b[97;40m").removesuffix("\x1b[0m") for line in coloured] == rows


def test_the_address_guests_reach_comes_first_and_never_loopback_unless_asked():
    from tui.serve.page_address import guest_page_url, guests_first, page_url

    assert guests_first(["172.17.0.1", "192.168.1.20"], routed="192.168.1.20") == [
        "192.168.1.20", "172.17.0.1"]
    assert guests_first(["172.17.0.1", "192.168.1.20"], routed="10.0.0.9") == [
        "172.17.0.1", "192.168.1.20"]
    served = page_url("https", "192.168.1.20", 8443)
    assert served == "https://192.168.1.20:8443/"
    # A guest's app shows the address its page reached, but never this computer's loopback.
    assert guest_page_url("https", "10.8.0.1", 8443, served) == "https://10.8.0.1:8443/"
    assert guest_page_url("https", "127.0.0.1", 8443, served) == served
    assert guest_page_url("https", None, 8443, served) == served
    assert page_url("https", "fd00::1", 8443) == "https://[fd00::1]:8443/"


def test_an_app_finds_the_page_its_user_serves_while_the_server_runs(tmp_path, monkeypatch):
    from tui.serve.page_address import (PAGE_ADDRESS_ENV, SERVE_DIR, forget_serving,
                                        page_address, serving_url, write_serving)

    monkeypatch.delenv(PAGE_ADDRESS_ENV, raising=False)
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(tmp_path))
    root = tmp_path / SERVE_DIR
    root.mkdir()
    assert page_address() is None
    record = write_serving(root, "https://192.168.1.20:8443/")
    assert record.stat().st_mode & 0o077 == 0
    assert page_address() == "https://192.168.1.20:8443/"
    forget_serving(root)
    assert page_address() is None
    # A record left by a server that died is no server.
    record.write_text("2147483646 https://192.168.1.20:8443/\n")
    assert serving_url(root) is None
    # A guest's app is told its page's address by its server.
    monkeypatch.setenv(PAGE_ADDRESS_ENV, "https://10.8.0.1:8443/")
    assert page_address() == "https://10.8.0.1:8443/"


def test_the_page_title_names_what_closing_it_would_end_and_carries_no_control():
    from tui.serve.page_app import ENDS_PREFIX, TITLE, title_for, title_sequence

    assert title_for("") == TITLE
    assert title_for("Time Bomb at Baker Street") == ENDS_PREFIX + "Time Bomb at Baker Street"
    sneaky = title_for("Baker\x07Street\x1b]0;pwned")
    assert "\x07" not in sneaky and "\x1b" not in sneaky
    assert title_sequence(sneaky) == f"\x1b]2;{sneaky}\x07"


async def test_the_page_declares_a_viewport_follows_its_title_and_fetches_nothing_elsewhere(
        tmp_path):
    """The page (ours, not textual-serve's template) tells a phone to lay it out at its own
    width, sets the pointer cookie, asks before closing at a game, and loads only this
    server's files; its script hands its terminal to the page."""
    import re

    from aiohttp.test_utils import TestClient, TestServer

    from tui.serve.page_app import ENDS_PREFIX, POINTER_COOKIE

    server = GaslightServer(tmp_path / "serve", https=False)
    async with TestClient(TestServer(server.make_app())) as client:
        page = await (await client.get("/")).text()
        assert '<meta name="viewport" content="width=device-width, initial-scale=1"' in page
        assert POINTER_COOKIE in page and "beforeunload" in page
        assert f"const ENDS = {json.dumps(ENDS_PREFIX)};" in page
        base = str(client.make_url("/"))
        outside = [url for url in re.findall(r'(?:src|href)="([^"]+)"', page)
                   if not url.startswith(base)]
        assert outside == [] and "googleapis" not in page
        script = await (await client.get("/page.js")).text()
        assert "window.gaslightTerminal=this.terminal," in script


def test_a_touch_page_is_told_to_its_app():
    from tui.serve.page_app import touch_from

    assert touch_from("coarse") and not touch_from("fine") and not touch_from(None)
    assert not touch_from("coarse; x")


@pytest.mark.parametrize("size", [(120, 40), (46, 50)], ids=["beside the seats", "under them"])
async def test_the_hosts_waiting_room_shows_the_pages_code_and_a_guests_does_not(monkeypatch,
                                                                                 size):
    """In a guest's app (or while its person serves a page), the waiting room of the table it
    hosts shows the page's QR code, which a decoder reads as the page's address; the waiting
    room of someone else's table shows none."""
    from support.offline import lobby, offline_app, open_table
    from support.qr_reading import code_on, read_text
    from support.screen_text import screen_text

    from tui.serve.page_address import PAGE_ADDRESS_ENV
    from tui.serve.qr import qr_rows

    page = "https://192.168.1.20:8443/"
    monkeypatch.setenv(PAGE_ADDRESS_ENV, page)
    for seat, shown in ((0, True), (1, False)):
        application = offline_app()
        async with application.run_test(size=size) as pilot:
            await open_table(application, None, seat, lobby(phase="waiting"))
            for _ in range(6):
                await pilot.pause()
            # A phone's room is longer than its screen: it scrolls to the code.
            application.screen.query_one("#play-main").scroll_end(animate=False)
            for _ in range(3):
                await pilot.pause()
            screen = screen_text(application)
            code = code_on(screen)
            assert read_text(code) == ([page] if shown else []), screen
            assert len(code) == (len(qr_rows(page)) if shown else 0), screen

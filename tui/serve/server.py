"""Browser play: `gaslight serve` puts the app in a guest's browser, over HTTPS.

Each page runs an app process of its own (`tui.serve.session`); our page
(`templates/page.html`) and textual-serve's script draw it. What a LAN needs around that is
here:

- **A phone is a guest like any other.** The page declares a viewport and fits its font to
  the screen (an upright phone gets the app's narrow layouts), tells the app when its pointer
  is a finger, and asks before a closed tab ends a game (`tui.serve.page_app`). The address
  guests reach is printed as a QR code, and each guest's app is told it, to show others
  (`tui.serve.page_address`).

- **TLS.** A self-signed certificate, made and kept owner-only like a host's key (`HostKey`),
  and the page told its own https:// address, so that its websocket is wss:// (a browser
  refuses a plain ws:// socket from an https:// page).
- **A guest is a cookie.** A random id, set on the first visit (HttpOnly, Secure over HTTPS),
  names a directory of its own that the guest's app takes as its config and data directories:
  its name, seat book and known hosts are that guest's, and a reloaded tab finds its seats
  there as a restarted terminal does. The app's stderr is kept there too, never shown on the
  server's console. The id is checked against a strict pattern, so it can never be a path.
  Each visit renews the cookie and marks the directory; a directory left longer than the
  cookie lasts can never be reached again, and goes when the server starts. The cookie is
  `SameSite=Lax`: a guest who follows a link to the page from another site (a chat message,
  a redirect) arrives with it, as themself. Strict sent no cookie then, and the server gave
  them a new identity over the old one: their name, seats and known hosts were lost. Lax
  still keeps the cookie from any other site's requests but a top-level visit, and the visit
  does nothing but show the page.
- **Only our page opens the socket.** `/ws` takes only a request whose Origin is this
  server's own address: a page from another port of the same address (same-site, so it gets
  the cookie) cannot read a guest's screen or type for them.
- **Sessions are bounded.** At most `max_sessions` app processes at once; the next guest gets
  a page that says the server is full. At most `per_device` of them for one device (one
  address), so that one device's tabs, or a joker's, never take every session from the
  phones. A session counts while its process lives, and its process ends by a deadline
  (`tui.serve.session`). Connections are bounded by `tui.serve.listener`, what a page sends
  by `tui.serve.page`, and the limits are `tui.serve.limits.ServeLimits`.
- **A guest reaches only their own network.** Each app is told the network its page came
  from (the serving computer's interface that the page reached), and finds hosts there only
  (`tui.address.check_reachable`), or in networks the owner adds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import os
import re
import secrets
import shutil
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import web
from cryptography.hazmat.primitives import serialization

from netplay.store import DATA_DIR_ENV, private_dir
from netplay.transport import HostKey
from tui.address import GUEST_NETWORKS_ENV, Network
from tui.config import CONFIG_DIR_ENV
from tui.launch import INTERFACES_ENV
from tui.serve.limits import ServeLimits
from tui.serve.listener import Listener
from tui.serve.page import read_page
from tui.serve.page_app import (ENDS_PREFIX, NARROW_COLUMNS, POINTER_COOKIE, TOUCH_ENV,
                                touch_from)
from tui.serve.page_address import (PAGE_ADDRESS_ENV, forget_serving, guest_page_url,
                                    guests_first, page_url, write_serving)
from tui.serve.session import GuestSession, wait_all

log = logging.getLogger("gaslight.serve")

GUEST_COOKIE: Final = "gaslight_guest"
GUEST_ID: Final = re.compile(r"[A-Za-z0-9_-]{32}")
"""A guest id as `new_guest_id` makes it: 24 random bytes, URL-safe base64. Nothing else
is taken, so that no cookie can name a path."""
GUEST_COOKIE_SECONDS: Final = 365 * 24 * 3600
"""How long a guest's cookie lasts after their last visit."""
CERTIFICATE_FILE: Final = "certificate.pem"
GUESTS_DIR: Final = "guests"
TEXTUAL_SERVE: Final = Path(textual_serve.__file__).parent
"""textual-serve's page (templates/) and its script and styles (static/)."""
CLOSE_WAIT: Final = 1.0
"""Seconds a page's socket has to say goodbye once its app has ended; then it is cut."""
KILL_WAIT: Final = 2.0
"""Seconds, past the grace, for the apps killed at a stop to be reaped."""
CLEANUP_WAIT: Final = 2.0
"""Seconds the web server has to close its connections at a stop."""
ROOM_WAIT: Final = 3.0
ROOM_LOOK_EVERY: Final = 0.1
"""Seconds a device at its pages' limit waits for one it left to close, and how often it looks:
a reloaded tab's old page is seen closed within a moment."""


def to_int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


def new_guest_id() -> str:
    return secrets.token_urlsafe(24)


def guest_id(request: web.Request) -> str | None:
    """The guest's id from its cookie, or None when it has none or one we did not make."""
    value = request.cookies.get(GUEST_COOKIE, "")
    return value if GUEST_ID.fullmatch(value) else None


def certificate_fingerprint(key: HostKey) -> str:
    """The SHA-256 of the whole certificate, as browsers show it (colon-separated hex pairs);
    `key.fingerprint` is its public key's, which only some browsers show."""
    digest = hashlib.sha256(key.certificate.public_bytes(serialization.Encoding.DER)).hexdigest()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2)).upper()


PAGE: Final = Path(__file__).parent / "templates"
"""The page: textual-serve's, with a viewport for phones, the font fitted to the screen, its
pointer told to the app, and a closed tab at a game asking first (`page.html`). It fetches
nothing from another host: textual-serve's fetched its font from Google, which would tell
Google of every guest, and wait on a LAN with no way out."""
TERMINAL_OPENED: Final = "this.terminal.open(e),"
"""Where textual-serve's script opens its xterm.js terminal: the terminal is handed to the
page's own script there (`window.gaslightTerminal`), which follows its title."""


def page_script() -> bytes:
    """textual-serve's script, its terminal handed to the page."""
    script = (TEXTUAL_SERVE / "static" / "js" / "textual.js").read_text()
    if TERMINAL_OPENED not in script:
        raise RuntimeError("textual-serve's script changed: update TERMINAL_OPENED")
    return script.replace(TERMINAL_OPENED,
                          TERMINAL_OPENED + "window.gaslightTerminal=this.terminal,").encode()


FULL_PAGE: Final = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Gaslight is full</title></head>
<body style="background:#0c181f;color:#eee;font-family:monospace;padding:2em">
<h1>Gaslight is full</h1>
<p>{sessions} guests are playing on this computer, as many as it takes at once.
Try again when someone leaves.</p>
</body></html>
"""


TOO_MANY_PAGE: Final = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Gaslight is open here already</title></head>
<body style="background:#0c181f;color:#eee;font-family:monospace;padding:2em">
<h1>Gaslight is open here already</h1>
<p>This device has {sessions} Gaslight pages open, as many as one device gets, so that
everyone at the table can get one. Close one of them, then reload this page.</p>
</body></html>
"""


def network_of(address: str) -> Network:
    """The network of this computer's interface that holds `address` (the address a page
    reached); the address alone when no interface says."""
    import ifaddr  # zeroconf's

    ip = ipaddress.ip_address(address)
    for adapter in ifaddr.get_adapters():
        for entry in adapter.ips:
            host = entry.ip if isinstance(entry.ip, str) else entry.ip[0]
            with contextlib.suppress(ValueError):
                if ipaddress.ip_address(host) == ip:
                    return ipaddress.ip_network(f"{host}/{entry.network_prefix}", strict=False)
    return ipaddress.ip_network(address)


def raise_descriptor_limit(needed: int) -> None:
    """Let this process open `needed` file descriptors, as far as the system allows it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        ceiling = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


class GaslightServer:
    """The web server of `gaslight serve`: textual-serve's page, over TLS, with guest
    identities, a bound on sessions and connections, and a deadline on every guest's app."""

    def __init__(self, root: Path, bind: str = "127.0.0.1", port: int = 0, *,
                 interfaces: list[str] | None = None, max_sessions: int = 10,
                 per_device: int = 3, https: bool = True,
                 guests_reach: list[Network] | None = None,
                 limits: ServeLimits | None = None) -> None:
        self.root = private_dir(root)
        """The server's own directory: its certificate and one directory per guest."""
        self.bind = bind
        self.port = port
        self.interfaces = interfaces
        """Discovery's interfaces for every guest's app; None: every LAN interface."""
        self.max_sessions = max_sessions
        self.per_device = per_device
        self.https = https
        self.guests_reach = guests_reach or []
        """Networks every guest may reach besides the one their page came from."""
        self.limits = limits or ServeLimits()
        self.key = HostKey(self.root / CERTIFICATE_FILE) if https else None
        self.sessions: set[GuestSession] = set()
        """The sessions whose app is starting or running."""
        self.stopping = False
        self.listener: Listener | None = None
        self._runner: web.AppRunner | None = None
        self.urls: list[str] = []
        """The page's addresses, once listening: the one guests most likely reach first."""
        self.script = b""
        """The page's script, made with the web server."""

    @property
    def scheme(self) -> str:
        return "https" if self.https else "http"

    @property
    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions

    def open_from(self, remote: str | None) -> int:
        """The pages open from `remote` whose apps still run (a reloaded tab's is going)."""
        return sum(1 for s in self.sessions if s.remote == remote and not s.closing)

    async def room_for(self, remote: str | None) -> bool:
        """Whether `remote` may open one more page, once the pages it just left have gone: a
        tab reloaded fast asks for its new page before the server has seen the old one close,
        and was told the device had too many open."""
        deadline = time.monotonic() + ROOM_WAIT
        while self.open_from(remote) >= self.per_device:
            if time.monotonic() >= deadline or self.stopping:
                return False
            await asyncio.sleep(ROOM_LOOK_EVERY)
        return True

    def guest_home(self, guest: str) -> Path:
        return private_dir(self.root / GUESTS_DIR / guest)

    def guest_environment(self, home: Path, reached: str | None) -> dict[str, str]:
        """The guest's own config and data directories, the server's interfaces, the
        networks the guest may reach (the one of `reached`, the address their page came to,
        and those the owner added), and the page's address to show other guests."""
        networks = [*([network_of(reached)] if reached else []), *self.guests_reach]
        environment = {CONFIG_DIR_ENV: str(private_dir(home / "config")),
                       DATA_DIR_ENV: str(private_dir(home / "data")),
                       GUEST_NETWORKS_ENV: ",".join(str(n) for n in networks)}
        if self.urls:
            environment[PAGE_ADDRESS_ENV] = guest_page_url(self.scheme, reached, self.port,
                                                           self.urls[0])
        if self.interfaces:
            environment[INTERFACES_ENV] = ",".join(self.interfaces)
        return environment

    # -- pages ------------------------------------------------------------------------------

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.first_request])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(PAGE), autoescape=True)
        self.script = page_script()
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/page.js", self.handle_script, name="script"),
            web.static("/static", TEXTUAL_SERVE / "static", name="static"),
        ])
        return app

    async def handle_script(self, request: web.Request) -> web.Response:
        return web.Response(body=self.script, content_type="application/javascript")

    @web.middleware
    async def first_request(self, request: web.Request,
                            handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                            ) -> web.StreamResponse:
        """Every request: its connection has made one, and is kept past the deadline."""
        if self.listener is not None:
            self.listener.served(request.transport)
        return await handler(request)

    def origin(self, request: web.Request) -> str:
        """This server's origin, as the page the guest typed the address of has it."""
        return f"{self.scheme}://{request.host}"

    async def handle_index(self, request: web.Request) -> web.Response:
        if self.full:
            return web.Response(status=503, content_type="text/html",
                                text=FULL_PAGE.format(sessions=len(self.sessions)))
        if not await self.room_for(request.remote):
            return web.Response(status=429, content_type="text/html",
                                text=TOO_MANY_PAGE.format(sessions=self.per_device))
        # The page's own address, as the guest typed it: the websocket must go back there,
        # with the same scheme (wss:// under https://) and to the host its cookie is for.
        base = self.origin(request)
        router = request.app.router
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "websocket_url": f"{'wss' if self.https else 'ws'}://{request.host}"
                             f"{router['websocket'].url_for()}",
            "static_url": f"{base}{router['static'].url_for(filename='/')}",
            "script_url": f"{base}{router['script'].url_for()}",
            "pointer_cookie": POINTER_COOKIE, "secure": self.https,
            "title_prefix": ENDS_PREFIX, "narrow_columns": NARROW_COLUMNS,
        }
        response = aiohttp_jinja2.render_template("page.html", request, context)
        guest = guest_id(request)
        if guest is not None:
            self.visited(guest)
        response.set_cookie(GUEST_COOKIE, guest or new_guest_id(), httponly=True,
                            secure=self.https, samesite="Lax", max_age=GUEST_COOKIE_SECONDS)
        return response

    def visited(self, guest: str) -> None:
        """Mark the guest's directory, if it has one, as visited now: its cookie was renewed."""
        with contextlib.suppress(FileNotFoundError):
            os.utime(self.root / GUESTS_DIR / guest)

    def forget_expired_guests(self, now: float | None = None) -> list[str]:
        """Remove the directories of the guests not seen for longer than their cookie lasts:
        no browser can name them any more. The guests removed."""
        folder = self.root / GUESTS_DIR
        oldest = (time.time() if now is None else now) - GUEST_COOKIE_SECONDS
        expired = [home for home in (folder.iterdir() if folder.is_dir() else ())
                   if GUEST_ID.fullmatch(home.name) and home.is_dir()
                   and home.stat().st_mtime < oldest]
        for home in expired:
            shutil.rmtree(home, ignore_errors=True)
        return [home.name for home in expired]

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Origin") != self.origin(request):
            raise web.HTTPForbidden(text="this socket is for this server's own page")
        guest = guest_id(request)
        if guest is None:
            raise web.HTTPForbidden(text="open the page first: it gives this browser its name")
        if self.full or self.stopping:
            raise web.HTTPServiceUnavailable(text="Gaslight is full")
        if not await self.room_for(request.remote):
            raise web.HTTPTooManyRequests(text="Gaslight is open on this device already")
        home = self.guest_home(guest)
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        environment = self.guest_environment(home, sockname[0] if sockname else None)
        if touch_from(request.cookies.get(POINTER_COOKIE)):
            environment[TOUCH_ENV] = "1"
        session = GuestSession(
            [sys.executable, "-m", "tui"], guest, home, environment, self.limits,
            remote=request.remote, on_end=self._ended)
        self.sessions.add(session)
        log.info("a page opened from %s: %d sessions", request.remote, len(self.sessions))
        websocket = web.WebSocketResponse(heartbeat=self.limits.heartbeat,
                                          max_msg_size=self.limits.stdin_message,
                                          timeout=CLOSE_WAIT)
        try:
            await websocket.prepare(request)
            # A reloaded tab: its last app must be gone before the new one reads the seat
            # book, or the seat would look held by a running app.
            await wait_all([other for other in self.sessions
                            if other.guest == guest and other.closing],
                           self.limits.exit_grace + KILL_WAIT)
            await session.start(to_int(request.query.get("width", "80"), 80),
                                to_int(request.query.get("height", "24"), 24), websocket)
            await self._serve_page(websocket, session, request.transport)
        except Exception as error:  # noqa: BLE001 - one line, and the session still ends
            log.warning("a guest's session failed: %s: %s", type(error).__name__, error)
        finally:
            session.close()
            session.never_started()
            await self._say_goodbye(websocket, request)
        return websocket

    async def _serve_page(self, websocket: web.WebSocketResponse, session: GuestSession,
                          transport: asyncio.BaseTransport | None) -> None:
        """Until the page goes (closed, quiet too long, refused) or stops being served (it
        does not read, its app ended)."""
        reading = asyncio.create_task(read_page(websocket, session, self.limits, transport))
        lost = asyncio.create_task(session.page_lost.wait())
        try:
            await asyncio.wait([reading, lost], return_when=asyncio.FIRST_COMPLETED)
        finally:
            reading.cancel()
            lost.cancel()
        if reading.done() and not reading.cancelled() and reading.exception() is not None:
            raise reading.exception()  # type: ignore[misc]

    async def _say_goodbye(self, websocket: web.WebSocketResponse,
                           request: web.Request) -> None:
        """Close the page's socket; cut it if the page does not answer in time."""
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await websocket.close()
        except Exception:  # noqa: BLE001 - a page that does not read its goodbye
            if request.transport is not None:
                request.transport.abort()

    def _ended(self, session: GuestSession) -> None:
        if session in self.sessions:
            self.sessions.discard(session)
            log.info("a guest's app ended: %d sessions", len(self.sessions))

    # -- running ----------------------------------------------------------------------------

    async def start(self) -> int:
        """Listen on the bind address; returns the port (a free one when given 0)."""
        raise_descriptor_limit(self.limits.descriptors_needed(self.max_sessions))
        forgotten = self.forget_expired_guests()
        if forgotten:
            log.info("forgot %d guests not seen for a year", len(forgotten))
        # No access log: it printed each request's raw User-Agent and Referer on the console.
        self._runner = web.AppRunner(self.make_app(), handle_signals=False, access_log=None,
                                     keepalive_timeout=self.limits.keepalive,
                                     shutdown_timeout=CLEANUP_WAIT)
        await self._runner.setup()
        self.listener = Listener(self._runner.server, self.limits,
                                 self.key.server_context() if self.key else None)
        self.port = self.listener.start(self.bind, self.port)
        from netplay.announcer import advertised_addresses

        self.urls = [page_url(self.scheme, address, self.port)
                     for address in guests_first(advertised_addresses(self.bind,
                                                                      self.interfaces))]
        write_serving(self.root, self.urls[0])
        return self.port

    def kill_every_app(self) -> None:
        """End every guest's app now, without the grace: a second Ctrl+C."""
        for session in list(self.sessions):
            session.kill()

    async def close(self) -> None:
        """Stop listening and end every guest's app: each has `exit_grace` seconds to quit,
        telling the tables it hosts that they closed, and is killed then."""
        self.stopping = True
        forget_serving(self.root)
        if self.listener is not None:
            await self.listener.close()
        for session in list(self.sessions):
            session.close()
        left = await wait_all(list(self.sessions), self.limits.exit_grace + KILL_WAIT)
        if left:
            log.warning("%d guests' apps outlived their deadline", len(left))
        if self._runner is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CLEANUP_WAIT * 2):
                    await self._runner.cleanup()

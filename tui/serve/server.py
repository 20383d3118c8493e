"""Browser play: `gaslight serve` puts the app in a guest's browser, over HTTPS.

textual-serve runs one app process per page and relays its screen over a websocket. What a LAN
needs around that is here:

- **TLS.** A self-signed certificate, made and kept owner-only like a host's key (`HostKey`),
  and the page told its own https:// address, so that its websocket is wss:// (a browser
  refuses a plain ws:// socket from an https:// page).
- **A guest is a cookie.** A random id, set on the first visit (HttpOnly, Secure over HTTPS),
  names a directory of its own that the guest's app takes as its config and data directories:
  its name, seat book and known hosts are that guest's, and a reloaded tab finds its seats
  there as a restarted terminal does. The app's stderr is kept there too, never shown on the
  server's console. The id is checked against a strict pattern, so it can
  never be a path. Each visit renews the cookie and marks the directory; a directory left
  longer than the cookie lasts can never be reached again, and goes when the server starts.
- **Sessions are bounded.** At most `max_sessions` app processes at once; the next guest gets
  a page that says the server is full. At most `per_device` of them for one device (one
  address), so that one device's tabs, or a joker's, never take every session from the
  phones. A session's process ends when its page closes, and is killed if it does not quit in
  time.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import secrets
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Final

import aiohttp_jinja2
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from netplay.store import DATA_DIR_ENV, private_dir
from netplay.transport import HostKey
from tui.config import CONFIG_DIR_ENV, NAME_ENV
from tui.launch import INTERFACES_ENV

log = logging.getLogger("gaslight.serve")

GUEST_COOKIE: Final = "gaslight_guest"
GUEST_ID: Final = re.compile(r"[A-Za-z0-9_-]{32}")
"""A guest id as `new_guest_id` makes it: 24 random bytes, URL-safe base64. Nothing else
is taken, so that no cookie can name a path."""
GUEST_COOKIE_SECONDS: Final = 365 * 24 * 3600
"""How long a guest's cookie lasts after their last visit."""
CERTIFICATE_FILE: Final = "certificate.pem"
GUESTS_DIR: Final = "guests"
APP_LOG: Final = "app.log"
EXIT_GRACE: Final = 5.0
"""Seconds a session's app has to quit after its page closed, before it is killed."""


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


OUTSIDE_STYLESHEET: Final = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>")
"""textual-serve's page fetches its font from Google: it would tell Google of every guest, and
wait on a LAN with no way out. The page falls back to the browser's own monospace font."""
FIT_FONT: Final = """<script>
// Before textual.js reads the font size on load: the largest (up to 16 px) that fits the
// 80x24 cells every screen is laid out for, so a phone on its side gets the whole screen.
// A cell of the page's monospace font is about 0.6 em wide and 1.2 em high.
(() => {
  const terminal = document.getElementById("terminal");
  if (new URLSearchParams(location.search).has("fontsize")) return;
  const fits = Math.floor(Math.min(innerWidth / (80 * 0.6), innerHeight / (24 * 1.2)));
  terminal.dataset.fontSize = Math.max(8, Math.min(16, fits));
})();
</script>
"""

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


class GuestSession(AppService):
    """One page's app process, with its guest's own directories."""

    def __init__(self, command: list[str], guest: str, home: Path, environment: dict[str, str],
                 *, remote: str | None = None, **kwargs: Any) -> None:
        super().__init__(" ".join(command), **kwargs)
        self.argv = command
        self.remote = remote
        """The address the page was opened from."""
        self.guest = guest
        self.home = home
        self.guest_environment = environment
        self.closing = False
        self.ended = asyncio.Event()

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment.pop(NAME_ENV, None)  # the serving user's name is not every guest's
        environment.update(self.guest_environment)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24):
        # The app's stderr goes to the guest's own directory, owner-only: textual-serve would
        # copy it to the server's console, and a crash's traceback shows its locals (the
        # guest's hand among them).
        app_log = os.open(self.home / APP_LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            # Started without a shell, so that the process we stop is the app itself.
            self._process = process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=app_log,
                env=self._build_environment(width, height),
                start_new_session=True,  # Ctrl+C at the server's terminal is the server's
            )
        finally:
            os.close(app_log)
        # textual-serve's reader of the app's stderr finds it empty.
        process.stderr = asyncio.StreamReader()
        process.stderr.feed_eof()
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the app to quit, and kill it if it has not within EXIT_GRACE."""
        self.closing = True
        process = self._process
        try:
            async with asyncio.timeout(EXIT_GRACE):
                await super().stop()
                if process is not None:
                    await process.wait()
        except TimeoutError:
            log.warning("a guest's app did not quit in %.0f s: killed", EXIT_GRACE)
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()
        finally:
            self.ended.set()


class GaslightServer(Server):
    """textual-serve's server with TLS, guest identities and a bound on sessions."""

    def __init__(self, root: Path, bind: str = "127.0.0.1", port: int = 0, *,
                 interfaces: list[str] | None = None, max_sessions: int = 10,
                 per_device: int = 3, https: bool = True) -> None:
        super().__init__(command="gaslight", host=bind, port=port, title="Gaslight")
        self.root = private_dir(root)
        """The server's own directory: its certificate and one directory per guest."""
        self.interfaces = interfaces
        """Discovery's interfaces for every guest's app; None: every LAN interface."""
        self.max_sessions = max_sessions
        self.per_device = per_device
        self.https = https
        self.key = HostKey(self.root / CERTIFICATE_FILE) if https else None
        self.sessions: set[GuestSession] = set()
        self._runner: web.AppRunner | None = None

    @property
    def scheme(self) -> str:
        return "https" if self.https else "http"

    @property
    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions

    def open_from(self, remote: str | None) -> int:
        """The pages open from `remote` whose apps still run (a reloaded tab's is going)."""
        return sum(1 for s in self.sessions if s.remote == remote and not s.closing)

    def guest_home(self, guest: str) -> Path:
        return private_dir(self.root / GUESTS_DIR / guest)

    def guest_environment(self, home: Path) -> dict[str, str]:
        """The guest's own config and data directories, and the server's interfaces."""
        environment = {CONFIG_DIR_ENV: str(private_dir(home / "config")),
                       DATA_DIR_ENV: str(private_dir(home / "data"))}
        if self.interfaces:
            environment[INTERFACES_ENV] = ",".join(self.interfaces)
        return environment

    # -- pages ------------------------------------------------------------------------------

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its banner here; `gaslight serve` prints its own lines."""

    async def on_shutdown(self, app: web.Application) -> None:
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))

    async def handle_index(self, request: web.Request) -> web.Response:
        if self.full:
            return web.Response(status=503, content_type="text/html",
                                text=FULL_PAGE.format(sessions=len(self.sessions)))
        if self.open_from(request.remote) >= self.per_device:
            return web.Response(status=429, content_type="text/html",
                                text=TOO_MANY_PAGE.format(sessions=self.per_device))
        # The page's own address, as the guest typed it: the websocket must go back there,
        # with the same scheme (wss:// under https://) and to the host its cookie is for.
        base = f"{self.scheme}://{request.host}"
        router = request.app.router
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{'wss' if self.https else 'ws'}://{request.host}"
                                 f"{router['websocket'].url_for()}",
            "config": {"static": {"url": f"{base}{router['static'].url_for(filename='/')}"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        page = OUTSIDE_STYLESHEET.sub("", response.text)
        response.text = page.replace("</body>", FIT_FONT + "</body>")
        guest = guest_id(request)
        if guest is not None:
            self.visited(guest)
        response.set_cookie(GUEST_COOKIE, guest or new_guest_id(), httponly=True,
                            secure=self.https, samesite="Strict", max_age=GUEST_COOKIE_SECONDS)
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
        guest = guest_id(request)
        if guest is None:
            raise web.HTTPForbidden(text="open the page first: it gives this browser its name")
        if self.full:
            raise web.HTTPServiceUnavailable(text="Gaslight is full")
        if self.open_from(request.remote) >= self.per_device:
            raise web.HTTPTooManyRequests(text="Gaslight is open on this device already")
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        home = self.guest_home(guest)
        session = GuestSession(
            [sys.executable, "-m", "tui"], guest, home, self.guest_environment(home),
            remote=request.remote, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
            close=websocket.close, download_manager=self.download_manager)
        self.sessions.add(session)
        try:
            # A reloaded tab: its last app must be gone before the new one reads the seat
            # book, or the seat would look held by a running app.
            await asyncio.gather(*(other.ended.wait() for other in list(self.sessions)
                                   if other.guest == guest and other.closing))
            await session.start(to_int(request.query.get("width", "80"), 80),
                                to_int(request.query.get("height", "24"), 24))
            await self._process_messages(websocket, session)
        except Exception:
            log.exception("a guest's session failed")
        finally:
            await asyncio.shield(self._end(session))
            await websocket.close()
        return websocket

    async def _end(self, session: GuestSession) -> None:
        try:
            await session.stop()
        finally:
            self.sessions.discard(session)

    # -- running ----------------------------------------------------------------------------

    async def start(self) -> int:
        """Listen on the bind address; returns the port (a free one when given 0)."""
        forgotten = self.forget_expired_guests()
        if forgotten:
            log.info("forgot %d guests not seen for a year", len(forgotten))
        self._runner = web.AppRunner(await self._make_app(), handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port,
                           ssl_context=self.key.server_context() if self.key else None)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self.port

    async def close(self) -> None:
        """Stop listening and end every session's app."""
        if self._runner is not None:
            await self._runner.cleanup()

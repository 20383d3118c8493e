"""A real `gaslight serve` and the clients that attack it: the means of the serve-attack tests
(`tests/hostile/test_serve_*.py`, and the browser's in `tests/browser/`) and of
`benchmarks/serve_soak.py`.

A `RawGuest` speaks to the server as textual-serve's page script does, over its own
connection and with its own cookie, or as no page does: it may flood, stop reading or say
nothing. Every server listens on 127.0.0.1, with deadlines a test can wait out in seconds
(`SHORT`); their defaults are pinned by `tests/tui/test_serve.py`.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from support.browser import TIMEOUT, Served

SHORT = {"exit_grace": 1.0, "send_deadline": 2.0, "heartbeat": 60.0, "first_message": 2.0,
         "request_deadline": 2.0, "keepalive": 2.0}
"""Deadlines short enough for a test to wait out; the heartbeat long, so that each attack
meets the deadline it is about and not the heartbeat's."""
REAPED = 3.0
"""Seconds, past a deadline, for a killed app to be gone on a loaded machine."""
NAME_ASKED = b"What name should the other players see?"
"""What a new guest's app draws first."""
SESSIONS = re.compile(r": (\d+) sessions$", re.MULTILINE)


@dataclass
class Attacked:
    """A `gaslight serve` process under attack, its output and its log."""

    served: Served
    log_path: Path

    @property
    def url(self) -> str:
        return self.served.url

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    @property
    def pid(self) -> int:
        return self.served.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def sessions(self) -> int:
        """The sessions the server counts, as its log last said (0 before any)."""
        counts = SESSIONS.findall(self.log())
        return int(counts[-1]) if counts else 0

    def apps(self) -> list[int]:
        """The pids of the apps this server runs (its children)."""
        return self.served.app_processes()

    def stop(self) -> None:
        self.served.stop()


def start(data_dir: Path, *arguments: str, limits: dict | None = None, preexec_fn=None,
          prefix: tuple[str, ...] = ()) -> Attacked:
    """`gaslight serve` on 127.0.0.1 (unless `arguments` say another `--interface`), any free
    port, with `SHORT` deadlines (and `limits`); `prefix` runs it (`ip netns exec NAME`)."""
    settings = {**SHORT, **(limits or {})}
    env = {**os.environ, "GASLIGHT_INTERFACES": "127.0.0.1"}
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    log_path = data_dir.with_name(data_dir.name + ".log")
    command = [*prefix, sys.executable, "-m", "tui", "serve", "--port", "0", "--data-dir",
               str(data_dir), *[f"--limit={name}={value}" for name, value in settings.items()],
               *arguments]
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True,
                                   env=env, preexec_fn=preexec_fn)
    output = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"gaslight serve stopped: {log_path.read_text()}")
        output.append(line.rstrip("\n"))
        if line.startswith("at most "):
            break
    address = next(re.search(r"(https?://\S+)", line).group(1) for line in output
                   if line.startswith("Gaslight for browsers at "))
    return Attacked(Served(process, address + "/", output), log_path)


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended and waiting to be reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.fixture
def serve(tmp_path):
    """Starts `gaslight serve` (`start`'s arguments); every server stops after the test, and
    none may leave an app behind."""
    started = []

    def start_one(*arguments: str, preexec_fn=None, **limits) -> Attacked:
        attacked = start(tmp_path / f"serve-{len(started)}", *arguments, limits=limits,
                         preexec_fn=preexec_fn)
        started.append(attacked)
        return attacked

    yield start_one
    for attacked in started:
        apps = attacked.apps()
        if attacked.served.process.poll() is None:
            attacked.stop()
        assert not [pid for pid in apps if alive(pid)], "an app outlived its server"


class RawGuest:
    """One device's client, with a cookie of its own, from `source` (an address of 127/8)."""

    def __init__(self, url: str, source: str = "127.0.0.1") -> None:
        self.url = url
        self.source = source
        self.session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> "RawGuest":
        connector = aiohttp.TCPConnector(ssl=False, local_addr=(self.source, 0),
                                         force_close=True)
        # An unsafe jar keeps cookies of an IP address, as a browser does.
        self.session = aiohttp.ClientSession(connector=connector,
                                             cookie_jar=aiohttp.CookieJar(unsafe=True))
        return self

    async def __aexit__(self, *exc) -> None:
        assert self.session is not None
        await self.session.close()

    @property
    def origin(self) -> str:
        return self.url.rstrip("/")

    async def visit(self, **headers: str) -> tuple[int, str]:
        """GET the page (which gives the cookie): its status and text."""
        assert self.session is not None
        async with self.session.get(self.url, headers=headers) as response:
            return response.status, await response.text()

    async def socket(self, width: int = 80, height: int = 24, origin: str | None = None,
                     greet: bool = True) -> aiohttp.ClientWebSocketResponse:
        """Open the page's websocket as its script does; `greet`: send its size and a ping
        first, as a real page does at once."""
        assert self.session is not None
        websocket_url = self.url.replace("http", "ws", 1) + f"ws?width={width}&height={height}"
        websocket = await self.session.ws_connect(
            websocket_url, headers={"Origin": origin or self.origin}, autoping=True,
            max_msg_size=0)
        if greet:
            await websocket.send_json(["resize", {"width": width, "height": height}])
            await websocket.send_json(["ping", str(int(time.time() * 1000))])
        return websocket


    def cookie(self) -> str:
        """The guest's cookie, as the page gave it."""
        assert self.session is not None
        return next(c.value for c in self.session.cookie_jar if c.key == "gaslight_guest")

    async def stalled_socket(self, width: int, height: int,
                             messages: list[list]) -> asyncio.StreamWriter:
        """The page's websocket, by hand, on a connection whose receive buffer is tiny: it
        sends `messages` (masked frames, as a browser's) and then reads nothing at all."""
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((self.source, 0))
        sock.setblocking(False)
        host, port = self.origin.split("://")[1].rsplit(":", 1)
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        reader, writer = await asyncio.open_connection(
            sock=sock, ssl=context if self.url.startswith("https") else None,
            server_hostname=host if self.url.startswith("https") else None, limit=4096)
        writer.write(
            f"GET /ws?width={width}&height={height} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Origin: {self.origin}\r\nCookie: gaslight_guest={self.cookie()}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        for message in messages:
            writer.write(masked_text_frame(json.dumps(message).encode()))
        await writer.drain()
        return writer


def masked_text_frame(payload: bytes) -> bytes:
    """One websocket text frame from a client (RFC 6455: masked)."""
    mask = os.urandom(4)
    size = len(payload)
    length = (bytes([0x80 | size]) if size < 126 else
              bytes([0x80 | 126]) + size.to_bytes(2, "big") if size < 65536 else
              bytes([0x80 | 127]) + size.to_bytes(8, "big"))
    return (b"\x81" + length + mask
            + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload)))


async def screen_until(websocket: aiohttp.ClientWebSocketResponse, text: bytes,
                       timeout: float = TIMEOUT) -> bytes:
    """What the app drew on `websocket` until it drew `text` (AssertionError if it never
    did)."""
    drawn = b""
    try:
        async with asyncio.timeout(timeout):
            while text not in drawn:
                message = await websocket.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    drawn += message.data
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                      aiohttp.WSMsgType.ERROR):
                    raise AssertionError(f"the socket closed before {text!r} was drawn")
    except TimeoutError:
        raise AssertionError(f"the app never drew {text!r}") from None
    return drawn


async def close_code(websocket: aiohttp.ClientWebSocketResponse,
                     timeout: float = TIMEOUT) -> int | None:
    """Read `websocket` (screens and all) until the server closes it: its close code."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                message = await websocket.receive()
                if message.type == aiohttp.WSMsgType.CLOSE:
                    return message.data
                if message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    return websocket.close_code
    except TimeoutError:
        raise AssertionError(f"the server kept the socket open for {timeout} s") from None


async def a_new_guest_gets_an_app(attacked: Attacked, source: str = "127.0.0.1") -> None:
    """A new guest (another cookie) gets the page and an app that asks their name; then they
    leave, and their app ends."""
    before = set(attacked.apps())
    async with RawGuest(attacked.url, source) as guest:
        status, page = await guest.visit()
        assert status == 200, f"a new guest got {status}: {page[:200]}"
        websocket = await guest.socket()
        await screen_until(websocket, NAME_ASKED)
        theirs = [pid for pid in attacked.apps() if pid not in before]
        await websocket.close()
    await gone(theirs, float(SHORT["exit_grace"]) + REAPED, "the new guest's app")


async def sessions_become(attacked: Attacked, count: int, within: float = REAPED) -> None:
    """The server's count of sessions reaches `count` within `within` seconds: it logs an
    app's end a moment after the process is gone."""
    deadline = time.monotonic() + within
    while (now := attacked.sessions()) != count:
        if time.monotonic() > deadline:
            raise AssertionError(f"the server counts {now} sessions, not {count}")
        await asyncio.sleep(0.05)


async def gone(pids: list[int], within: float, what: str) -> None:
    """Every process of `pids` ends within `within` seconds."""
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            left = [pid for pid in pids if alive(pid)]
            raise AssertionError(f"{what}: {left} still run after {within} s")
        await asyncio.sleep(0.05)


async def apps_started(attacked: Attacked, count: int, timeout: float = TIMEOUT) -> list[int]:
    """The server's app pids once `count` of them run."""
    deadline = time.monotonic() + timeout
    while len(apps := attacked.apps()) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"{count} apps never started; {apps} run")
        await asyncio.sleep(0.05)
    return apps

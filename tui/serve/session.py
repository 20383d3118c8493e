"""One guest page's app: its process, the packets between it and the page, and its end.

textual-serve's `AppService` ran the app, but its end could not be relied on: its `run`
swallowed the cancellation that was to bound `stop`, and its `process.wait()` waited for the
dead app's stdout pipe too, which stays open while nobody reads it (a page that stopped
reading). So a guest's app here is ended by a deadline nothing can swallow:

- **The deadline is a timer, not an await.** `close` asks the app to quit (textual's `quit`
  packet, then the end of its input) and sets `loop.call_later(exit_grace, kill)`; `kill`
  sends SIGKILL to the app's process group and closes its pipes. No task's cancellation, and
  no reader or writer that waits, stands between the deadline and the kill.
- **A session is counted while its process lives.** `ended` is set, and `on_end` called, when
  the process exits (asyncio's `process_exited`), whatever else is still open.
- **The app notices its server is gone.** On Linux the app's process gets SIGKILL when the
  server's dies (`PR_SET_PDEATHSIG`, set in the child before it runs the app): a server killed
  with SIGKILL, or by the OOM killer, leaves no app behind.
- **What goes through is bounded.** The screen (`ServeLimits.screen`), a packet from the app
  (`app_packet`: one larger ends it), the app's memory (RLIMIT_DATA), and a page that does not
  read its screen for `send_deadline` seconds is taken as gone. What the page may send is
  bounded in `tui.serve.page`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import json
import logging
import os
import resource
import signal
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Final, Protocol

from tui.config import NAME_ENV
from tui.serve.limits import ServeLimits

log = logging.getLogger("gaslight.serve")

APP_LOG: Final = "app.log"
READY: Final = b"__GANGLION__\n"
"""What a textual app under the web driver writes first, before its packets."""
DATA, META, PACKED = b"D", b"M", b"P"
"""The packets' kinds: screen data, a JSON meta message, textual's binary file delivery."""
OUTBOX: Final = 256 * 1024
"""Bytes of the app's output read ahead of the page; beyond it the app waits to write."""
PR_SET_PDEATHSIG: Final = 1


class Page(Protocol):
    """What a session writes to: the guest's websocket."""

    async def send_bytes(self, data: bytes) -> None: ...


def app_environment(width: int, height: int, guest: dict[str, str]) -> dict[str, str]:
    """The server's environment for a guest's app, with textual's web driver at the page's
    size and the guest's own directories; the serving user's name is not every guest's."""
    environment = dict(os.environ)
    environment.pop(NAME_ENV, None)
    environment.update({
        "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
        "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual",
        "TERM_PROGRAM_VERSION": version("textual-serve"),
        "COLUMNS": str(width),
        "ROWS": str(height),
    })
    environment.update(guest)
    return environment


def child_setup(memory: int) -> Callable[[], None]:
    """What the app's process does before it runs the app: bound its memory, and (Linux) ask
    to be killed when the server dies. Resolved here, so that the child only calls."""
    prctl = None
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        prctl = libc.prctl
    limit = (memory, memory)

    def setup() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, limit)
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    return setup


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


class AppMisbehaved(Exception):
    """The app sent what no textual app under the web driver sends."""


class AppPipes(asyncio.SubprocessProtocol):
    """The app's stdout as a stream that pauses the app when read too far ahead, its stdin
    with a drain, and its exit."""

    def __init__(self, exited: Callable[[], None]) -> None:
        self.stdout = asyncio.StreamReader(limit=OUTBOX)
        self.exited = exited
        self.writing_paused = False
        self.stdin_closed = False
        self.drained: list[asyncio.Future[None]] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.stdout.set_transport(transport.get_pipe_transport(1))

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self.stdout.feed_data(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.stdout.feed_eof()
        elif fd == 0:
            self.stdin_closed = True
            self.resume_writing()

    def pause_writing(self) -> None:
        self.writing_paused = True

    def resume_writing(self) -> None:
        self.writing_paused = False
        for waiter in self.drained:
            if not waiter.done():
                waiter.set_result(None)
        self.drained.clear()

    async def drain(self) -> None:
        while self.writing_paused and not self.stdin_closed:
            waiter = asyncio.get_running_loop().create_future()
            self.drained.append(waiter)
            await waiter

    def process_exited(self) -> None:
        self.exited()


class GuestSession:
    """One page's app process, with its guest's own directories."""

    def __init__(self, argv: list[str], guest: str, home: Path, environment: dict[str, str],
                 limits: ServeLimits, *, remote: str | None = None,
                 on_end: Callable[["GuestSession"], None] = lambda session: None) -> None:
        self.argv = argv
        self.guest = guest
        self.home = home
        self.guest_environment = environment
        self.limits = limits
        self.remote = remote
        """The address the page was opened from."""
        self.on_end = on_end
        self.pid: int | None = None
        self.closing = False
        """The page is gone, or the server stops: the app has been asked to quit."""
        self.ended = asyncio.Event()
        """The app's process has exited (or never started)."""
        self.page_lost = asyncio.Event()
        """Nothing more goes to the page: it stopped reading, the app ended or misbehaved."""
        self._page: Page | None = None
        self._pipes: AppPipes | None = None
        self._transport: asyncio.SubprocessTransport | None = None
        self._relay: asyncio.Task[None] | None = None
        self._deadline: asyncio.TimerHandle | None = None

    async def start(self, width: int, height: int, page: Page) -> None:
        """Start the app at the page's size (within the limits), relaying its screen to
        `page`."""
        loop = asyncio.get_running_loop()
        width, height = self.limits.screen(width, height)
        # The app's stderr goes to the guest's own directory, owner-only: a crash's traceback
        # shows its locals (the guest's hand among them), never the server's console.
        app_log = os.open(self.home / APP_LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            # Started without a shell, so that the process we end is the app itself; in a
            # session of its own, so that Ctrl+C at the server's terminal is the server's.
            self._transport, self._pipes = await loop.subprocess_exec(
                lambda: AppPipes(self._exited), *self.argv,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=app_log, env=app_environment(width, height, self.guest_environment),
                start_new_session=True, preexec_fn=child_setup(self.limits.app_memory))
        finally:
            os.close(app_log)
        self.pid = self._transport.get_pid()
        self._relay = loop.create_task(self._relay_screen())
        if self.closing:  # the page left, or the server stopped, while the app started
            self._ask_to_quit()
        else:
            self._page = page

    # -- to the page ------------------------------------------------------------------------

    async def _packet(self) -> tuple[bytes, bytes]:
        assert self._pipes is not None
        header = await self._pipes.stdout.readexactly(5)
        kind, size = header[:1], int.from_bytes(header[1:], "big")
        if kind not in (DATA, META, PACKED) or size > self.limits.app_packet:
            raise AppMisbehaved(f"a packet {kind!r} of {size} bytes")
        return kind, await self._pipes.stdout.readexactly(size)

    async def _relay_screen(self) -> None:
        """The app's screen to the page, until the app's output ends; once the page is gone,
        what the app still writes is read and dropped, so that it is never stuck writing."""
        assert self._pipes is not None
        try:
            await self._pipes.stdout.readuntil(READY)
            while True:
                kind, payload = await self._packet()
                page = self._page
                if page is None:
                    continue
                if kind == DATA:
                    await self._send(page, payload)
                elif kind == META and json.loads(payload).get("type") == "exit":
                    self._lose_page()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass  # the app's output ended
        except (AppMisbehaved, ValueError, AttributeError) as error:
            log.warning("a guest's app sent what no app sends (%s): ended", error)
            self.kill()
        finally:
            self._lose_page()

    async def _send(self, page: Page, data: bytes) -> None:
        try:
            async with asyncio.timeout(self.limits.send_deadline):
                await page.send_bytes(data)
        except TimeoutError:
            log.info("a page read nothing for %.0f s: its app ends", self.limits.send_deadline)
            self._lose_page()
        except Exception:  # noqa: BLE001 - a page's socket fails in many ways: it is gone
            self._lose_page()

    def _lose_page(self) -> None:
        self._page = None
        self.page_lost.set()

    # -- from the page ----------------------------------------------------------------------

    async def send_input(self, data: bytes) -> None:
        """Keys from the page, as the terminal's input."""
        await self._write(packet(DATA, data))

    async def send_meta(self, meta: dict[str, object]) -> None:
        """A resize, a focus or a blur from the page."""
        await self._write(packet(META, json.dumps(meta).encode()))

    async def _write(self, data: bytes) -> None:
        pipes, transport = self._pipes, self._transport
        if pipes is None or transport is None or pipes.stdin_closed or self.closing:
            return
        stdin = transport.get_pipe_transport(0)
        if stdin is None or stdin.is_closing():
            return
        stdin.write(data)
        await pipes.drain()

    # -- the end ----------------------------------------------------------------------------

    def close(self) -> None:
        """Ask the app to quit and end its input; kill it if it has not quit within
        `exit_grace` seconds. Returns at once; `ended` is set when the process is gone."""
        if self.closing:
            return
        self.closing = True
        self._lose_page()
        if self._transport is not None:
            self._ask_to_quit()

    def _ask_to_quit(self) -> None:
        assert self._transport is not None
        stdin = self._transport.get_pipe_transport(0)
        if stdin is not None and not stdin.is_closing():
            with contextlib.suppress(Exception):
                stdin.write(packet(META, b'{"type": "quit"}'))
                stdin.write_eof()
        if self._deadline is None and not self.ended.is_set():
            self._deadline = asyncio.get_running_loop().call_later(
                self.limits.exit_grace, self.kill)

    def kill(self) -> None:
        """End the app now: SIGKILL to its process group, and its pipes closed."""
        transport = self._transport
        if transport is None or self.ended.is_set():
            return
        if transport.get_returncode() is None and self.pid is not None:
            if self.closing:
                log.warning("a guest's app did not quit in %.0f s: killed",
                            self.limits.exit_grace)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        # Its pipes, not the transport: closing that would reap the process behind asyncio's
        # child watcher, which reports the exit (`_exited`) that frees the session.
        for fd in (0, 1):
            pipe = transport.get_pipe_transport(fd)
            if pipe is not None:
                pipe.close()

    def _exited(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        if self._transport is not None:
            self._transport.close()  # the pipes go with the process
        self._lose_page()
        self.ended.set()
        self.on_end(self)

    def never_started(self) -> None:
        """The session ends before its app was started (the page left first)."""
        if self._transport is None and not self.ended.is_set():
            self.closing = True
            self._lose_page()
            self.ended.set()
            self.on_end(self)


async def wait_all(sessions: list[GuestSession], timeout: float) -> list[GuestSession]:
    """Wait up to `timeout` seconds for `sessions` to end: those still running after."""
    waits: list[Awaitable[bool]] = [s.ended.wait() for s in sessions]
    if waits:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await asyncio.gather(*waits)
    return [s for s in sessions if not s.ended.is_set()]

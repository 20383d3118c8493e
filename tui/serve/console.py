"""The owner's console stays the owner's: what `gaslight serve` prints is one line a record,
escaped, and a kind of warning repeated without end is printed once in a while with a count.

Guests choose much of what reaches a server's log: a request's line and headers, what a
malformed message held, how often a connection fails. So no record carries a traceback (an
exception is its type and message), every control character (C0, DEL and C1, U+009B among
them, which a terminal takes as the start of a command) and every character that reorders a
line is shown escaped, and a warning of the same kind as one printed less than `QUIET_FOR`
seconds ago is counted instead of printed. aiohttp's access log, which printed each request's
raw User-Agent and Referer, is off (`GaslightServer.start`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import time
from typing import Any, Final

QUIET_FOR: Final = 10.0
"""Seconds during which a second record of the same kind is counted, not printed."""
UNSAFE: Final = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Control characters and bidirectional marks: none reaches the console as it is."""
FORMAT: Final = "%(asctime)s %(name)s: %(message)s"


def escaped(text: str) -> str:
    """`text` with every unsafe character written as its escape (\\x9b, \\u202e)."""
    return UNSAFE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"),
                      text)


class OneLine(logging.Formatter):
    """One escaped line a record: an exception is named with its message, never traced."""

    def __init__(self) -> None:
        super().__init__(FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line = f"{line}: {type(error).__name__}: {error}"
        record = logging.makeLogRecord({**record.__dict__, "msg": escaped(line), "args": None,
                                        "exc_info": None, "exc_text": None,
                                        "stack_info": None})
        return super().format(record)


class Quieter(logging.Filter):
    """Prints a kind of warning or error (its logger and message template) at most once per
    `QUIET_FOR` seconds; the next one printed says how many were left out meanwhile."""

    def __init__(self, quiet_for: float = QUIET_FOR) -> None:
        super().__init__()
        self.quiet_for = quiet_for
        self.last: dict[tuple[str, Any], float] = {}
        self.left_out: dict[tuple[str, Any], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True  # the server's own news (a page opened): never a client's to repeat
        kind = (record.name, record.msg)
        now = time.monotonic()
        if now - self.last.get(kind, -self.quiet_for) < self.quiet_for:
            self.left_out[kind] = self.left_out.get(kind, 0) + 1
            return False
        self.last[kind] = now
        left_out = self.left_out.pop(kind, 0)
        if left_out:
            record.msg = f"{record.msg} (and {left_out} more like it left out)"
        return True


def set_up_console(level: int = logging.INFO) -> None:
    """The serving process's logging: one escaped line a record, on stderr, each kind of
    record quieted."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    handler.addFilter(Quieter())
    logging.basicConfig(level=level, handlers=[handler], force=True)


def loop_exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """asyncio's errors (a TLS handshake a client broke off, a transport it reset) as one line
    each: a client can cause them at will, and asyncio's own handler traces each one."""
    error = context.get("exception")
    message = context.get("message", "an error in the event loop")
    logging.getLogger("gaslight.serve").warning(
        "%s%s", message, f": {type(error).__name__}: {error}" if error is not None else "")

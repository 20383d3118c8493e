"""What a guest's page and its app tell each other besides the screen and the keys (the page's
script is `templates/page.html`):

- **The page's pointer.** The page sets a cookie, `POINTER_COOKIE`, to "coarse" when its
  pointer is a finger (a phone, a tablet); the socket's request carries it, and the server
  tells the app (`TOUCH_ENV`), which then puts a bar of buttons under every screen: a page
  without a keyboard never needs Ctrl, Esc or an F key.
- **What closing the page would end.** The app names it in the terminal's title, which
  xterm.js hands to the page: `ENDS_PREFIX` and the game ("Gaslight · Time Bomb at Baker
  Street"), or the plain `TITLE` when nothing would end. While something would, a closed
  tab asks the browser's "leave this page?" first, as Esc and Ctrl+Q ask in the app.
"""

from __future__ import annotations

import os
import re
from typing import Final

NARROW_COLUMNS: Final = 46
"""Columns an upright phone's page is given (its font fitted to them): what the app's narrow
layouts are made for."""
POINTER_COOKIE: Final = "gaslight_pointer"
TOUCH_ENV: Final = "GASLIGHT_TOUCH"
TITLE: Final = "Gaslight"
ENDS_PREFIX: Final = "Gaslight · "
TITLE_LENGTH: Final = 120
"""Characters of a title at most: a table's name is bounded already, a title more so."""
NOT_IN_TITLE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Control characters: one would end the title's escape sequence, or start another."""


def touch_from(cookie: str | None) -> bool:
    return cookie == "coarse"


def touch_from_environment() -> bool:
    """This app is a page's on a touch screen (the server said so)."""
    return os.environ.get(TOUCH_ENV) == "1"


def title_for(would_end: str) -> str:
    """The page's title: what closing it would end, if anything."""
    if not would_end:
        return TITLE
    return (ENDS_PREFIX + NOT_IN_TITLE.sub(" ", would_end))[:TITLE_LENGTH]


def title_sequence(title: str) -> str:
    """The escape sequence that sets a terminal's title (OSC 2)."""
    return f"\x1b]2;{NOT_IN_TITLE.sub(' ', title)}\x07"

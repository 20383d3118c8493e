"""Terminal-text cleaning: what a player types reaches other players' terminals as plain text.

Names, table names and chat pass through `clean_text` at the host, so that nothing a player
types can move another player's cursor, recolour their screen or set their window title.
"""

from __future__ import annotations


def clean_text(text: str) -> str:
    """`text` without terminal control sequences or control characters (newlines and tabs
    become spaces), so that nothing a player types can move another player's cursor, recolour
    their screen or set their window title."""
    out = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        code = ord(ch)
        if ch == "\x1b" or code == 0x9B or code == 0x9D or code == 0x90:
            i = _skip_escape(text, i)
            continue
        if ch in "\n\t\r":
            out.append(" ")
        elif code < 0x20 or 0x7F <= code < 0xA0 or code in _INVISIBLE:
            pass
        else:
            out.append(ch)
        i += 1
    return "".join(out).strip()


# Bidirectional overrides and isolates can make text read differently from what was typed.
_INVISIBLE = frozenset(
    [0x200B, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
     0x2069, 0xFEFF]
)


def _skip_escape(text: str, i: int) -> int:
    """The index after the escape sequence starting at `text[i]` (CSI, OSC, DCS or a two-byte
    escape)."""
    n = len(text)
    ch = text[i]
    if ch == "\x1b":
        if i + 1 >= n:
            return n
        kind = text[i + 1]
        i += 2
        if kind == "[":
            return _skip_csi(text, i)
        if kind in "]PX^_":
            return _skip_string(text, i)
        return i
    i += 1
    if ch == "\x9b":
        return _skip_csi(text, i)
    return _skip_string(text, i)


def _skip_csi(text: str, i: int) -> int:
    while i < len(text) and not "\x40" <= text[i] <= "\x7e":
        i += 1
    return i + 1


def _skip_string(text: str, i: int) -> int:
    """Skip an OSC/DCS string, ended by BEL, ST (ESC \\) or C1 ST."""
    while i < len(text):
        if text[i] in "\x07\x9c":
            return i + 1
        if text[i] == "\x1b" and i + 1 < len(text) and text[i + 1] == "\\":
            return i + 2
        i += 1
    return i

"""The table's chat as a screen holds it, told once per line across reconnects.

On joining, and again on every reconnect, the host sends the table's recent lines (`past`,
at most `netplay.table.CHAT_TAIL`). After a reconnect the first of them are lines this screen
shows already; only those said while it was away are new. No headless module imports textual.
"""

from __future__ import annotations

from typing import Generic, TypeVar

Line = TypeVar("Line")


class ChatHistory(Generic[Line]):
    """The last `kept` lines, and whether a line the host sends is one of them again."""

    def __init__(self, kept: int, recent: int) -> None:
        """`recent`: how many of its last lines a host sends again on a reconnect."""
        self.kept = kept
        self.recent = recent
        self.lines: list[Line] = []
        self._again: list[Line] | None = []
        """The held lines a reconnect's past lines are expected to repeat, in order; None
        until the first of them shows where the repeat starts."""

    def reconnected(self) -> None:
        """A new connection to the table: its past lines may repeat the held ones."""
        self._again = None

    def add(self, line: Line, past: bool = False) -> bool:
        """Keep `line` if it is new; whether it is (and so is to be shown)."""
        if past and self._again is None:
            recent = self.lines[-self.recent:]
            start = recent.index(line) if line in recent else None
            self._again = [] if start is None else recent[start + 1:]
            if start is not None:
                return False
        elif past and self._again and self._again[0] == line:
            self._again = self._again[1:]
            return False
        else:
            self._again = []  # a line said while away, or a live one: the repeat is over
        self.lines = [*self.lines[-(self.kept - 1):], line]
        return True

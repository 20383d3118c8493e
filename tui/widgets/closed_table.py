"""A table that has closed for good: who closed it, the evening's record, and the way back to
the lobby (PROTOCOL.md, `closed`). Its players are told in words, never left reconnecting."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.widgets.evening import Evening


class ClosedTable(Vertical):
    DEFAULT_CSS = """
    ClosedTable { height: 1fr; border: round $error; border-title-align: left; padding: 0 1; }
    ClosedTable #closed-words { height: auto; text-style: bold; }
    ClosedTable #closed-hint { height: auto; margin: 1 0 0 0; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="closed-words", markup=False)
        yield Evening(id="closed-evening")
        yield Static("Press Esc to go back to the lobby.", id="closed-hint")

    def on_mount(self) -> None:
        self.border_title = "The table is closed"

    def show(self, words: str, evening: Sequence[dict[str, Any]],
             team_name: Callable[[str], str]) -> None:
        """`words`: who closed it, as the host said; `evening`: the games it finished."""
        self.query_one("#closed-words", Static).update(words)
        record = self.query_one(Evening)
        record.team_name = team_name
        record.show(evening)

"""The game's log: every event the viewer may see, with players' names filled in."""

from __future__ import annotations

from typing import Any, Sequence

from textual.widgets import RichLog

from tui.models.seats import event_text


class EventLog(RichLog):
    DEFAULT_CSS = """
    EventLog { border: round $secondary; border-title-align: left; height: 1fr;
               scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=1, **kwargs)
        self.border_title = "Log"
        self.shown: list[dict[str, Any]] = []

    def show_events(self, events: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
        """Append the events not shown yet; start over when a new game replaced the old."""
        if len(events) < len(self.shown) or events[: len(self.shown)] != self.shown:
            self.clear()
            self.shown = []
        for event in events[len(self.shown) :]:
            self.write(event_text(event, names))
        self.shown = list(events)

    def note(self, text: str) -> None:
        """A line from the client itself (connection lost, an error), not from the game."""
        self.write("» " + text)

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
        self.masked: frozenset[str] = frozenset()

    def show_events(
        self,
        events: Sequence[dict[str, Any]],
        names: Sequence[str],
        masked: frozenset[str] = frozenset(),
    ) -> None:
        """Append the events not shown yet; start over when a new game replaced the old, or
        when the event types to mask (secrets hidden from onlookers) changed."""
        if (
            masked != self.masked
            or len(events) < len(self.shown)
            or events[: len(self.shown)] != self.shown
        ):
            self.clear()
            self.shown = []
            self.masked = masked
        for event in events[len(self.shown) :]:
            if event.get("type") in masked:
                self.write("(hidden: press h to show)")
            else:
                self.write(event_text(event, names))
        self.shown = list(events)

    def note(self, text: str) -> None:
        """A line from the client itself (connection lost, an error), not from the game."""
        self.write("» " + text)

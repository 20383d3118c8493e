"""The game's log: every event the viewer may see, with players' names filled in."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from tui.models.seats import event_text, name_of
from tui.widgets.following_log import FollowingLog

HIDDEN = "(hidden: Ctrl+E shows it)"


class EventLog(FollowingLog):
    DEFAULT_CSS = """
    EventLog { border: round $secondary; border-title-align: left; height: 1fr;
               scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=1, **kwargs)
        self.border_title = "Log"
        self.shown: list[dict[str, Any]] = []
        self.hide_private = False
        self.names: Sequence[str] = ()
        self.entries: list[dict[str, Any] | str] = []
        """What the log holds, in order: events, and the client's own notes as strings. A
        RichLog wraps lines as it writes them, so a resize writes them all again."""
        self.written_width = 0

    def show_events(
        self,
        events: Sequence[dict[str, Any]],
        names: Sequence[str],
        hide_private: bool = False,
        before: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        """Append the events not shown yet; start over when a new game replaced the old, or
        when the player hid or showed their secrets (the events only they may see). `before`
        holds the game's own lines to write before the event at an index (a round's summary
        before the next deal)."""
        self.names = names
        if len(events) < len(self.shown) or events[: len(self.shown)] != self.shown:
            self.shown, self.entries = [], []
            self.rewrite()
        if hide_private != self.hide_private:
            self.hide_private = hide_private
            self.rewrite()
        for index in range(len(self.shown), len(events)):
            for line in (before or {}).get(index, ()):
                self.entries.append(line)
                self.write(line)
            self.entries.append(events[index])
            self.write(self.line(events[index]))
        self.shown = list(events)

    def note(self, text: str) -> None:
        """A line from the client itself (connection lost, an error), not from the game."""
        self.entries.append("» " + text)
        self.write(self.entries[-1])

    def line(self, entry: dict[str, Any] | str) -> str:
        if isinstance(entry, str):
            return entry
        if self.hide_private and entry.get("private"):
            return HIDDEN
        text = event_text(entry, self.names)
        audience = entry.get("audience")
        if audience:  # a view of everything: "You see your wires" was someone's own line
            text = f"For {' and '.join(name_of(seat, self.names) for seat in audience)}: {text}"
        return text

    def rewrite(self) -> None:
        self.clear()
        self.written_width = self.scrollable_content_region.width
        for entry in self.entries:
            self.write(self.line(entry))

    def on_resize(self) -> None:
        if self.entries and self.scrollable_content_region.width != self.written_width:
            self.rewrite()

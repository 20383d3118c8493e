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
        self.starts: list[int | None] = []
        """Where each entry's lines start in the log: a step back in a replay drops the
        lines of the events it undoes instead of writing all the others again. None: written
        before the log knew its width (RichLog wrote it later)."""
        self.event_entries: list[int] = []
        """The entry each shown event's lines start at (its game lines before it included)."""
        self.written_width = 0

    def show_events(
        self,
        events: Sequence[dict[str, Any]],
        names: Sequence[str],
        hide_private: bool = False,
        before: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        """Append the events not shown yet; drop the last ones when `events` holds fewer of the
        same (a replay's step back); start over when a new game replaced the old, or when the
        player hid or showed their secrets (the events only they may see). `before` holds the
        game's own lines to write before the event at an index (a round's summary before the
        next deal)."""
        self.names = names
        if len(events) < len(self.shown) and events == self.shown[: len(events)]:
            self.drop_from(self.event_entries[len(events)])
            del self.event_entries[len(events):]
            self.shown = self.shown[: len(events)]
        elif events[: len(self.shown)] != self.shown:
            self.shown, self.entries, self.starts, self.event_entries = [], [], [], []
            self.rewrite()
        if hide_private != self.hide_private:
            self.hide_private = hide_private
            self.rewrite()
        for index in range(len(self.shown), len(events)):
            self.event_entries.append(len(self.entries))
            for line in (before or {}).get(index, ()):
                self.add(line)
            self.add(events[index])
        self.shown = list(events)

    def note(self, text: str) -> None:
        """A line from the client itself (connection lost, an error), not from the game."""
        self.add("» " + text)

    def add(self, entry: dict[str, Any] | str) -> None:
        self.entries.append(entry)
        self.starts.append(len(self.lines) if self.writes_now else None)
        self.write(self.line(entry))

    def drop_from(self, entry: int) -> None:
        """Take entries `entry` on (and their lines) out of the log."""
        if entry >= len(self.entries):
            return
        start = self.starts[entry]
        del self.entries[entry:], self.starts[entry:]
        if start is None:
            self.rewrite()
        else:
            self.truncate(start)

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
        entries, self.entries, self.starts = self.entries, [], []
        for entry in entries:
            self.add(entry)

    def on_resize(self) -> None:
        if self.entries and self.scrollable_content_region.width != self.written_width:
            self.rewrite()

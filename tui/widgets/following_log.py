"""A `RichLog` that shows its newest line in the same frame as the line itself, and that can
drop its last lines (a replay stepping back).

`RichLog.write` scrolls to the end only after the next refresh: the line is painted first
(off the bottom, unseen), and the scroll takes a second layout and paint. A replay step or a
burst of events waited for both. Here the scroll happens at once, so the frame that shows the
new lines shows them at the bottom.
"""

from __future__ import annotations

from typing import Any, Self

from textual.geometry import Size
from textual.widgets import RichLog


class FollowingLog(RichLog):
    @property
    def writes_now(self) -> bool:
        """A write goes into `lines` at once (RichLog keeps writes until its width is known)."""
        return self._size_known

    def write(self, content: Any, width: int | None = None, expand: bool = False,
              shrink: bool = True, scroll_end: bool | None = None,
              animate: bool = False) -> Self:
        if not self.writes_now or animate:
            # Textual keeps the write for when the size is known, and scrolls then.
            return super().write(content, width, expand, shrink, scroll_end, animate)
        super().write(content, width, expand, shrink, scroll_end=False)
        if self.auto_scroll if scroll_end is None else scroll_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        return self

    def truncate(self, lines: int) -> None:
        """Keep only the first `lines` lines."""
        if lines >= len(self.lines):
            return
        del self.lines[lines:]
        self._line_cache.clear()
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        self.refresh()
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

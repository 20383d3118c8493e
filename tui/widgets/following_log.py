"""A `RichLog` that shows its newest line in the same frame as the line itself.

`RichLog.write` scrolls to the end only after the next refresh: the line is painted first
(off the bottom, unseen), and the scroll takes a second layout and paint. A replay step or a
burst of events waited for both. Here the scroll happens at once, so the frame that shows the
new lines shows them at the bottom.
"""

from __future__ import annotations

from typing import Any, Self

from textual.widgets import RichLog


class FollowingLog(RichLog):
    def write(self, content: Any, width: int | None = None, expand: bool = False,
              shrink: bool = True, scroll_end: bool | None = None,
              animate: bool = False) -> Self:
        if not self._size_known or animate:
            # Textual keeps the write for when the size is known, and scrolls then.
            return super().write(content, width, expand, shrink, scroll_end, animate)
        super().write(content, width, expand, shrink, scroll_end=False)
        if self.auto_scroll if scroll_end is None else scroll_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        return self

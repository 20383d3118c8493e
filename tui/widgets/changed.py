"""Updating a `Static` (or a border's title) only when what it shows changed.

`Static.update` lays the whole screen out again, whatever it is given: a board or status bar
that sets every line on every state (a replay steps through hundreds) would pay that each time
for lines that did not change.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Static


def update_changed(static: Static, content: VisualType, *, layout: bool = True) -> None:
    """`static.update(content)`, unless it shows `content` already. `layout=False` where the
    widget's size does not depend on its content (a fixed-size line)."""
    if static.content != content:
        static.update(content, layout=layout)


def retitle(widget: Widget, title: str | None = None, *, subtitle: str | None = None) -> None:
    """Set a widget's border title (and subtitle), unless it shows them already: setting one
    repaints the whole widget, whatever it is given. Titles are markup, as Textual's are."""
    if title is not None and widget.border_title != title:
        widget.border_title = title
    if subtitle is not None and widget.border_subtitle != subtitle:
        widget.border_subtitle = subtitle

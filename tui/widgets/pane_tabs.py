"""Tabs for a narrow screen's lower pane: the log or the chat, one at a time, under a board
that stays in sight.

At 80 columns and more the log and the chat stand beside the board and these tabs are not
shown. On a phone upright there is room for one of them under the board: a tap on a tab shows
it, and a tab that is not shown counts the lines said or logged since it last was ("Chat 2").
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

PANES = ("log", "chat")
PANE_WORDS = {"log": "Log", "chat": "Chat"}


class PaneTab(Static, can_focus=False):
    DEFAULT_CSS = """
    PaneTab { width: 1fr; height: 1; content-align: center middle; background: $panel;
              color: $text-muted; }
    PaneTab.-shown { background: $secondary; color: $text; text-style: bold; }
    """

    def __init__(self, pane: str) -> None:
        super().__init__(PANE_WORDS[pane], id=f"tab-{pane}")
        self.pane = pane

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(PaneTabs.Chosen(self.pane))


class PaneTabs(Horizontal):
    """The tabs; the view that holds them shows the pane chosen (`Chosen`)."""

    DEFAULT_CSS = """
    PaneTabs { height: 1; display: none; }
    PaneTabs PaneTab { margin: 0 1 0 0; }
    """

    @dataclass
    class Chosen(Message):
        pane: str

    def __init__(self, shown: str = PANES[0], **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown = shown
        self.unseen = {pane: 0 for pane in PANES}

    def compose(self) -> ComposeResult:
        for pane in PANES:
            yield PaneTab(pane)

    def on_mount(self) -> None:
        self.show(self.shown)

    def show(self, pane: str) -> None:
        self.shown = pane
        self.unseen[pane] = 0
        for tab in self.query(PaneTab):
            tab.set_class(tab.pane == pane, "-shown")
            self.label(tab)

    def added(self, pane: str, lines: int) -> None:
        """`lines` more lines in `pane`: counted on its tab while it is not shown."""
        if pane != self.shown and lines > 0:
            self.unseen[pane] += lines
            self.label(self.query_one(f"#tab-{pane}", PaneTab))

    def label(self, tab: PaneTab) -> None:
        unseen = self.unseen[tab.pane]
        tab.update(PANE_WORDS[tab.pane] + (f" {unseen}" if unseen else ""))

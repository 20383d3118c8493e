"""Table talk: what was said, and a line to say something."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from tui.widgets.following_log import FollowingLog

MAX_CHAT = 400

ChatLine = tuple[str, str, str]
"""A line said at the table: who, what, and on which channel."""


TABLE_KEYS = frozenset({"ctrl+d", "ctrl+e", "ctrl+k"})
"""Keys a text box would take for its own editing that the table uses for the game
(Ctrl+D decides, Ctrl+E hides, Ctrl+K claims): the chat line never edits with them."""


class ChatInput(Input):
    """The chat's line. At a table it always has the focus, so its cursor shows where the next
    letter goes, but it takes no key itself: the table's keyboard types into it and edits it
    (screens/table_keyboard.py), in the order the keys arrive. Its editing keys are Input's,
    less the table's own (`TABLE_KEYS`)."""

    inherit_bindings = False
    BINDINGS = [
        replace(binding, key=",".join(k for k in binding.key.split(",") if k not in TABLE_KEYS))
        for binding in Input.BINDINGS
        if isinstance(binding, Binding) and set(binding.key.split(",")) - TABLE_KEYS
        and binding.action != "submit"
    ]


class ChatPanel(Vertical):
    DEFAULT_CSS = """
    ChatPanel { border: round $secondary; border-title-align: left; height: 40%; min-height: 6; }
    ChatPanel RichLog { height: 1fr; scrollbar-size-vertical: 1; }
    ChatPanel Input { height: 1; border: none; padding: 0 1; background: $boost; }
    ChatPanel Input:focus { border: none; background: $accent 30%; }
    """

    @dataclass
    class Sent(Message):
        text: str

    def __init__(self, *, spectator: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spectator = spectator

    def compose(self) -> ComposeResult:
        yield FollowingLog(wrap=True, markup=False, highlight=False, min_width=1, id="chat-log")
        # The line is typed into wherever its cursor is: selecting what it held when it took
        # the focus would let the next letter replace all of it.
        yield ChatInput(placeholder=self.placeholder(), id="chat-input", max_length=MAX_CHAT,
                        select_on_focus=False)

    def placeholder(self) -> str:
        # The panel's title already says "Spectator chat"; 80 columns leave 28 for this.
        return "type to chat…"

    def on_mount(self) -> None:
        self.border_title = "Spectator chat" if self.spectator else "Chat"

    @property
    def line(self) -> ChatInput:
        return self.query_one(ChatInput)

    def set_spectator(self, spectator: bool) -> None:
        self.spectator = spectator
        self.border_title = "Spectator chat" if spectator else "Chat"
        self.line.placeholder = self.placeholder()

    def add(self, sender: str, text: str, channel: str = "table") -> None:
        prefix = "(spectators) " if channel == "spectators" and not self.spectator else ""
        self.query_one(RichLog).write(f"{prefix}{sender}: {text}")

    def send(self) -> None:
        """Say the line, and empty it for the next."""
        line = self.line
        text = line.value.strip()
        line.clear()
        if text:
            self.post_message(self.Sent(text))

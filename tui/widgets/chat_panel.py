"""Table talk: what was said, and a line to say something."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

MAX_CHAT = 400


class ChatPanel(Vertical):
    DEFAULT_CSS = """
    ChatPanel { border: round $secondary; border-title-align: left; height: 40%; min-height: 6; }
    ChatPanel RichLog { height: 1fr; scrollbar-size-vertical: 1; }
    ChatPanel Input { height: 1; border: none; padding: 0 1; background: $boost; }
    ChatPanel Input:focus { border: none; background: $accent 30%; }
    """

    BINDINGS = [Binding("escape", "done", "Back to the table")]

    @dataclass
    class Sent(Message):
        text: str

    class Done(Message):
        """The player is done typing: the keyboard goes back to the table."""

    def action_done(self) -> None:
        self.post_message(self.Done())

    def __init__(self, *, spectator: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spectator = spectator

    def compose(self) -> ComposeResult:
        yield RichLog(wrap=True, markup=False, highlight=False, min_width=1, id="chat-log")
        yield Input(placeholder=self.placeholder(), id="chat-input", max_length=MAX_CHAT)

    def placeholder(self) -> str:
        # The panel's title already says "Spectator chat"; 80 columns leave 28 for this.
        return "say something…"

    def on_mount(self) -> None:
        self.border_title = "Spectator chat" if self.spectator else "Chat"

    def set_spectator(self, spectator: bool) -> None:
        self.spectator = spectator
        self.border_title = "Spectator chat" if spectator else "Chat"
        self.query_one(Input).placeholder = self.placeholder()

    def add(self, sender: str, text: str, channel: str = "table") -> None:
        prefix = "(spectators) " if channel == "spectators" and not self.spectator else ""
        self.query_one(RichLog).write(f"{prefix}{sender}: {text}")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.clear()
        if text:
            self.post_message(self.Sent(text))

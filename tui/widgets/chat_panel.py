"""Table talk: what was said, and a line to say something."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from tui.widgets.following_log import FollowingLog

MAX_CHAT = 400

ChatLine = tuple[str, str, str]
"""A line said at the table: who, what, and on which channel."""


def typed_character(event: events.Key, focused: object, keys: str = "") -> str | None:
    """The character a key press that reached the screen types into the chat: any printable
    one but the screen's own `keys`. Letters never run a command at a table, so a sentence
    typed without pressing anything first goes to the chat whole. A text box consumes the keys
    it gets; one that reached the screen while the chat box has the keyboard was sent to
    another widget before the box took it (a fast typist's keys come together): it is text,
    whatever it is."""
    if not event.is_printable or event.character is None:
        return None
    if isinstance(focused, Input):
        return event.character
    return None if event.character in keys else event.character


TABLE_KEYS = frozenset({"ctrl+d", "ctrl+e", "ctrl+k"})
"""Keys a text box would take for its own editing that the table uses for the game
(Ctrl+D decides, Ctrl+E hides, Ctrl+K claims): the chat box leaves them to the table."""


class ChatInput(Input):
    """The chat's line: a text box that lets the table's keys through (`TABLE_KEYS`), so a
    game key pressed while the line still has the keyboard reaches the game."""

    inherit_bindings = False
    BINDINGS = [
        replace(binding, key=",".join(k for k in binding.key.split(",") if k not in TABLE_KEYS))
        for binding in Input.BINDINGS
        if isinstance(binding, Binding) and set(binding.key.split(",")) - TABLE_KEYS
    ]


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
        yield FollowingLog(wrap=True, markup=False, highlight=False, min_width=1, id="chat-log")
        # Typing a letter anywhere focuses this box with the letter in it: selecting what it
        # held on focus would let the next letter replace both.
        yield ChatInput(placeholder=self.placeholder(), id="chat-input", max_length=MAX_CHAT,
                        select_on_focus=False)

    def placeholder(self) -> str:
        # The panel's title already says "Spectator chat"; 80 columns leave 28 for this.
        return "type to chat…"

    def on_mount(self) -> None:
        self.border_title = "Spectator chat" if self.spectator else "Chat"

    def set_spectator(self, spectator: bool) -> None:
        self.spectator = spectator
        self.border_title = "Spectator chat" if spectator else "Chat"
        self.query_one(Input).placeholder = self.placeholder()

    def type(self, text: str) -> None:
        """Put the keyboard in the chat box, with `text` typed at its end; a line break at
        the end sends the line, as Enter would."""
        box = self.query_one(Input)
        # At once, not after the keys already queued (`focus()` waits its turn).
        self.screen.set_focus(box)
        box.cursor_position = len(box.value)
        box.insert_text_at_cursor(text.removesuffix("\n"))
        if text.endswith("\n"):
            self.run_worker(box.action_submit(), group="chat-submit")

    def add(self, sender: str, text: str, channel: str = "table") -> None:
        prefix = "(spectators) " if channel == "spectators" and not self.spectator else ""
        self.query_one(RichLog).write(f"{prefix}{sender}: {text}")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.clear()
        if text:
            self.post_message(self.Sent(text))

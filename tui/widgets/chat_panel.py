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


TYPED_KEPT = 64
"""Keys the chat line remembers the time and place of, for a key that reaches it late."""


class ChatInput(Input):
    """The chat's line: a text box that lets the table's keys through (`TABLE_KEYS`), so a
    game key pressed while the line still has the keyboard reaches the game.

    A fast typist's first keys reach the widget that had the keyboard, and come to the line
    through the screen, while the keys after them come to the line straight: a busy machine
    can hand it a later key first. Each key it types itself is kept with its time and place,
    so that a key that comes late goes where it was typed (`type_late`), not at the end. For
    the same reason Enter sends the line at once, and remembers when: a key pressed after it
    is the table's (`after_sent`), even when it reaches the line before the board has the
    keyboard back ("cutting Bob now", Enter, 3 picks Bob)."""

    inherit_bindings = False
    BINDINGS = [
        replace(binding, key=",".join(k for k in binding.key.split(",") if k not in TABLE_KEYS))
        for binding in Input.BINDINGS
        if isinstance(binding, Binding) and set(binding.key.split(",")) - TABLE_KEYS
    ]

    def __init__(self, *args: Any, keeps_keyboard: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keeps_keyboard = keeps_keyboard
        self.typed: list[tuple[float, int]] = []
        """The keys typed here since the line was last sent: each one's time and the place it
        went in the line."""
        self.sent_at: float | None = None
        """When the Enter that sent the last line was pressed, until the line has the keyboard
        again."""

    def on_focus(self) -> None:
        self.sent_at = None  # a new line begins

    def after_sent(self, event: events.Key) -> bool:
        """`event` was pressed after the line was sent: it is the table's, not the line's."""
        return self.sent_at is not None and event.time > self.sent_at

    def send(self, time: float) -> None:
        """Send the line, as Enter pressed at `time` does, at once (see the class's note)."""
        self.sent_at = None if self.keeps_keyboard else time
        value = self.value
        self.clear()
        self.post_message(self.Submitted(self, value))

    def _on_key(self, event: events.Key) -> None:
        # Textual then calls Input's own `_on_key`, which types the key, unless the default is
        # prevented here.
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.send(event.time)
        elif self.after_sent(event):
            event.prevent_default()  # not typed here: the screen hands it to the table
        elif event.is_printable and self.selection.is_empty:
            self.typed = [*self.typed[-TYPED_KEPT + 1:], (event.time, self.cursor_position)]

    def type_late(self, text: str, time: float | None) -> None:
        """`text`, of a key pressed at `time` that came through another widget: before the
        keys typed here that were pressed after it, else at the end of the line."""
        later = next((n for n, (when, _) in enumerate(self.typed)
                      if time is not None and when > time), None)
        if later is None:
            self.cursor_position = len(self.value)
            self.insert_text_at_cursor(text)
            return
        at = min(self.typed[later][1], len(self.value))
        end = self.cursor_position
        self.value = self.value[:at] + text + self.value[at:]
        self.cursor_position = end + len(text) if end >= at else end
        self.typed[later:] = [(when, place + len(text)) for when, place in self.typed[later:]]

    def clear(self) -> None:
        self.typed = []
        super().clear()


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

    def __init__(self, *, spectator: bool = False, keeps_keyboard: bool = False,
                 **kwargs: Any) -> None:
        """`keeps_keyboard`: the line keeps the keyboard after sending (the end screen's);
        else the table takes it back, and the keys pressed after Enter are the table's."""
        super().__init__(**kwargs)
        self.spectator = spectator
        self.keeps_keyboard = keeps_keyboard

    def compose(self) -> ComposeResult:
        yield FollowingLog(wrap=True, markup=False, highlight=False, min_width=1, id="chat-log")
        # Typing a letter anywhere focuses this box with the letter in it: selecting what it
        # held on focus would let the next letter replace both.
        yield ChatInput(placeholder=self.placeholder(), id="chat-input", max_length=MAX_CHAT,
                        select_on_focus=False, keeps_keyboard=self.keeps_keyboard)

    def placeholder(self) -> str:
        # The panel's title already says "Spectator chat"; 80 columns leave 28 for this.
        return "type to chat…"

    def on_mount(self) -> None:
        self.border_title = "Spectator chat" if self.spectator else "Chat"

    def set_spectator(self, spectator: bool) -> None:
        self.spectator = spectator
        self.border_title = "Spectator chat" if spectator else "Chat"
        self.query_one(Input).placeholder = self.placeholder()

    def type(self, text: str, time: float | None = None) -> None:
        """Put the keyboard in the chat box, with `text` typed at its end, or, for keys
        pressed at `time`, where they were typed among the keys the box took itself since; a
        line break at the end sends the line, as Enter would."""
        box = self.query_one(ChatInput)
        # At once, not after the keys already queued (`focus()` waits its turn).
        self.screen.set_focus(box)
        box.type_late(text.removesuffix("\n"), time)
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

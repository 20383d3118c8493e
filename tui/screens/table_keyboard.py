"""Where the keys typed at a table go: one owner, taking the keys in the order they arrive
(tui/README.md, "The table's keyboard"; design.md, "The keyboard").

`GaslightApp.on_event` hands every key and paste that reaches a screen with a keyboard to it
while the App still holds the key, before Textual would forward it to the focused widget's
queue; the keyboard is done with it (typed, highlighted, acted on and awaited) before the App
takes the next. So no key waits in one widget's queue while a later one is taken in another's,
nothing is re-posted or placed by its time, and a burst is routed as the same keys one by one.

What a key does depends only on what the screen shows when it arrives:
- printable: text typed into the line; a digit into a line that is empty or only a number
  names a row of the list the choice is in (the number shows in the line);
- Enter: sends the line's words, or, on an empty line or a number, takes the highlighted (or
  named) row, but only when the row was on screen before the key was typed; on a line that is
  only `?`, lists the keys;
- Up and Down move the highlight (Home, End and the page keys too, on an empty line); Esc
  closes the open dialog, clears the line, or leaves;
- any other key: the first enabled binding of the screen's binding chain (what the footer
  shows), else the line's own editing.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from textual import events
from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Input

from tui.widgets.chat_panel import ChatInput, ChatPanel
from tui.widgets.choice_panel import ChoicePanel
from tui.widgets.pick_list import PickList

KEYS_QUESTION = "?"
"""A line that is only this asks for the table's keys: Enter lists them (`?` is also the
first key of many a sentence)."""

MOVES = {"up": "cursor_up", "down": "cursor_down", "home": "first", "end": "last",
         "pageup": "page_up", "pagedown": "page_down"}
"""The keys that move a list's highlight, and the list's action for each."""

CHANGED = "The table changed as you pressed Enter: nothing was chosen. Look, then press it again."


class KeyedScreen(Protocol):
    """What a screen with a keyboard tells it: where text goes, where a choice is made, and
    which nodes' bindings the other keys run, most particular first."""

    def keyboard_line(self) -> Input | None: ...
    def keyboard_choices(self) -> PickList | None: ...
    def keyboard_nodes(self) -> Sequence[DOMNode]: ...


def bindings_of(node: DOMNode) -> BindingsMap:
    # Textual keeps each node's bindings, its own merged with its bases', here.
    return node._bindings


def binding_chain(nodes: Sequence[DOMNode]) -> list[tuple[DOMNode, BindingsMap]]:
    """The chain of a screen with a keyboard, for its footer and `?`: the keys it runs."""
    return [(node, bindings_of(node).copy()) for node in nodes]


def is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


class TableKeyboard:
    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.keyed: KeyedScreen = screen  # type: ignore[assignment]
        self.before_number: tuple[PickList, int | None] | None = None
        """The list a number in the line highlights in, and its highlight before the number's
        first digit: given back when the digits turn out to start a sentence."""

    # -- what arrives ---------------------------------------------------------------------------

    async def press(self, event: events.Key) -> None:
        """One key, to the end of what it does."""
        key = event.key
        if event.is_printable and event.character is not None:
            await self.typed(event.character)
        elif key == "enter":
            await self.enter(event.time)
        elif key in MOVES and self.moves_highlight(key):
            choices = self.keyed.keyboard_choices()
            if choices is not None and choices.is_mounted:
                await self.screen.app.run_action(MOVES[key], choices)
        elif key == "escape":
            await self.escape()
        elif not await self.run_binding(key):
            await self.edit(key)

    def moves_highlight(self, key: str) -> bool:
        """Up and Down always move the highlight; Home, End and the page keys do while the
        line is empty, and edit it once it holds something."""
        line = self.keyed.keyboard_line()
        return key in ("up", "down") or line is None or not line.value

    def paste(self, event: events.Paste) -> None:
        """A paste is typed into the line as one piece: its line breaks are spaces, never
        Enter, so a paste neither sends nor chooses."""
        line = self.keyed.keyboard_line()
        if line is None or not event.text:
            return
        text = " ".join(event.text.splitlines())
        room = (line.max_length or len(line.value) + len(text)) - len(line.value) + len(
            line.selected_text)
        if len(text) > room:
            self.screen.notify(f"A line holds {line.max_length} characters: the last "
                               f"{len(text) - room} of the paste were left out.",
                               severity="warning", timeout=5, markup=False)
            text = text[:max(0, room)]
        self.type_into(line, text)

    # -- text -----------------------------------------------------------------------------------

    async def typed(self, character: str) -> None:
        line = self.keyed.keyboard_line()
        if line is None:  # a question: a digit names an answer, `?` lists the keys
            choices = self.keyed.keyboard_choices()
            if choices is not None and is_number(character):
                choices.highlight_number(int(character))
            elif character == "?":
                await self.run_binding("question_mark")
            return
        self.type_into(line, character)

    def type_into(self, line: Input, text: str) -> None:
        if line.selection.is_empty:
            line.insert_text_at_cursor(text)
        else:
            line.replace(text, *line.selection)
        self.follow_line(line)

    def follow_line(self, line: Input) -> None:
        """A chat line that is only a number highlights the row the number names; once it is
        more, the digits began a sentence and the highlight goes back where it was."""
        choices = self.keyed.keyboard_choices()
        number = isinstance(line, ChatInput) and choices is not None and is_number(line.value)
        if number:
            if self.before_number is None or self.before_number[0] is not choices:
                self.before_number = (choices, choices.highlighted)
            choices.highlight_number(int(line.value))
        elif self.before_number is not None:
            named_in, highlighted = self.before_number
            self.before_number = None
            if named_in is choices and named_in.is_attached:
                named_in.highlighted = highlighted

    async def edit(self, key: str) -> None:
        """The line's own editing keys: Backspace, Left, Home..."""
        line = self.keyed.keyboard_line()
        if line is None:
            return
        for binding in bindings_of(line).key_to_bindings.get(key, ()):
            if await self.screen.app.run_action(binding.action, line):
                self.follow_line(line)
                return

    # -- choices ----------------------------------------------------------------------------------

    async def enter(self, typed_at: float) -> None:
        line = self.keyed.keyboard_line()
        value = line.value if line is not None else ""
        if isinstance(line, ChatInput) and value == KEYS_QUESTION:
            line.clear()
            await self.run_binding("question_mark")
            return
        if isinstance(line, ChatInput) and value.strip() and not is_number(value):
            self.before_number = None
            self.send(line)
            return
        choices = self.keyed.keyboard_choices()
        if choices is None:
            return
        if not choices.typed_against(typed_at):
            self.screen.notify(CHANGED, severity="warning", timeout=4, markup=False)
            return
        if isinstance(line, ChatInput) and value:
            line.clear()
            self.before_number = None
            if is_number(value):
                index = choices.index_of(int(value))
                if index is None:
                    self.refuse(choices.refusal(int(value)))
                    return
                choices.highlighted = index
        if choices.highlighted is None:
            self.refuse(choices.refusal(None))
            return
        choices.take()

    def send(self, line: ChatInput) -> None:
        """Say the line's words: the chat panel holding it sends them."""
        panel = next((a for a in line.ancestors if isinstance(a, ChatPanel)), None)
        if panel is not None:
            panel.send()

    def refuse(self, words: str) -> None:
        self.screen.notify(words, severity="warning", timeout=3, markup=False)

    async def escape(self) -> None:
        """Esc closes the open dialog; with none, it clears a line of words, and on an empty
        line it is the screen's (leaving the table, which asks first at a running game)."""
        line = self.keyed.keyboard_line()
        dialog = any(isinstance(node, ChoicePanel) for node in self.keyed.keyboard_nodes())
        if isinstance(line, ChatInput) and line.value and not dialog:
            line.clear()
            self.follow_line(line)
            return
        await self.run_binding("escape")

    # -- bindings ---------------------------------------------------------------------------------

    async def run_binding(self, key: str) -> bool:
        """Run the first enabled binding of `key` in the screen's chain: what the footer says."""
        app = self.screen.app
        for node in self.keyed.keyboard_nodes():
            for binding in bindings_of(node).key_to_bindings.get(key, ()):
                if await app.run_action(binding.action, node):
                    return True
        return False

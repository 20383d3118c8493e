"""Where the keys typed at a table go (design.md, "The table's manners").

Letters talk and digits pick: a sentence goes to the chat from its first key, its digits too
once the next key shows them to be its start (`SentenceStart`). The game's keys reach the board
even when they come as fast as the Enter that sent a line, and once a line is said or left the
keyboard is the board's again, with what waited for the sentence to end offered.
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widgets import Input, OptionList

from tui.screens.game_view import GameView
from tui.widgets.chat_panel import TABLE_KEYS, ChatInput, typed_character
from tui.widgets.sentence_start import SentenceStart

COMMAND_KEYS = "0123456789?"
"""The printable keys that stay commands at a table: digits pick a seat, `?` lists the keys."""


class TableKeyboard:
    def __init__(self, screen: Screen, game_view: GameView) -> None:
        self.screen = screen
        self.game_view = game_view
        self.sentence_start = SentenceStart(screen)

    def key(self, event: events.Key) -> None:
        """A key that reached the screen: to the table, or typed into the chat."""
        line = self.screen.focused
        if isinstance(line, ChatInput) and self.game_view.board is not None:
            if event.key == "enter":
                # Enter came through the board, behind the sentence's first keys: it sends
                # the line now, before the keys pressed after it reach the screen.
                event.stop()
                event.prevent_default()
                line.send(event.time)
                return
            if line.after_sent(event):
                # Pressed after the line was sent: the table's, though the line still had
                # the keyboard. Handed to the board, which has it back now.
                event.stop()
                event.prevent_default()
                self.back_to_table()
                self.press_again(event)
                return
            if event.key in TABLE_KEYS:
                # A game key pressed while the chat line still has the keyboard (it comes as
                # fast as the Enter that sent the line): the table takes it. The bindings are
                # looked up from the focus once the key has bubbled up to the screen, so the
                # board's answer.
                self.back_to_table()
                return
        text = self.sentence_start.key(event)
        if text is None:
            text = typed_character(event, self.screen.focused, COMMAND_KEYS)
        if text is not None:
            event.stop()
            event.prevent_default()
            self.chat(text, event.time)

    def press_again(self, event: events.Key) -> None:
        """`event`'s key, pressed again as a terminal sends one: the app hands it to the focus
        and its bindings. Made on the app's turn: a key made here would be the screen's, and
        stop there."""
        app = self.screen.app
        app.call_later(lambda: app.post_message(events.Key(event.key, event.character)))

    def chat(self, text: str = "", time: float | None = None) -> None:
        """The chat box takes the keyboard, with `text` typed into it (as keys pressed at
        `time`, which may come after keys pressed later: see `ChatInput`)."""
        self.game_view.chat_panel.type(text, time)

    def back_to_table(self) -> None:
        """The keyboard leaves the chat for the table (the board's list; nothing in the
        waiting room), and the board offers what waited for the sentence to end."""
        board = self.game_view.board
        if board is None:
            self.screen.set_focus(None)
            return
        self.focus_game(from_chat=True)
        board.offer_due()

    def focus_game(self, from_chat: bool = False) -> None:
        """Put the keyboard on the game's list, unless the player is typing in the chat."""
        board = self.game_view.board
        if board is not None and (from_chat or not isinstance(self.screen.focused, Input)):
            lists = board.query(OptionList)
            if lists:
                self.screen.set_focus(lists.first())  # at once: the next key may be for it

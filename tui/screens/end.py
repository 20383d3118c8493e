"""The end of a game: the game's own account of it, who wants another game, then play again or
back to the lobby. The table's chat goes on here: any letter typed goes to it."""

from __future__ import annotations

from typing import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal, VerticalScroll
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Static

from tui.screens.table_keyboard import TableKeyboard, binding_chain
from tui.widgets.chat_panel import ChatLine, ChatPanel
from tui.widgets.evening import Evening
from tui.widgets.pick_list import PickList

TALL = 36
"""Rows from which the end screen has room for everything, at every table size."""


class EndScreen(Screen[str | None]):
    # The chat line has the focus all along; every key is the keyboard's (`TableKeyboard`).
    AUTO_FOCUS = "#chat-input"

    # Below TALL rows (a terminal of 24, a full table of 10) the end keeps what a person reads
    # it for in view: every player and who won, the evening's line and who asked for another
    # game. The headline's box, the buttons (the footer has their keys) and the evening's list
    # of games (Ctrl+W still watches this one again) give way, and the chat takes fewer rows.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL, "-tall")]

    DEFAULT_CSS = """
    EndScreen { align: center top; }
    EndScreen #end-body { width: 100%; max-width: 100; height: 1fr; padding: 0 2; }
    EndScreen #end-again { height: auto; width: 100%; max-width: 100; padding: 0 2;
                           background: $boost; }
    EndScreen #end-buttons { height: auto; width: auto; margin: 1 0 0 0; }
    EndScreen #end-buttons Button { margin: 0 2 0 0; }
    EndScreen #end-you { width: 100%; content-align: center middle; text-style: bold;
                         height: 1; margin: 0 0 1 0; }
    EndScreen #end-you.-won { background: $success 30%; }
    EndScreen #end-you.-lost { background: $error 20%; }
    EndScreen ChatPanel { height: 7; min-height: 5; max-width: 100; }
    EndScreen.-short #end-you { margin: 0; }
    EndScreen.-short #end-buttons { display: none; }
    EndScreen.-short #evening-games { display: none; }
    EndScreen.-short Evening { margin: 0; }
    EndScreen.-short #ending-headline { height: 1; border: none; }
    EndScreen.-short #ending-table { margin: 0; }
    EndScreen.-short ChatPanel { height: 4; min-height: 4; }
    """

    # Letters go to the chat, as at the table: a sentence typed here asks for nothing.
    BINDINGS = [
        Binding("ctrl+r", "again", "Play again", tooltip="Ask for another game at this table"),
        Binding("ctrl+l", "lobby", "Back to lobby", tooltip="Leave this table for the lobby"),
        Binding("escape", "table", "Look at the table",
                tooltip="Close this screen and look at the final board"),
        Binding("ctrl+w,f3", "watch_again", "Watch again",
                tooltip="Replay this game step by step, through anyone's eyes"),
        Binding("question_mark", "keys", "Keys", tooltip="This list"),
    ]

    def __init__(
        self,
        body: Widget,
        *,
        can_play_again: bool,
        you_won: bool | None = None,
        chat: Sequence[ChatLine] = (),
        send_chat: Callable[[str], None] | None = None,
        ask_again: Callable[[], None] | None = None,
        watch_again: Callable[[str | None], None] | None = None,
        team_name: Callable[[str], str] = str.capitalize,
    ) -> None:
        """`ask_again` asks the host for another game: the screen stays, and shows who else
        has asked, until the new game starts."""
        super().__init__()
        self.body = body
        self.can_play_again = can_play_again
        self.you_won = you_won
        """None for a spectator, who neither won nor lost."""
        self.chat = tuple(chat)
        self.send_chat = send_chat
        self.ask_again = ask_again
        self.watch_again = watch_again
        self.team_name = team_name
        """A winning team's name in its game's words, for the evening's tally."""
        self.evening: Sequence[dict] = ()
        self.play_again = Text()
        self.keyboard = TableKeyboard(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="end-body"):
            if self.you_won is not None:
                yield Static(
                    "★ You won" if self.you_won else "You lost", id="end-you",
                    classes="-won" if self.you_won else "-lost",
                )
            yield self.body
            yield Evening(self.team_name, id="end-evening")
            with Horizontal(id="end-buttons"):
                if self.can_play_again:
                    yield Button("Play again (Ctrl+R)", id="again", variant="primary")
                yield Button("Back to lobby (Ctrl+L)", id="lobby")
        # Below the account, never scrolled out of sight: who asked for another game is what
        # the table waits on now.
        yield Static(self.play_again, id="end-again")
        yield ChatPanel(spectator=not self.can_play_again, id="end-chat")
        # As at the table: every key fits 80 columns; `?` lists Ctrl+P with the rest.
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(Evening).show(self.evening)
        panel = self.query_one(ChatPanel)
        for line in self.chat:
            panel.add(*line)

    def show_play_again(self, text: Text) -> None:
        self.play_again = text
        if self.is_mounted:
            self.query_one("#end-again", Static).update(text)

    def show_evening(self, evening: Sequence[dict]) -> None:
        """The table's games so far tonight, each of which opens its replay."""
        self.evening = evening
        if self.is_mounted:
            self.query_one(Evening).show(evening)

    def on_evening_chosen(self, event: Evening.Chosen) -> None:
        if self.watch_again is not None:
            self.watch_again(event.game)

    def add_chat(self, line: ChatLine) -> None:
        self.chat = (*self.chat, line)
        if self.is_mounted:
            self.query_one(ChatPanel).add(*line)

    # -- the keyboard (screens/table_keyboard.py): letters are chat, as at the table ---------

    def keyboard_line(self) -> Input | None:
        return self.query_one(ChatPanel).line

    def keyboard_choices(self) -> PickList | None:
        games = self.query_one(Evening).choices
        return games if games is not None and games.display else None

    def keyboard_nodes(self) -> list[DOMNode]:
        return [self, self.app]

    @property
    def _binding_chain(self) -> list[tuple[DOMNode, BindingsMap]]:
        # What the footer and `?` show is what the keyboard runs, whatever has the focus.
        return binding_chain(self.keyboard_nodes())

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # A click on a button or the evening's list: the cursor stays in the line.
        if not isinstance(event.widget, Input):
            self.call_later(self.keyboard_line().focus)

    def on_chat_panel_sent(self, event: ChatPanel.Sent) -> None:
        event.stop()
        if self.send_chat is not None:
            self.send_chat(event.text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            return self.can_play_again
        if action == "watch_again":
            return self.watch_again is not None
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "again":
            self.action_again()
        else:
            self.dismiss(event.button.id)

    def action_again(self) -> None:
        if self.ask_again is not None:
            self.ask_again()

    def action_watch_again(self) -> None:
        if self.watch_again is not None:
            self.watch_again(None)

    def action_lobby(self) -> None:
        self.dismiss("lobby")

    def action_table(self) -> None:
        self.dismiss(None)

    def action_keys(self) -> None:
        self.app.action_show_keys()

"""What a table and a replay both show of a game: the status bar, the game's board, the log and
the chat, laid out the same on both screens.

The screens compose one `GameView` each and decide the rest: where the views come from (the
host's `state` messages, or a replay's steps), what the keys do, and which pages stand in the
board's place before a game shows (a live table's waiting room, its closed notice). `show`
hands the board a view and brings the log in line with it; the screen words the status line.

On a narrow screen (a phone upright, `-narrow` in app.tcss) the log and the chat go under the
board, one at a time, chosen by tabs (`PaneTabs`); the chat's line stays in sight under
either. The board and its dialog are never hidden: a choice the keyboard may take is always on
screen (tui/README.md, "The table's keyboard").
"""

from __future__ import annotations

from typing import Any, Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from tui.games import board_for
from tui.models.seats import SeatInfo, names_of
from tui.widgets.chat_panel import ChatPanel
from tui.widgets.event_log import EventLog
from tui.widgets.game_board import GameBoard
from tui.widgets.pane_tabs import PaneTabs
from tui.widgets.status_bar import StatusBar

BOARD = "game"
"""The id of the board's page, beside the pages a screen brings."""


class GameView(Vertical):
    DEFAULT_CSS = "GameView { height: 1fr; }"

    def __init__(self, *pages: Widget, spectator: bool, **kwargs: Any) -> None:
        """`pages`: what shows in the board's place until the first view, the first at once."""
        super().__init__(**kwargs)
        self.pages = pages
        self.spectator = spectator
        self.board: GameBoard | None = None

    def compose(self) -> ComposeResult:
        yield StatusBar()
        with Horizontal(id="play-body"):
            with Vertical(id="play-left"):
                with ContentSwitcher(initial=self.pages[0].id if self.pages else None,
                                     id="play-main"):
                    yield from self.pages
                # A board's dialog opens here, under the board, beside the chat.
                yield Vertical(id="dialog-dock")
            with Vertical(id="play-side"):
                yield PaneTabs()
                yield EventLog(id="log")
                yield ChatPanel(spectator=self.spectator, id="chat")

    def on_mount(self) -> None:
        self.show_pane(self.query_one(PaneTabs).shown)
        # A line added to the pane not shown is counted on its tab.
        self.watch(self.event_log, "virtual_size", self.log_grew, init=False)
        self.watch(self.query_one("#chat-log"), "virtual_size", self.chat_grew, init=False)

    def log_grew(self, old: Size, new: Size) -> None:
        self.query_one(PaneTabs).added("log", new.height - old.height)

    def chat_grew(self, old: Size, new: Size) -> None:
        self.query_one(PaneTabs).added("chat", new.height - old.height)

    def on_pane_tabs_chosen(self, event: PaneTabs.Chosen) -> None:
        event.stop()
        self.show_pane(event.pane)

    def show_pane(self, pane: str) -> None:
        """On a narrow screen, the log or the chat under the board."""
        self.query_one(PaneTabs).show(pane)
        self.set_class(pane == "chat", "-chat")

    @property
    def view(self) -> dict[str, Any] | None:
        """The view shown, as the board holds it: nothing else keeps a copy of it."""
        return None if self.board is None else self.board.view

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def event_log(self) -> EventLog:
        return self.query_one(EventLog)

    @property
    def chat_panel(self) -> ChatPanel:
        return self.query_one(ChatPanel)

    def show_page(self, page: str) -> None:
        self.query_one(ContentSwitcher).current = page

    async def show(self, view: dict[str, Any], legal: list[dict[str, Any]],
                   seats: Sequence[SeatInfo]) -> GameBoard:
        """Hand the game's board (mounted on the first view) a view and its legal actions to
        keep and draw, in the board's place, and append the view's new events to the log."""
        if self.board is None:
            self.board = board_for(str(view.get("game")))(id=BOARD)
            self.board.dialog_dock = self.query_one("#dialog-dock", Vertical)
            await self.query_one(ContentSwitcher).mount(self.board)
        self.board.show(view, legal, seats)
        self.show_page(BOARD)
        self.show_log(seats)
        return self.board

    def show_log(self, seats: Sequence[SeatInfo]) -> None:
        """The view's events, this seat's private ones masked while its secrets are hidden."""
        if self.board is None or self.board.view is None:
            return
        self.event_log.show_events(
            self.board.view.get("events", []), names_of(seats),
            hide_private=self.board.secret_hidden, before=self.board.log_lines_before(),
        )

    def show_status(self, turn: str) -> None:
        """The status line: `turn` (whose turn, in the screen's words), then the game's state."""
        if self.board is None:
            return
        self.status_bar.set_turn(turn, self.board.your_turn)
        self.status_bar.set_game(self.board.status_line())

"""The end of a game at a table: its end screen, who asked for another game, the game kept for
the past games, and watching it again over the table's own connection.

A play screen keeps one `GameEnd` and tells it when its game ends, changes or goes on. The end
screen is built afresh from the table each time it opens, so that nothing outdated waits under
a replay: closing the replay shows the table as it is then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from rich.text import Text

from netplay import protocol as wire
from tui.models.table_words import play_again_words
from tui.screens.end import EndScreen
from tui.screens.game_view import GameView
from tui.screens.replay import ReplayScreen, ReplaySource
from tui.widgets.chat_panel import ChatLine

if TYPE_CHECKING:
    from textual.app import App

    from tui.backend import Backend
    from tui.listing import Ticket
    from tui.models.seats import SeatInfo


class Table(Protocol):
    """What the end of a game reads of the play screen that owns it."""

    app: App
    backend: Backend
    ticket: Ticket
    player_name: str
    game_view: GameView
    lobby: wire.Lobby
    seats: list[SeatInfo]
    seat: int | None
    spectator: bool
    status: str
    connection: Any
    table_id: str | None

    def say(self, text: str) -> None: ...
    def action_play_again(self) -> None: ...
    def leave_table(self) -> None: ...
    def call_next(self, callback: Callable[..., Any], *args: Any) -> Any: ...
    def notify(self, message: str, **kwargs: Any) -> None: ...


class GameEnd:
    def __init__(self, table: Table, chat: Callable[[], Sequence[ChatLine]]) -> None:
        """`chat`: the table's recent talk, for the end screen's chat."""
        self.table = table
        self.chat = chat
        self.ended = False
        """The game shown has ended (its end screen opened once)."""
        self.end_screen: Any = None
        self.replay_screen: Any = None
        """The replay of this table's last game, open over the end screen (`watch_again`)."""

    @property
    def watching_again(self) -> bool:
        return self.replay_screen is not None

    def shown(self, over: bool) -> None:
        """A view was shown: at the game's end, keep the game and open the end screen; at a
        new game, close it (and tell a replay open meanwhile)."""
        if over:
            if not self.ended:
                self.ended = True
                self.keep_for_replays()
                self.open()
            return
        if self.ended and self.replay_screen is not None:
            self.replay_screen.notify("The table's next game has begun: Esc goes back to it.",
                                      timeout=8)
        self.ended = False
        self.close()

    def open(self) -> None:
        """The end screen of the game shown. Not under a replay: closing the replay opens it,
        if the game is still the one shown."""
        board = self.table.game_view.board
        assert board is not None and board.view is not None
        if self.replay_screen is not None:
            return
        self.end_screen = EndScreen(
            type(board).ending(board.view, board.seat, self.table.seats),
            can_play_again=not self.table.spectator, you_won=board.you_won(),
            chat=self.chat(), send_chat=self.table.say, ask_again=self.table.action_play_again,
            watch_again=self.watch_again, team_name=board.team_name,
        )
        self.table.app.push_screen(self.end_screen, self.chosen)
        self.table_changed()

    def close(self) -> None:
        screen, self.end_screen = self.end_screen, None
        if screen is not None and screen.is_attached and self.table.app.screen is screen:
            screen.dismiss(None)

    def chosen(self, choice: str | None) -> None:
        self.end_screen = None
        if choice == "lobby":
            self.table.leave_table()

    def table_changed(self) -> None:
        """Who asked for another game and the evening's games, as the table stands now."""
        if self.end_screen is not None:
            self.end_screen.show_play_again(self.play_again_text())
            self.end_screen.show_evening(self.table.lobby.evening)

    def add_chat(self, line: ChatLine) -> None:
        if self.end_screen is not None:
            self.end_screen.add_chat(line)

    def play_again_text(self) -> Text:
        table = self.table
        return play_again_words(table.lobby, table.seats, None if table.spectator else table.seat)

    def keep_for_replays(self) -> None:
        """This game is kept on this machine, as a replay file, for the past games and the
        group's record (`Backend.keep_game`)."""
        table = self.table
        table.backend.keep_game(table.ticket, table.connection, table.game_view.event_log.note)

    def watch_again(self, game: str | None = None) -> None:
        """A game of this table (by default the one just ended), replayed over this table's
        own connection: a spectator may watch again only on the connection that saw the
        end. The end screen goes while the replay is open: the table may move on meanwhile."""
        table = self.table
        if table.connection is None or table.status != "connected":
            table.notify("Not connected to the host: no replay.", severity="warning")
            return
        self.close()
        seated = table.seat is not None and not table.spectator
        source = ReplaySource(
            table.ticket, game=game, table=table.table_id,
            token=getattr(table.connection, "token", None),
            eyes=table.seat if seated else "spectator", send=table.connection.send)
        self.replay_screen = ReplayScreen(table.backend, source, table.player_name)

        def closed(_: object) -> None:
            self.replay_screen = None
            if self.ended and self.end_screen is None:
                self.open()

        # Pushed from the table's own turn: a screen's result callback runs on the screen
        # that pushed it, and the end screen that asked is gone by the time the replay closes.
        table.call_next(table.app.push_screen, self.replay_screen, closed)

    def receive(self, message: Any) -> bool:
        """A replay's answer from the host, for the replay open over the table: True if it
        took it. The host's refusals go to it only while it shows."""
        screen = self.replay_screen
        if screen is None or (isinstance(message, wire.Error) and self.table.app.screen
                              is not screen):
            return False
        screen.receive(message)
        return True

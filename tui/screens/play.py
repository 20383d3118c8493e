"""Playing at a table: the game's view (board, log, chat, status bar) fed by the table's host.

The table's connection is a `HostLink`: its worker reads the host's messages, and `dispatch`
posts each as a past-tense message; the handlers here update the game's view. Bindings are
gated by `check_action`, so the footer offers only what this player can do now.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer, Input

from engine.catalogue import CATALOGUE
from netplay import protocol as wire
from netplay.client import Received
from netplay.table import CHAT_TAIL
from tui.backend import Backend
from tui.coach import Coach, hint_lines, hint_news, hints_offered
from tui.config import bell_on
from tui.games.terms import glossary
from tui.host_link import HostLink
from tui.listing import Ticket
from tui.messages import (ChatReceived, CodeRefused, Connected, ConnectionStatusChanged,
                          ErrorReceived, HintHeard, LobbyChanged, StateChanged, TableClosed,
                          heard)
from tui.models.chat_history import ChatHistory
from tui.models.seats import SeatInfo, names_of, seat_infos
from tui.models.table_words import (NO_LOBBY, acting_host, away_from_game, away_help,
                                    claims_awaited, cover_news, spoken_key, went_away)
from tui.screens.question import yes_no
from tui.screens.game_end import GameEnd
from tui.screens.game_view import GameView
from tui.screens.rules import RulesScreen
from tui.screens.table_keyboard import TableKeyboard, binding_chain
from tui.widgets.chat_panel import ChatLine, ChatPanel
from tui.widgets.pick_list import PickList
from tui.widgets.closed_table import ClosedTable
from tui.widgets.game_board import GameBoard
from tui.widgets.waiting_room import WaitingRoom

KEPT_CHAT = 50
"""Lines of talk kept for the end screen's chat."""


ASK_CODE_AGAIN: Final = "ask the code again"
"""What a play screen closes with when its player wants to type the table code again."""


class PlayScreen(Screen[str | None]):
    # The chat line has the focus, and its cursor, all along: every key is the table
    # keyboard's (`TableKeyboard`), whatever has the focus.
    AUTO_FOCUS = "#chat-input"

    # Letters never run a command here: a sentence typed without pressing anything first
    # goes to the chat. Commands are on keys no sentence types.
    BINDINGS = [
        Binding("escape", "leave", "Lobby", tooltip="Leave this table for the lobby"),
        Binding("ctrl+s", "start", "Start game", tooltip="Start now; bots take the free seats"),
        Binding("ctrl+n,f2", "add_bot", "Add bot", tooltip="Seat a bot in a free seat"),
        cover_binding := Binding(
            "ctrl+o", "cover", "Bot for away",
            tooltip="A bot plays the seat of a player who is away, until they come back"),
        Binding("ctrl+r", "play_again", "Play again", tooltip="Deal a new game at this table"),
        # Never run by its key: the keyboard types every letter into the chat, this one too.
        # It stands in the footer and `?` to say so.
        Binding("t", "chat", "Chat", key_display="type",
                tooltip="Any letter you type goes to the chat (Enter sends it, Esc clears it)"),
        Binding("ctrl+g", "hint", "Hint",
                tooltip="Ask what the strongest bot would play from your seat, and why: the "
                        "answer is in your log, and the table is told you asked"),
        Binding("ctrl+l", "coach", "Coach", show=False,
                tooltip="Turn the coach on or off for this game: in the log it says what "
                        "each move did and what your choice means"),
        Binding("f1", "rules", "Rules", tooltip="The rules of this game"),
        Binding("question_mark", "keys", "Keys",
                tooltip="This list, and what the table's words and symbols mean"),
    ]

    def __init__(self, backend: Backend, ticket: Ticket, player_name: str) -> None:
        super().__init__()
        self.backend = backend
        self.ticket = ticket
        self.player_name = player_name
        self.link = HostLink(self, ticket.address, opened=self.opened, received=self.dispatch)
        self.seat: int | None = None
        """This player's seat at the table, from the host's welcome: the waiting room, the
        host's keys and another game need it before any view. The board reads the seat of the
        view it shows from that view."""
        self.spectator = ticket.spectate
        self.lobby = NO_LOBBY
        self.seats: list[SeatInfo] = []
        self.status = "connecting"
        self.game_view = GameView(WaitingRoom(id="waiting"), ClosedTable(id="closed"),
                                  spectator=self.spectator)
        self.shown_bindings: tuple | None = None
        self.rang = False
        """The bell rang for this turn: it rings again only once the turn has passed."""
        self.chat = ChatHistory[ChatLine](KEPT_CHAT, CHAT_TAIL)
        """The table's recent talk, for the end screen's chat."""
        self.end = GameEnd(self, lambda: self.chat.lines)
        self.keyboard = TableKeyboard(self)
        self.coach = Coach()
        """Says in the log what each move did, for a person's first games of each game."""

    def compose(self) -> ComposeResult:
        yield self.game_view
        # A table offers many keys: let 80 columns show them all. `?` lists Ctrl+P.
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        bar = self.game_view.status_bar
        bar.set_game(f"joining {self.ticket.address}…")
        if self.ticket.code:
            bar.set_code(self.ticket.code)
        self.run_connection()

    @property
    def board(self) -> GameBoard | None:
        return self.game_view.board

    @property
    def view(self) -> dict[str, Any] | None:
        return self.game_view.view

    @property
    def connection(self) -> Any:
        return self.link.connection

    @property
    def joining_words(self) -> str:
        """How others join the table this app hosts, for `?` and the palette; empty at
        another's table."""
        if not self.ticket.code:
            return ""
        return (f"Table code {self.ticket.code}: others find this table in their lobby, or "
                f"join it at {self.ticket.share}, and type the code the first time.")

    def action_show_code(self) -> None:
        self.notify(self.joining_words, title="Joining this table", timeout=15, markup=False)

    # -- the network --------------------------------------------------------------------------

    def run_connection(self) -> None:
        self.link.open(lambda: self.backend.connect(self.ticket, self.player_name))

    def opened(self, connection: Any) -> None:
        self.post_message(Connected(connection.seat, self.ticket.spectate))

    def dispatch(self, message: Received) -> None:
        # A replay open over the table asked for its steps, and may be refused, on the
        # table's connection.
        if isinstance(message, (wire.ReplayStep, wire.ReplayList, wire.RecordPart, wire.Error)):
            if self.end.receive(message):
                return
        if (heard_now := heard(message)) is not None:
            self.post_message(heard_now)

    @work(group="send")
    async def send(self, message: wire.ClientMessage) -> None:
        trouble = ("Not connected: that was not sent." if self.status != "connected"
                   else await self.link.send(message))
        if trouble:
            self.game_view.event_log.note(trouble)

    # -- what the host said ---------------------------------------------------------------------

    def on_connection_status_changed(self, event: ConnectionStatusChanged) -> None:
        previous, self.status = self.status, event.status
        self.game_view.status_bar.set_connection(event.status)
        log = self.game_view.event_log
        if event.status == "reconnecting" and previous != "reconnecting":
            log.note("Connection lost: reconnecting with your seat…")
        elif event.status == "connected" and previous == "reconnecting":
            log.note("Reconnected.")
            self.chat.reconnected()
        elif event.status == "closed" and previous != "closed":
            detail = event.detail or "The connection to the host is closed."
            log.note(detail + " Press Esc for the lobby.")
            # Nobody hears a line typed now: no box invites one.
            self.query_one("#chat-input").display = False
            if self.view is None:
                self.game_view.status_bar.set_game("not joined")
                self.query_one(WaitingRoom).update(Text(detail + "\n\nPress Esc to go back to the lobby."))
        self.update_bindings()

    def on_code_refused(self, event: CodeRefused) -> None:
        """A code that did not pair: say why once, and offer to type it again or go back."""
        # The dialog says why, with the host's address; the screen behind only that it failed.
        self.post_message(ConnectionStatusChanged("closed", "The table code was not accepted."))

        def chosen(again: bool | None) -> None:
            self.dismiss(ASK_CODE_AGAIN if again else None)

        self.app.push_screen(yes_no(event.detail, "Type the code again", "Back to the lobby",
                                    yes_first=True), chosen)

    def on_table_closed(self, event: TableClosed) -> None:
        """Everyone at a closed table is told so, with the evening's record, and goes back to
        the lobby with Esc: nothing there to reconnect to."""
        self.end.close()
        if self.board is not None:
            self.board.close_dialog("")
        team_name = self.board.team_name if self.board is not None else str.capitalize
        self.query_one(ClosedTable).show(event.words, self.lobby.evening, team_name)
        self.game_view.show_page("closed")
        bar = self.game_view.status_bar
        bar.set_turn("")
        bar.set_game("the table is closed")

    def on_connected(self, event: Connected) -> None:
        self.seat = event.seat
        self.spectator = event.spectator or event.seat is None
        self.game_view.chat_panel.set_spectator(self.spectator)
        self.update_bindings()

    async def on_lobby_changed(self, event: LobbyChanged) -> None:
        lobby, known = event.lobby, self.lobby is not NO_LOBBY
        was_hints = self.lobby.hints_asked if self.lobby.phase == "playing" else []
        was_away, was_seats = self.away_seats(), self.seats
        self.lobby, self.seats = lobby, seat_infos(lobby.seats, lobby.players)
        if known:  # changes only: on arriving, the player list shows who is away
            self.tell_news(was_away, was_seats)
            for text in hint_news(was_hints, lobby.hints_asked, names_of(self.seats)):
                self.game_view.event_log.note(text)
        game = CATALOGUE.get(lobby.game)
        watching = f" · {lobby.spectators} watching" if lobby.spectators else ""
        self.game_view.status_bar.set_title((game.title if game else lobby.game) + watching)
        self.query_one(WaitingRoom).show(
            lobby, self.seats, self.seat, self.holds_host_powers, self.ticket.share,
            self.ticket.code
        )
        self.end.table_changed()
        if lobby.phase == "waiting":
            self.game_view.show_page("waiting")
            bar = self.game_view.status_bar
            bar.set_turn("")
            bar.set_game("waiting for players" + (" · you host" if self.is_host else ""))
            self.end.close()
        elif self.board is not None and self.board.view is not None:  # the seats may have changed
            await self.render_state(self.board.view, self.board.legal)
        self.update_bindings()

    def tell_news(self, was_away: list[SeatInfo], was_seats: list[SeatInfo]) -> None:
        """Who went away, told to whoever may let a bot cover them now (the person holding the
        host's powers, anyone once the table has waited), with what they can do about it; and
        whom a bot covers now, or no longer, told to everyone."""
        if self.may_cover:
            key = spoken_key(self.cover_binding.key)
            for text in went_away(was_away, self.away_seats(), key):
                self.game_view.event_log.note(text)
                self.notify(text, timeout=8, markup=False)
        for text in cover_news(was_seats, self.seats):
            self.game_view.event_log.note(text)

    async def on_state_changed(self, event: StateChanged) -> None:
        if event.seat is not None:
            self.seat = event.seat
        await self.render_state(event.view, event.legal)

    async def render_state(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        """Hand the game's view a view and its legal actions, then bring the status bar and
        the footer in line with it, and open or close the end screen."""
        players = int(view.get("players", 0))
        if len(self.seats) != players:
            self.seats = seat_infos(self.lobby.seats, players)
        board = await self.game_view.show(view, legal, self.seats)
        self.coach_view(view, legal)
        self.game_view.show_status(self.turn_text(board))
        self.ring_on_your_turn(board.your_turn)
        self.end.shown(over=view.get("outcome") is not None)
        self.update_bindings()

    def coach_view(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        """The coach's lines on what this view brings, in the log after its events."""
        for line in self.coach.heard(view, [] if self.spectator else legal,
                                     names_of(self.seats)):
            self.game_view.event_log.add(line)

    def turn_text(self, board: GameBoard) -> str:
        """Whose turn, and when the game waits for a player who is away, who can help; at a
        deal, whose claims the bots wait for."""
        text = board.turn_text()
        if not board.your_turn:
            you = None if self.spectator else self.seat
            text += claims_awaited(self.lobby, self.seats, (board.view or {}).get("to_act", ()),
                                   you)
        if board.waiting_for_away():
            text += away_help(self.lobby, self.seats, None if self.spectator else self.seat,
                              spoken_key(self.cover_binding.key))
        return text

    def ring_on_your_turn(self, yours: bool) -> None:
        """The terminal's bell, once, when the game starts waiting for this player."""
        if yours and not self.rang and bell_on():
            self.app.bell()
        self.rang = yours

    def on_game_board_secrets_toggled(self, event: GameBoard.SecretsToggled) -> None:
        self.game_view.show_log(self.seats)
        self.update_bindings()

    def on_hint_heard(self, event: HintHeard) -> None:
        """The hint in this player's log, in the game's words: private, as their secrets are."""
        view = self.view
        if view is None:
            return
        for line in hint_lines(str(view.get("game")), event.action, event.reason, event.seats,
                               view, names_of(self.seats)):
            self.game_view.event_log.add(line)

    def on_chat_received(self, event: ChatReceived) -> None:
        line = (event.sender, event.text, event.channel)
        if not self.chat.add(line, event.past):
            return  # a reconnect's repeat of a line shown already
        self.game_view.chat_panel.add(*line)
        self.end.add_chat(line)

    def on_error_received(self, event: ErrorReceived) -> None:
        self.game_view.event_log.note(event.text)
        self.notify(event.text, severity="error" if event.fatal else "warning", timeout=4,
                    markup=False)

    # -- what the player does -------------------------------------------------------------------

    def on_game_board_action_chosen(self, event: GameBoard.ActionChosen) -> None:
        event.stop()
        self.send(wire.Act(event.action))

    def on_game_board_claim_passed(self, event: GameBoard.ClaimPassed) -> None:
        if self.status == "connected":  # a hint to the host's bots: none is owed otherwise
            self.send(wire.ClaimDone())

    def on_chat_panel_sent(self, event: ChatPanel.Sent) -> None:
        self.say(event.text)

    def say(self, text: str) -> None:
        self.send(wire.Chat(text))

    def binding_state(self) -> tuple:
        """Everything `check_action` reads, here and on the game's board."""
        over = self.view is not None and self.view.get("outcome") is not None
        board = self.board.binding_state() if self.board else ()
        empty = any(s.kind == "empty" for s in self.seats)
        return (self.lobby.phase, self.status, self.holds_host_powers, self.may_cover,
                self.spectator, over, empty,
                bool(self.away_seats()), self.hint_offered, board)

    def update_bindings(self) -> None:
        """Refresh the footer only when what may be done changed: a redraw of the footer
        restyles every key in it, which would otherwise happen on each state."""
        state = self.binding_state()
        if state != self.shown_bindings:
            self.shown_bindings = state
            self.refresh_bindings()
        self.focus_line()

    @property
    def is_host(self) -> bool:
        """This player hosts the table (its first seat, whose app may run it)."""
        return (self.seat is not None and self.lobby.host_seat == self.seat
                and not self.spectator)

    @property
    def holds_host_powers(self) -> bool:
        """This player may start the table and seat bots now: its host, or while the host is
        away, the person who takes over (`lobby.acting_host`)."""
        return (self.seat is not None and acting_host(self.lobby) == self.seat
                and not self.spectator)

    @property
    def may_cover(self) -> bool:
        """This player may let a bot cover an away player now (`lobby.may_cover`)."""
        return (self.seat is not None and not self.spectator
                and self.seat in self.lobby.may_cover)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        waiting = self.lobby.phase == "waiting" and self.status == "connected"
        if action == "start":
            return waiting and self.holds_host_powers
        if action == "play_again":
            over = self.view is not None and self.view.get("outcome") is not None
            return over and not self.spectator and self.status == "connected"
        if action == "add_bot":
            return waiting and self.holds_host_powers and any(
                s.kind == "empty" for s in self.seats)
        if action == "cover":
            return self.may_cover and self.status == "connected" and bool(self.away_seats())
        if action == "chat":
            return self.status != "closed"
        if action == "hint":
            return self.hint_offered
        if action == "coach":
            return self.view is not None and not self.spectator
        return True

    @property
    def hint_offered(self) -> bool:
        """The hint's key works now: the table offers hints, and the game waits on this
        player's move (the host refuses a hint for any other moment)."""
        return (hints_offered(self.lobby.hints, self.lobby.phase, self.seat, self.spectator)
                and self.status == "connected" and self.board is not None
                and self.board.your_turn)

    def away_seats(self) -> list[SeatInfo]:
        """The seats of players away from the running game that no bot covers yet."""
        return away_from_game(self.lobby, self.seats)

    @property
    def table_id(self) -> str | None:
        return self.lobby.table or self.ticket.table

    def action_start(self) -> None:
        self.send(wire.Start())

    def action_add_bot(self) -> None:
        self.send(wire.AddBot(self.table_id))

    def action_cover(self) -> None:
        away = self.away_seats()
        if away:
            self.send(wire.AddBot(self.table_id, away[0].seat))

    def action_hint(self) -> None:
        if self.hint_offered:
            self.send(wire.AskHint())

    def action_coach(self) -> None:
        game = (self.view or {}).get("game")
        said = self.coach.toggle(str(game) if game else None)
        self.game_view.event_log.note(said)
        self.notify(said, timeout=4, markup=False)

    def action_play_again(self) -> None:
        if self.seat is not None and self.seat in self.lobby.play_again:
            self.notify("You asked already: the new game starts when everyone has.", timeout=3)
            return
        self.send(wire.PlayAgain())
        # Shown at once, as the host will tell it (the next `lobby` holds the ask), and said:
        # at 80x24 the end screen's line of who asked may be below its fold.
        self.lobby = replace(self.lobby, play_again=[*self.lobby.play_again, self.seat])
        self.end.table_changed()
        self.notify("You asked for another game: it starts when everyone has.", timeout=4)

    # -- the keyboard (screens/table_keyboard.py) --------------------------------------------

    def keyboard_line(self) -> Input | None:
        """Where text goes: the open dialog's own line when it asks for words, else the
        chat's; none once the table is closed (nobody would hear it)."""
        dialog = self.board.dialog if self.board is not None else None
        if dialog is not None and dialog[0].field is not None:
            return dialog[0].field
        if self.status == "closed":
            return None
        return self.game_view.chat_panel.line

    def keyboard_choices(self) -> PickList | None:
        return self.board.choices if self.board is not None else None

    def keyboard_nodes(self) -> list[DOMNode]:
        """Whose bindings the keys run, most particular first: the open dialog, the board's
        list, the board, this screen, the app."""
        board = self.board
        nodes: list[DOMNode] = []
        if board is not None:
            if board.dialog is not None:
                nodes.append(board.dialog[0])
            elif board.choices is not None:
                nodes.append(board.choices)
            nodes.append(board)
        return [*nodes, self, self.app]

    @property
    def _binding_chain(self) -> list[tuple[DOMNode, BindingsMap]]:
        # What the footer and `?` show is what the keyboard runs, whatever has the focus.
        return binding_chain(self.keyboard_nodes())

    def focus_line(self) -> None:
        """The line the keyboard types into shows its cursor."""
        line = self.keyboard_line()
        if line is not None and line.is_attached and self.focused is not line:
            self.set_focus(line)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # A click on the log or a board's row: the cursor stays in the line.
        if not isinstance(event.widget, Input):
            self.call_later(self.focus_line)

    def action_chat(self) -> None:
        self.focus_line()

    def action_rules(self) -> None:
        game = (self.view or {}).get("game") or self.lobby.game or "timebomb"
        self.app.push_screen(RulesScreen(str(game)))

    def action_keys(self) -> None:
        self.app.action_show_keys(self.joining_words, self.terms_text())

    def terms_text(self) -> Text:
        """Under the keys: what each word and symbol of this game's table means
        (tui/games/<game_id>/terms.py)."""
        game = str((self.view or {}).get("game") or self.lobby.game or "")
        terms = glossary(game) if game in CATALOGUE else []
        text = Text("What the table shows" if terms else "", style="bold")
        for shown, meaning in terms:
            text.append("\n" + shown, style="bold")
            text.append(f": {meaning}")
        return text

    @property
    def seated_in_game(self) -> bool:
        """This player holds a seat in a running game: leaving it asks first."""
        return (self.lobby.phase == "playing" and not self.spectator
                and self.seat is not None and self.status != "closed")

    @property
    def game_words(self) -> str:
        """The game at this table, for the leaving question: "Time Bomb at Baker Street"."""
        game = CATALOGUE.get(self.lobby.game)
        title = game.title if game else self.lobby.game
        return f"{title} at {self.lobby.name}" if self.lobby.name else title

    async def action_leave(self) -> None:
        if not self.seated_in_game:
            await self.leave()
            return
        self.app.ask_leaving()

    async def leave(self) -> None:
        await self.link.close(wire.Leave())
        if self.lobby.phase in ("waiting", "over"):
            # Before the game, leaving gives the seat up; after it, there is nothing to
            # come back to.
            self.backend.forget_seat(self.ticket)
            await self.backend.release(self.ticket)
        self.end.close()
        if self.app.screen is self:
            self.dismiss()

    def leave_table(self) -> None:
        self.run_worker(self.leave(), group="leave")

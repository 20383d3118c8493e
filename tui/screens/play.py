"""Playing at a table: the game's board, the shared log, chat and status bar, and the connection.

One async worker owns the connection: it reads the host's messages and posts them as
past-tense messages; the handlers here update the widgets. Bindings are gated by
`check_action`, so the footer offers only what this player can do now.
"""

from __future__ import annotations

from typing import Any, Final

from textual import events, work
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Input

from netplay import protocol as wire
from netplay.client import Received, Status
from netplay.table import CHAT_TAIL
from tui.backend import Backend
from tui.config import bell_on
from tui.listing import Ticket, connect_error_text
from tui.messages import (
    ChatReceived,
    CodeRefused,
    Connected,
    ConnectionStatusChanged,
    ErrorReceived,
    LobbyChanged,
    StateChanged,
    TableClosed,
)
from tui.games import board_for
from tui.models.chat_history import ChatHistory
from tui.models.seats import SeatInfo, names_of, seat_infos
from tui.played_games import keep_bot_games, remember_played
from tui.screens.end import play_again_text
from tui.widgets.chat_panel import (
    TABLE_KEYS,
    ChatInput,
    ChatLine,
    ChatPanel,
    typed_character,
)
from tui.widgets.closed_table import ClosedTable
from tui.widgets.event_log import EventLog
from tui.widgets.game_board import GameBoard
from tui.widgets.sentence_start import SentenceStart
from tui.widgets.status_bar import StatusBar
from tui.widgets.waiting_room import WaitingRoom

def spoken_key(key: str) -> str:
    """A key as the player reads it in a sentence: "ctrl+o" is "Ctrl+O"."""
    *modifiers, name = key.split("+")
    return "+".join([*(m.capitalize() for m in modifiers), name.upper() if modifiers else name])


KEPT_CHAT = 50
"""Lines of talk kept for the end screen's chat."""


ASK_CODE_AGAIN: Final = "ask the code again"
"""What a play screen closes with when its player wants to type the table code again."""


class PlayScreen(Screen[str | None]):
    # The game's keys (Ctrl+K, cutting...) are the board's: they work only while the focus is
    # in it. Textual focuses the first focusable widget when a screen shows with nothing
    # focused: the log, before the board exists. Then `render_state` saw a focus and left it,
    # and only the board's after-refresh focus could take it back, which a loaded machine
    # could miss (a dialog in between): every game key was dead until a click.
    AUTO_FOCUS = "GameBoard OptionList"

    # Letters never run a command here: a sentence typed without pressing anything first
    # goes to the chat (`on_key`). Commands are on keys no sentence types.
    BINDINGS = [
        Binding("escape", "leave", "Lobby", tooltip="Leave this table for the lobby"),
        Binding("ctrl+s", "start", "Start game", tooltip="Start now; bots take the free seats"),
        Binding("ctrl+n,f2", "add_bot", "Add bot", tooltip="Seat a bot in a free seat"),
        cover_binding := Binding(
            "ctrl+o", "cover", "Bot for away",
            tooltip="A bot plays the seat of a player who is away, until they come back"),
        Binding("ctrl+r", "play_again", "Play again", tooltip="Deal a new game at this table"),
        # Never run by its key: `on_key` types every letter into the chat, this one too. It
        # stands in the footer and `?` to say so.
        Binding("t", "chat", "Chat", key_display="type",
                tooltip="Any letter you type goes to the chat (Enter sends, Esc comes back)"),
        Binding("f1", "rules", "Rules", tooltip="The rules of this game"),
        Binding("question_mark", "keys", "Keys", tooltip="This list"),
    ]

    COMMAND_KEYS = "0123456789?"
    """The printable keys that stay commands: digits pick a seat, `?` lists the keys."""

    def __init__(self, backend: Backend, ticket: Ticket, player_name: str) -> None:
        super().__init__()
        self.backend = backend
        self.ticket = ticket
        self.player_name = player_name
        self.connection: Any = None
        self.seat: int | None = None
        """This player's seat at the table, from the host's welcome: the waiting room, the
        host's keys and another game need it before any view. The board reads the seat of the
        view it shows from that view."""
        self.spectator = ticket.spectate
        self.lobby: dict[str, Any] = {}
        self.seats: list[SeatInfo] = []
        self.status = "connecting"
        self.board: GameBoard | None = None
        self.end_screen: Any = None
        self.ended = False
        self.shown_bindings: tuple | None = None
        self.rang = False
        """The bell rang for this turn: it rings again only once the turn has passed."""
        self.chat = ChatHistory[ChatLine](KEPT_CHAT, CHAT_TAIL)
        """The table's recent talk, for the end screen's chat."""
        self.replay_screen: Any = None
        """The replay of this table's last game, open over the end screen (`watch_again`)."""
        self.sentence_start = SentenceStart(self)

    def compose(self) -> ComposeResult:
        yield StatusBar()
        with Horizontal(id="play-body"):
            with ContentSwitcher(initial="waiting", id="play-main"):
                yield WaitingRoom(id="waiting")
                yield ClosedTable(id="closed")
            with Vertical(id="play-side"):
                yield EventLog(id="log")
                yield ChatPanel(spectator=self.spectator, id="chat")
        # A table offers many keys: let 80 columns show them all. `?` lists Ctrl+P.
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        bar = self.query_one(StatusBar)
        bar.set_game(f"joining {self.ticket.address}…")
        if self.ticket.code:
            bar.set_code(self.ticket.code)
        self.run_connection()

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

    @work(exclusive=True, group="net")
    async def run_connection(self) -> None:
        address = self.ticket.address
        from netplay.client import WrongCode

        try:
            connection = await self.backend.connect(self.ticket, self.player_name)
        except WrongCode as error:
            self.post_message(CodeRefused(connect_error_text(address, error)))
            return
        except Exception as error:  # unreachable, or refused: wrong version, full, unknown table
            self.post_message(ConnectionStatusChanged("closed", connect_error_text(address, error)))
            return
        self.connection = connection
        self.post_message(ConnectionStatusChanged(connection.status))
        self.post_message(Connected(connection.seat, self.ticket.spectate))
        try:
            async for message in connection:
                self.dispatch(message)
        except Exception as error:
            self.post_message(ConnectionStatusChanged("closed", f"Lost the host: {error}"))
            return
        refused = connection.refused  # the host said no, or its key changed, or a wrong code
        detail = (connect_error_text(address, refused) if refused
                  else f"The host at {address} is gone.")
        self.post_message(ConnectionStatusChanged("closed", detail))

    def dispatch(self, message: Received) -> None:
        match message:
            case Status(status=status):  # made by the client itself while it reconnects
                self.post_message(ConnectionStatusChanged(status))
            case wire.Welcome(seat=seat, spectator=spectator):
                self.post_message(Connected(seat, spectator))
            case wire.Lobby():
                self.post_message(LobbyChanged(message.to_dict()))
            case wire.State(view=view, legal=legal, seat=seat):
                self.post_message(StateChanged(view, list(legal), seat))
            case wire.ChatLine(sender=sender, text=text, channel=channel, past=past):
                self.post_message(ChatReceived(sender, text, channel, past))
            case wire.ReplayStep() | wire.ReplayList() | wire.RecordPart():
                if self.replay_screen is not None:
                    self.replay_screen.receive(message)
            case wire.Closed(message=text):
                self.post_message(TableClosed(text))
            case wire.Error(message=text, fatal=fatal):
                if self.replay_screen is not None and self.app.screen is self.replay_screen:
                    self.replay_screen.receive(message)  # its request was turned down
                    return
                self.post_message(ErrorReceived(text, fatal))

    @work(group="send")
    async def send(self, message: wire.ClientMessage) -> None:
        if self.connection is None or self.status != "connected":
            self.query_one(EventLog).note("Not connected: that was not sent.")
            return
        try:
            await self.connection.send(message)
        except (OSError, ConnectionError) as error:
            self.query_one(EventLog).note(f"Could not send: {error}")

    # -- what the host said ---------------------------------------------------------------------

    def on_connection_status_changed(self, event: ConnectionStatusChanged) -> None:
        previous, self.status = self.status, event.status
        self.query_one(StatusBar).set_connection(event.status)
        log = self.query_one(EventLog)
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
                self.query_one(StatusBar).set_game("not joined")
                self.query_one(WaitingRoom).update(Text(detail + "\n\nPress Esc to go back to the lobby."))
        self.update_bindings()

    def on_code_refused(self, event: CodeRefused) -> None:
        """A code that did not pair: say why once, and offer to type it again or go back."""
        from tui.screens.confirm import ConfirmScreen

        # The dialog says why, with the host's address; the screen behind only that it failed.
        self.post_message(ConnectionStatusChanged("closed", "The table code was not accepted."))

        def chosen(again: bool | None) -> None:
            self.dismiss(ASK_CODE_AGAIN if again else None)

        self.app.push_screen(ConfirmScreen(event.detail, "Type the code again",
                                           "Back to the lobby"), chosen)

    def on_table_closed(self, event: TableClosed) -> None:
        """Everyone at a closed table is told so, with the evening's record, and goes back to
        the lobby with Esc: nothing there to reconnect to."""
        self.close_end_screen()
        if self.board is not None:
            self.board.close_dialog("")
        team_name = self.board.team_name if self.board is not None else str.capitalize
        self.query_one(ClosedTable).show(event.words, self.lobby.get("evening") or [],
                                         team_name)
        self.query_one(ContentSwitcher).current = "closed"
        bar = self.query_one(StatusBar)
        bar.set_turn("")
        bar.set_game("the table is closed")

    def on_connected(self, event: Connected) -> None:
        self.seat = event.seat
        self.spectator = event.spectator or event.seat is None
        self.query_one(ChatPanel).set_spectator(self.spectator)
        self.update_bindings()

    async def on_lobby_changed(self, event: LobbyChanged) -> None:
        lobby = event.lobby
        was_away = {s["seat"] for s in self.away_seats()}
        was_covered = self.covered_seats()
        known, self.lobby = bool(self.lobby), lobby
        if known:  # changes only: on arriving, the player list shows who is away
            self.tell_who_is_away(was_away)
            self.tell_who_is_covered(was_covered)
        self.seats = seat_infos(lobby, int(lobby.get("players", 0)))
        from engine.catalogue import CATALOGUE

        game = CATALOGUE.get(lobby.get("game", ""))
        title = game.title if game else str(lobby.get("game", ""))
        watching = int(lobby.get("spectators") or 0)
        self.query_one(StatusBar).set_title(title + (f" · {watching} watching" if watching else ""))
        self.query_one(WaitingRoom).show(
            lobby, self.seats, self.seat, self.is_host, self.ticket.share, self.ticket.code
        )
        if self.end_screen is not None:
            self.end_screen.show_play_again(self.play_again_text())
            self.end_screen.show_evening(lobby.get("evening") or [])
        phase = lobby.get("phase")
        if phase == "waiting":
            self.query_one(ContentSwitcher).current = "waiting"
            bar = self.query_one(StatusBar)
            bar.set_turn("")
            bar.set_game("waiting for players" + (" · you host" if self.is_host else ""))
            self.close_end_screen()
        elif self.board is not None and self.board.view is not None:  # the seats may have changed
            await self.render_state(self.board.view, self.board.legal)
        self.update_bindings()

    def tell_who_is_away(self, was_away: set[int]) -> None:
        """The table's host hears when a player goes away, and what they can do about it."""
        if not self.is_host:
            return
        for seat in self.away_seats():
            if seat["seat"] not in was_away:
                name = seat.get("name") or f"Seat {seat['seat'] + 1}"
                key = spoken_key(self.cover_binding.key)
                text = f"{name} is away. Press {key} to let a bot play their seat until they return."
                self.query_one(EventLog).note(text)
                self.notify(text, timeout=8, markup=False)

    def covered_seats(self) -> dict[int, str]:
        """The seats a bot plays for a player who is away, with the player's name."""
        return {
            s["seat"]: s.get("name") or f"Seat {s['seat'] + 1}"
            for s in self.lobby.get("seats", []) if s.get("covered")
        }

    def tell_who_is_covered(self, was_covered: dict[int, str]) -> None:
        covered = self.covered_seats()
        log = self.query_one(EventLog)
        for seat, name in covered.items():
            if seat not in was_covered:
                log.note(f"A bot plays {name}'s seat until they return.")
        for seat, name in was_covered.items():
            if seat not in covered:
                log.note(f"{name} takes their seat back from the bot.")

    @property
    def view(self) -> dict[str, Any] | None:
        """The view shown, as the board holds it: the screen keeps no copy of it."""
        return None if self.board is None else self.board.view

    async def on_state_changed(self, event: StateChanged) -> None:
        if event.seat is not None:
            self.seat = event.seat
        await self.render_state(event.view, event.legal)

    async def render_state(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        """Hand the board a view and its legal actions to keep and draw, then bring the
        status bar, the log and the footer in line with it."""
        players = int(view.get("players", 0))
        if len(self.seats) != players:
            self.seats = seat_infos(self.lobby, players)
        board = await self.ensure_board(str(view.get("game")))
        board.show(view, legal, self.seats)
        self.query_one(ContentSwitcher).current = "game"
        if self.focused is None:  # a dialog opened before the list had the keyboard
            self.focus_game()
        self.show_log()
        bar = self.query_one(StatusBar)
        bar.set_turn(self.turn_text(board), board.your_turn)
        bar.set_game(board.status_line())
        self.ring_on_your_turn(board.your_turn)
        if view.get("outcome") is not None:
            if not self.ended:
                self.ended = True
                self.keep_for_replays()
                self.open_end_screen()
        else:
            if self.ended and self.replay_screen is not None:
                self.replay_screen.notify("The table's next game has begun: Esc goes back to it.",
                                          timeout=8)
            self.ended = False
            self.close_end_screen()
        self.update_bindings()

    def turn_text(self, board: GameBoard) -> str:
        """Whose turn, and when the game waits for a player who is away, who can help; at a
        deal, whose claims the bots wait for."""
        text = board.turn_text() + self.claims_awaited(board)
        if board.waiting_for_away():
            key = spoken_key(self.cover_binding.key)
            if self.is_host:
                text += f", away: press {key} for a bot"
            elif self.host_is_away():
                # Nobody else may set a bot on: the table waits for the player (or its timer).
                text += ", away, as is the table's host"
            else:
                text += f", away: the table's host can press {key}"
        return text

    def claims_awaited(self, board: GameBoard) -> str:
        """At a deal, while the bots whose turn it is wait for people to claim (PROTOCOL.md,
        "Deals"): whom they wait for, so the status line says why nothing moves."""
        awaited = set(self.lobby.get("claim_wait") or ())
        to_act = (board.view or {}).get("to_act", ())
        if not awaited or board.your_turn or not to_act or not all(
                0 <= s < len(self.seats) and (self.seats[s].kind == "bot" or self.seats[s].covered)
                for s in to_act):
            return ""
        names = ["you" if s.seat == self.seat and not self.spectator else s.name
                 for s in self.seats if s.seat in awaited]
        verb = "has" if len(names) == 1 and names[0] != "you" else "have"
        return f" once {' and '.join(names)} {verb} claimed"

    def host_is_away(self) -> bool:
        """The person who hosts the table is away from its running game (it may go on in the
        background after they quit)."""
        return any(s["seat"] == self.lobby.get("host_seat") for s in self.away_seats())

    def ring_on_your_turn(self, yours: bool) -> None:
        """The terminal's bell, once, when the game starts waiting for this player."""
        if yours and not self.rang and bell_on():
            self.app.bell()
        self.rang = yours

    def show_log(self) -> None:
        """The log, with this seat's private events masked while its secrets are hidden."""
        if self.view is None:
            return
        hidden = self.board is not None and self.board.secret_hidden
        self.query_one(EventLog).show_events(
            self.view.get("events", []), names_of(self.seats), hide_private=hidden,
            before=self.board.log_lines_before() if self.board is not None else None,
        )

    def on_game_board_secrets_toggled(self, event: GameBoard.SecretsToggled) -> None:
        self.show_log()
        self.update_bindings()

    async def ensure_board(self, game_id: str) -> GameBoard:
        if self.board is None:
            self.board = board_for(game_id)(id="game")
            self.board.talk = self.action_chat
            await self.query_one(ContentSwitcher).mount(self.board)
            self.call_after_refresh(self.focus_game)
        return self.board

    def focus_game(self, from_chat: bool = False) -> None:
        """Put the keyboard on the game's list, unless the player is typing in the chat."""
        from textual.widgets import OptionList

        if self.board is not None and (from_chat or not isinstance(self.focused, Input)):
            lists = self.board.query(OptionList)
            if lists:
                self.set_focus(lists.first())  # at once: the next key may be for it

    def on_chat_received(self, event: ChatReceived) -> None:
        line = (event.sender, event.text, event.channel)
        if not self.chat.add(line, event.past):
            return  # a reconnect's repeat of a line shown already
        self.query_one(ChatPanel).add(*line)
        if self.end_screen is not None:
            self.end_screen.add_chat(line)

    def on_error_received(self, event: ErrorReceived) -> None:
        self.query_one(EventLog).note(event.text)
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
        # The line is said: the game's keys work again at once, without Esc.
        self.back_to_table()

    def on_screen_resume(self) -> None:
        if self.board is not None:
            self.call_after_refresh(self.board.offer_due)

    def say(self, text: str) -> None:
        self.send(wire.Chat(text))

    def binding_state(self) -> tuple:
        """Everything `check_action` reads, here and on the game's board."""
        over = self.view is not None and self.view.get("outcome") is not None
        board = self.board.binding_state() if self.board else ()
        empty = any(s.kind == "empty" for s in self.seats)
        return (self.lobby.get("phase"), self.status, self.is_host, self.spectator, over, empty,
                bool(self.away_seats()), board)

    def update_bindings(self) -> None:
        """Refresh the footer only when what may be done changed: a redraw of the footer
        restyles every key in it, which would otherwise happen on each state."""
        state = self.binding_state()
        if state != self.shown_bindings:
            self.shown_bindings = state
            self.refresh_bindings()

    @property
    def is_host(self) -> bool:
        host_seat = self.lobby.get("host_seat")
        return self.seat is not None and host_seat == self.seat and not self.spectator

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        waiting = self.lobby.get("phase") == "waiting" and self.status == "connected"
        if action == "start":
            return waiting and self.is_host
        if action == "play_again":
            over = self.view is not None and self.view.get("outcome") is not None
            return over and not self.spectator and self.status == "connected"
        if action == "add_bot":
            return waiting and self.is_host and any(s.kind == "empty" for s in self.seats)
        if action == "cover":
            return self.is_host and self.status == "connected" and bool(self.away_seats())
        if action == "chat":
            return self.status != "closed"
        return True

    def away_seats(self) -> list[dict[str, Any]]:
        """The seats of players away from the running game that no bot covers yet."""
        if self.lobby.get("phase") != "playing":
            return []
        return [
            s for s in self.lobby.get("seats", [])
            if s.get("kind") == "human" and not s.get("connected", True) and not s.get("covered")
        ]

    def action_start(self) -> None:
        self.send(wire.Start())

    def action_add_bot(self) -> None:
        self.send(wire.AddBot(self.lobby.get("table", self.ticket.table)))

    def action_cover(self) -> None:
        away = self.away_seats()
        if away:
            self.send(wire.AddBot(self.lobby.get("table", self.ticket.table), away[0]["seat"]))

    def action_play_again(self) -> None:
        asked = list(self.lobby.get("play_again") or ())
        if self.seat is not None and self.seat in asked:
            self.notify("You asked already: the new game starts when everyone has.", timeout=3)
            return
        self.send(wire.PlayAgain())
        # Shown at once, as the host will tell it (the next `lobby` holds the ask), and said:
        # at 80x24 the end screen's line of who asked may be below its fold.
        self.lobby = {**self.lobby, "play_again": [*asked, self.seat]}
        if self.end_screen is not None:
            self.end_screen.show_play_again(self.play_again_text())
        self.notify("You asked for another game: it starts when everyone has.", timeout=4)

    def on_key(self, event: events.Key) -> None:
        if (event.key in TABLE_KEYS and self.board is not None
                and isinstance(self.focused, ChatInput)):
            # A game key pressed while the chat line still has the keyboard (it comes as
            # fast as the Enter that sent the line): the table takes it. The bindings are
            # looked up from the focus once the key has bubbled up here, so the board's
            # answer it.
            self.back_to_table()
            return
        text = self.sentence_start.key(event)
        if text is None:
            text = typed_character(event, self.focused, self.COMMAND_KEYS)
        if text is not None:
            event.stop()
            event.prevent_default()
            self.action_chat(text)

    def action_chat(self, text: str = "") -> None:
        self.query_one(ChatPanel).type(text)

    def on_chat_panel_done(self, event: ChatPanel.Done) -> None:
        self.back_to_table()

    def back_to_table(self) -> None:
        """The keyboard leaves the chat for the table (the board's list; nothing in the
        waiting room), and the board offers what waited for the sentence to end."""
        self.focus_game(from_chat=True) if self.board else self.set_focus(None)
        if self.board is not None:
            self.board.offer_due()

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        game = (self.view or {}).get("game") or self.lobby.get("game") or "timebomb"
        self.app.push_screen(RulesScreen(str(game)))

    def action_keys(self) -> None:
        self.app.action_show_keys(self.joining_words)

    @property
    def seated_in_game(self) -> bool:
        """This player holds a seat in a running game: leaving it asks first."""
        return (self.lobby.get("phase") == "playing" and not self.spectator
                and self.seat is not None and self.status != "closed")

    async def action_leave(self) -> None:
        if not self.seated_in_game:
            await self.leave()
            return
        from tui.screens.confirm import ConfirmScreen

        def chosen(leave: bool | None) -> None:
            if leave:
                self.run_worker(self.leave(), group="leave")

        self.app.push_screen(ConfirmScreen(
            "Leave this game for the lobby? The game goes on without you.\n"
            "Your seat stays yours: rejoin it from the lobby, where this table is marked ★ "
            "(even after closing Gaslight).",
            "Leave", "Stay",
        ), chosen)

    async def leave(self) -> None:
        self.workers.cancel_group(self, "net")
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                if self.status == "connected":
                    await connection.send(wire.Leave())
                await connection.close()
            except Exception:
                pass  # leaving must always work, even from a dead connection
        if self.lobby.get("phase") in ("waiting", "over"):
            # Before the game, leaving gives the seat up; after it, there is nothing to
            # come back to.
            self.backend.forget_seat(self.ticket)
            await self.backend.release(self.ticket)
        self.close_end_screen()
        if self.app.screen is self:
            self.dismiss()

    # -- the end ----------------------------------------------------------------------------------

    def open_end_screen(self) -> None:
        """The end screen of the game shown, built afresh from the table as it is now. Not
        under a replay: closing the replay opens it, if the game is still the one shown."""
        from tui.screens.end import EndScreen

        assert self.view is not None and self.board is not None
        if self.replay_screen is not None:
            return
        body = type(self.board).ending(self.view, self.board.seat, self.seats)
        self.end_screen = EndScreen(
            body, can_play_again=not self.spectator, you_won=self.board.you_won(),
            chat=self.chat.lines, send_chat=self.say, ask_again=self.action_play_again,
            watch_again=self.watch_again, team_name=self.board.team_name,
        )
        self.app.push_screen(self.end_screen, self.end_chosen)
        self.end_screen.show_play_again(self.play_again_text())
        self.end_screen.show_evening(self.lobby.get("evening") or [])

    def close_end_screen(self) -> None:
        screen, self.end_screen = self.end_screen, None
        if screen is not None and screen.is_attached and self.app.screen is screen:
            screen.dismiss(None)

    def end_chosen(self, choice: str | None) -> None:
        self.end_screen = None
        if choice == "lobby":
            self.run_worker(self.leave(), group="leave")

    # -- watching the game again (issue 24) ---------------------------------------------------------

    def keep_for_replays(self) -> None:
        """The lobby's past games list this game: a seat's token is remembered, and a game
        against bots is kept as a replay file (its host goes when the player leaves)."""
        try:
            remember_played(self.backend, self.ticket, self.connection)
            keep_bot_games(self.backend, self.ticket)
        except (OSError, ValueError) as error:
            self.query_one(EventLog).note(f"Could not keep this game's replay: {error}")

    def watch_again(self, game: str | None = None) -> None:
        """A game of this table (by default the one just ended), replayed over this table's
        own connection: a spectator may watch again only on the connection that saw the
        end. The end screen goes while the replay is open, so that nothing outdated waits
        under it: the table may move on meanwhile, and closing the replay shows the table
        as it is then (the end screen again, built afresh, if no new game began)."""
        from tui.screens.replay import ReplayScreen, ReplaySource

        if self.connection is None or self.status != "connected":
            self.notify("Not connected to the host: no replay.", severity="warning")
            return
        self.close_end_screen()
        source = ReplaySource(
            self.ticket, game=game, table=self.lobby.get("table", self.ticket.table),
            token=getattr(self.connection, "token", None),
            eyes=self.seat if self.seat is not None and not self.spectator else "spectator",
            send=self.connection.send)
        self.replay_screen = ReplayScreen(self.backend, source, self.player_name)

        def closed(_: object) -> None:
            self.replay_screen = None
            if self.ended and self.end_screen is None:
                self.open_end_screen()

        # Pushed from this screen's own turn: a screen's result callback runs on the screen
        # that pushed it, and the end screen that asked is gone by the time the replay closes.
        self.call_next(self.app.push_screen, self.replay_screen, closed)

    def play_again_text(self) -> Text:
        """Who asked for another game, and which people it still waits for: every person's
        end screen says so, not only the asker's."""
        asked = {int(s) for s in self.lobby.get("play_again") or ()}
        people = [s for s in self.seats if s.kind == "human" and not s.covered]
        def name(seat: SeatInfo) -> str:
            return "you" if seat.seat == self.seat and not self.spectator else seat.name

        return play_again_text(
            [name(s) for s in people if s.seat in asked],
            [name(s) for s in people if s.seat not in asked and s.connected],
            None if self.spectator or self.seat is None else self.seat in asked,
        )

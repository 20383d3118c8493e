"""Watching a finished game again: the game's view (board, log, chat, status bar), as at a
table, fed from the game's record.

The host rebuilds the game through the engine and sends each step as the chosen eyes saw it
(`replay` messages); this screen shows those steps in a `GameView`, the pieces a table shows,
and its keys move through the game instead of playing it. It never holds a game state: every
step it shows is a view the host sent.

A replay reaches the host one of two ways: over a connection of its own (from the lobby's
recent games, or a replay file's in-process host), or over the table's own connection, lent
by the play screen at the end of a game (a spectator may watch again only on the connection
that saw the end).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from engine.catalogue import CATALOGUE
from netplay import protocol as wire
from netplay.protocol import EYES_ALL, EYES_SPECTATOR
from tui.backend import Backend
from tui.host_link import HostLink
from tui.listing import Ticket
from tui.messages import CodeRefused, ConnectionStatusChanged
from tui.models.seats import SeatInfo, seat_infos
from tui.past_games import ReplayFileFailed
from tui.screens.about_game import AboutScreen, clock
from tui.screens.game_view import GameView
from tui.screens.rules import RulesScreen
from tui.widgets.connection_indicator import ConnectionIndicator
from tui.widgets.game_board import GameBoard

PACE = 1.0
"""Seconds per step while the replay plays by itself."""
MOVERS = {"person": "", "bot": "", "host": "a bot for the away player",
          "timer": "the turn timer's bot"}


@dataclass(frozen=True)
class ReplaySource:
    """Which game to show and how to reach it. `game` None: the newest finished game of
    `table` this connection may watch (the end screen's game)."""

    ticket: Ticket
    game: str | None = None
    table: str | None = None
    token: str | None = None
    fingerprint: str | None = None
    """The key of the host that gave `token`, expected before the token is sent."""
    eyes: int | str = EYES_SPECTATOR
    send: Callable[[wire.ClientMessage], Awaitable[None]] | None = None
    """The table's connection, lent: requests go through it, and its play screen hands this
    screen the answers (`receive`). None: this screen opens a connection of its own."""
    on_close: Callable[[], Awaitable[None]] | None = None
    """Put away what was started for this replay (a replay file's host)."""
    local: bool = False
    """A replay file, shown by a host of this app's own: no link to anyone to show."""


def eyes_name(eyes: int | str, seats: list[SeatInfo]) -> str:
    if eyes == EYES_ALL:
        return "everything"
    if eyes == EYES_SPECTATOR:
        return "a spectator"
    seat = int(eyes)
    name = seats[seat].name if seat < len(seats) else f"Seat {seat + 1}"
    return f"{name} ({seat + 1})"


class ReplayScreen(Screen[None], inherit_bindings=False):
    # The keys move through the replay: the board's lists never take the keyboard.
    AUTO_FOCUS = None

    DEFAULT_CSS = """
    ReplayScreen #chat-input { display: none; }
    ReplayScreen #replay-waiting { height: 1fr; padding: 1 2; }
    """
    # The footer holds one key of each pair (80 columns); `?` lists them all.
    BINDINGS = [
        Binding("left", "step(-1)", "Step back", show=False, priority=True,
                tooltip="One action back"),
        Binding("right", "step(1)", "Step", key_display="←→", priority=True,
                tooltip="→ one action forward, ← one back"),
        Binding("left_square_bracket", "round(-1)", "Round back", show=False,
                tooltip="Back to the start of this round (Holmes: day; Machinations: heist), "
                        "or of the one before"),
        Binding("right_square_bracket", "round(1)", "Round", key_display="[]",
                tooltip="] forward to the start of the next round, [ back to the start of "
                        "this one"),
        Binding("home", "jump(0)", "Start", show=False, priority=True,
                tooltip="The deal, before the first action"),
        Binding("end", "jump(-1)", "Ends", key_display="home/end", priority=True,
                tooltip="End: the end of the game; Home: the deal"),
        Binding("space", "play", "Play", priority=True,
                tooltip="Play the game at a steady pace, one action a second; again to stop"),
        Binding("e", "eyes(1)", "Eyes", tooltip="Whose eyes: each seat in turn, then a "
                "spectator's, then everything (every hand and role); the place stays. "
                "1-9, 0: that seat's; s: a spectator's; a: everything"),
        Binding("i", "about", "About", tooltip="Who played each seat, the options, the covers "
                "and the moves a turn timer forced"),
        Binding("x", "export", "Save", tooltip="Save this replay to a file, to open with "
                "`gaslight replay FILE` on any computer"),
        Binding("escape", "leave", "Back", tooltip="Close the replay"),
        Binding("f1", "rules", "Rules", show=False, tooltip="The rules of this game"),
        Binding("question_mark", "keys", "Keys", tooltip="This list"),
    ]
    EYE_KEYS = "1234567890"
    """Digits pick a seat's eyes at once (0: seat 10); `s` a spectator's, `a` everything."""
    COMMAND_KEYS = "eix?[] "
    """The printable keys of the bindings above; no other letter does anything here (there
    is nothing to say in a replay, so nothing is typed to the chat)."""

    def __init__(self, backend: Backend, source: ReplaySource, player_name: str) -> None:
        super().__init__()
        self.backend = backend
        self.source = source
        self.player_name = player_name
        self.link = HostLink(self, source.ticket.address, opened=lambda _: self.start(),
                             received=self.receive)
        self.game_view = GameView(Static("Asking the host for the game…", id="replay-waiting"),
                                  spectator=True)
        self.game: str | None = source.game
        self.eyes: int | str = source.eyes
        self.step = 0
        """The step shown."""
        self.target = 0
        """The step last asked for: keys pressed faster than the host answers count from it."""
        self.steps = 0
        self.marks: list[int] = [0]
        self.about: dict[str, Any] = {}
        self.seats: list[SeatInfo] = []
        """Who sat where at the step shown, and whom a bot covered then."""
        self.moved: dict[str, Any] | None = None
        self.shown_eyes: int | str = source.eyes
        """The eyes of the step shown (`eyes`: of the one last asked for)."""
        self.chat_shown: list[dict] | None = None
        self.title_shown = ""
        self.drawn: tuple[int, int | str] | None = None
        """The step and eyes on screen, set once the frame that shows them is painted."""
        self.playing: Any = None
        self.entries: list[dict] = []
        """The record's parts received so far, while saving it."""
        self.saved: Path | None = None
        self.status = "connecting"

    def compose(self) -> ComposeResult:
        yield self.game_view
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        bar = self.game_view.status_bar
        bar.set_title("Replay")
        bar.set_game("asking the host for the game…")
        self.game_view.chat_panel.border_title = "Chat then"
        self.query_one(ConnectionIndicator).display = not self.source.local
        if self.source.send is None:
            address, fingerprint = self.source.ticket.address, self.source.fingerprint
            self.link.open(lambda: self.backend.watch(address, fingerprint, self.player_name))
        else:
            self.post_message(ConnectionStatusChanged("connected"))
            self.start()

    @property
    def board(self) -> GameBoard | None:
        return self.game_view.board

    @property
    def view(self) -> dict[str, Any] | None:
        return self.game_view.view

    # -- the link ---------------------------------------------------------------------------------

    def on_connection_status_changed(self, event: ConnectionStatusChanged) -> None:
        self.status = event.status
        self.game_view.status_bar.set_connection(event.status)
        if event.status != "closed":
            return
        self.stop_playing()
        detail = event.detail or "The host closed the replay."
        self.game_view.event_log.note(detail + " Press Esc to go back.")
        if self.view is None:
            self.game_view.status_bar.set_game("no replay")
            self.query_one("#replay-waiting", Static).update(
                Text(detail + "\n\nPress Esc to go back."))

    def on_code_refused(self, event: CodeRefused) -> None:
        self.post_message(ConnectionStatusChanged("closed", event.detail))

    def start(self) -> None:
        if self.game is None:
            tokens = [self.source.token] if self.source.token else []
            self.request(wire.ListReplays(tokens))
        else:
            self.ask(0)

    @work(group="send")
    async def request(self, message: wire.ClientMessage) -> None:
        if self.source.send is None:
            trouble = await self.link.send(message)
        else:
            try:
                await self.source.send(message)
                trouble = None
            except (OSError, ConnectionError) as error:
                trouble = f"Could not send: {error}"
        if trouble:
            self.game_view.event_log.note(trouble)

    def receive(self, message: Any) -> None:
        """A message from the host for this replay (from our connection or the lent one)."""
        match message:
            case wire.ReplayList(games=games):
                mine = [g for g in games if self.source.table in (None, g.get("table"))]
                if not mine:
                    self.post_message(ConnectionStatusChanged(
                        "closed", "The host has no finished game here that you may watch."))
                    return
                self.game = str(mine[0]["game"])
                self.ask(0)
            case wire.ReplayStep():
                self.post_message(self.Shown(message))
            case wire.RecordPart():
                self.post_message(self.Part(message))
            case wire.Error(message=text, fatal=fatal):
                self.post_message(ConnectionStatusChanged("closed", text) if fatal
                                  else self.Refused(text))

    @dataclass
    class Shown(Message):
        """The host sent a step."""

        step: wire.ReplayStep

    @dataclass
    class Part(Message):
        """The host sent a part of the record being saved."""

        part: wire.RecordPart

    @dataclass
    class Refused(Message):
        """The host turned a request of this replay down."""

        text: str

    def ask(self, step: int, eyes: int | str | None = None) -> None:
        if self.game is None:
            return
        if eyes is not None:
            self.eyes = eyes
        self.target = step
        self.request(wire.ShowReplay(game=self.game, eyes=self.eyes, step=step,
                                     token=self.source.token))

    # -- a step, shown --------------------------------------------------------------------------

    async def on_replay_screen_shown(self, event: "ReplayScreen.Shown") -> None:
        shown = event.step
        self.step, self.steps, self.marks = shown.step, shown.steps, list(shown.marks)
        self.moved = shown.moved
        if shown.about is not None:
            self.about = shown.about
        eyes = self.shown_eyes = shown.eyes
        self.seats = seat_infos(self.seats_then(), int(self.about.get("players", 0)))
        # The board reads whose eyes from the view.
        board = await self.game_view.show(shown.view, [], self.seats)
        self.game_view.show_status(self.turn_text(board))
        self.show_chat(shown.chat)
        # Only once the frame that shows it is laid out and painted: whoever waits on `drawn`
        # (tests, the benchmark) then reads the screen.
        self.call_after_refresh(self.now_drawn, (shown.step, eyes))
        if self.playing is not None and self.step >= self.steps:
            self.stop_playing()

    def now_drawn(self, drawn: tuple[int, int | str]) -> None:
        self.drawn = drawn

    def seats_then(self) -> list[dict[str, Any]]:
        """The seats as they stood at this step: who sat where, and who a bot covered."""
        covered = {c["seat"] for c in self.about.get("covers", [])
                   if c["from"] <= self.step < max(c["to"], c["from"] + 1)}
        return [dict(s, connected=s["seat"] not in covered, covered=s["seat"] in covered)
                for s in self.about.get("seats", [])]

    def show_chat(self, lines: list[dict]) -> None:
        if lines == self.chat_shown:
            return  # most steps: rewriting the same lines would lay the screen out again
        self.chat_shown = lines
        log = self.game_view.chat_panel.query_one("#chat-log", RichLog)
        log.clear()
        for line in lines:
            log.write(f"{clock(line.get('time'))[:5]} {line.get('name')}: {line.get('text')}")

    def turn_text(self, board: GameBoard) -> str:
        """Where in the game, through whose eyes, and who made the move just shown; the
        board's own status line names the round (Machinations: the heist; Holmes: the day)."""
        game = CATALOGUE.get(str(self.about.get("kind", "")))
        title = f"Replay · {game.title if game else ''} · {self.about.get('name', '')}"
        if title != self.title_shown:
            self.title_shown = title
            self.game_view.status_bar.set_title(title)
        where = f"{self.step}/{self.steps} · eyes: {eyes_name(self.shown_eyes, self.seats)}"
        moved = self.moved
        if moved is None:
            return where + " · the deal"
        seat = int(moved["seat"])
        name = self.seats[seat].name if seat < len(self.seats) else f"Seat {seat + 1}"
        by = MOVERS.get(str(moved.get("by")), "")
        return (f"{where} · {name} moved" + (f" ({by})" if by else "")
                + f" {clock(moved.get('time'))}")

    # -- the keys -------------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.ask(max(0, min(self.target + delta, self.steps)))

    def action_round(self, delta: int) -> None:
        if delta > 0:
            later = [m for m in self.marks if m > self.target]
            self.ask(later[0] if later else self.steps)
        else:
            earlier = [m for m in self.marks if m < self.target]
            self.ask(earlier[-1] if earlier else 0)

    def action_jump(self, where: int) -> None:
        self.ask(self.steps if where < 0 else where)

    def action_play(self) -> None:
        if self.playing is not None:
            self.stop_playing()
            return
        if self.target >= self.steps:
            self.ask(0)
        self.playing = self.set_interval(PACE, lambda: self.action_step(1))
        self.notify("Playing: Space stops.", timeout=2)

    def stop_playing(self) -> None:
        if self.playing is not None:
            self.playing.stop()
            self.playing = None

    def action_eyes(self, delta: int) -> None:
        players = int(self.about.get("players", 0))
        choices: list[int | str] = [*range(players), EYES_SPECTATOR, EYES_ALL]
        at = choices.index(self.eyes) if self.eyes in choices else len(choices) - 1
        self.ask(self.target, choices[(at + delta) % len(choices)])

    def on_key(self, event: events.Key) -> None:
        character = event.character if event.is_printable else None
        if character is None or character in self.COMMAND_KEYS:
            return  # a binding's key
        event.stop()
        players = int(self.about.get("players", 0))
        if character in self.EYE_KEYS:
            seat = (int(character) - 1) % 10
            if seat < players:
                self.ask(self.target, seat)
        elif character in ("s", "a"):
            self.ask(self.target, EYES_SPECTATOR if character == "s" else EYES_ALL)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(str(self.about.get("kind") or "timebomb")))

    def action_keys(self) -> None:
        self.app.action_show_keys()

    def on_replay_screen_refused(self, event: "ReplayScreen.Refused") -> None:
        self.game_view.event_log.note(event.text)
        self.notify(event.text, severity="warning", timeout=4, markup=False)

    def action_about(self) -> None:
        self.app.push_screen(AboutScreen(self.about, self.seats))

    # -- saving ---------------------------------------------------------------------------------

    def action_export(self) -> None:
        if self.game is None:
            return
        self.entries = []
        self.request(wire.FetchRecord(game=self.game, part=0, token=self.source.token))

    async def on_replay_screen_part(self, event: "ReplayScreen.Part") -> None:
        part = event.part
        self.entries.extend(part.body)
        if part.part + 1 < part.parts:
            self.request(wire.FetchRecord(game=part.game, part=part.part + 1,
                                          token=self.source.token))
            return
        try:
            # Saving plays the game through the engine to check it: not on the screen's turn.
            self.saved = await asyncio.to_thread(self.backend.save_replay, self.entries)
        except ReplayFileFailed as error:
            self.notify(str(error), severity="error", markup=False)
            return
        self.game_view.event_log.note(f"Saved to {self.saved}")
        self.notify(f"Saved to {self.saved}", timeout=8, markup=False)

    # -- leaving --------------------------------------------------------------------------------

    async def action_leave(self) -> None:
        self.stop_playing()
        await self.link.close()
        if self.source.on_close is not None:
            await self.source.on_close()
        self.dismiss()


async def open_file_replay(backend: Backend, source: Path | str | Any, player_name: str,
                           eyes: int | str = EYES_SPECTATOR) -> ReplayScreen:
    """A replay screen for a replay file (a path, or its record read already), shown by a host
    of its own on 127.0.0.1 that stops when the screen closes, through `eyes` at first. Raises
    `ReplayFileFailed`, in words for the player."""
    opened = await backend.open_replay_file(source)
    return ReplayScreen(backend, ReplaySource(opened.ticket, game=opened.game, eyes=eyes,
                                              on_close=opened.close, local=True), player_name)

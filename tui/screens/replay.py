"""Watching a finished game again: the play screen, fed from the game's record.

The host rebuilds the game through the engine and sends each step as the chosen eyes saw it
(`replay` messages); this screen is a `PlayScreen` whose board, log and status bar show those
steps instead of the live game, and whose keys move through the game instead of playing it. It
never holds a game state: every step it shows is a view the host sent.

A replay reaches the host one of two ways: over a connection of its own (from the lobby's
recent games, or a replay file's in-process host), or over the table's own connection, lent
by the play screen at the end of a game (a spectator may watch again only on the connection
that saw the end).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from textual import events, work
from textual.binding import Binding
from textual.message import Message
from textual.widgets import RichLog

from engine.catalogue import CATALOGUE
from netplay import protocol as wire
from netplay.replays import EYES_ALL, EYES_SPECTATOR
from tui.backend import Backend
from tui.listing import Ticket
from tui.messages import ConnectionStatusChanged
from tui.models.seats import SeatInfo, seat_infos
from tui.played_games import replays_dir
from tui.screens.about_game import AboutScreen, clock
from tui.screens.play import PlayScreen
from tui.widgets.chat_panel import ChatPanel
from tui.widgets.connection_indicator import ConnectionIndicator
from tui.widgets.event_log import EventLog
from tui.widgets.status_bar import StatusBar

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


class ReplayScreen(PlayScreen, inherit_bindings=False):
    DEFAULT_CSS = """
    ReplayScreen #chat-input { display: none; }
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
        Binding("end", "jump(-1)", "Start/end", key_display="home/end", priority=True,
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
        super().__init__(backend, source.ticket, player_name)
        self.source = source
        self.game: str | None = source.game
        self.eyes: int | str = source.eyes
        self.step = 0
        """The step shown."""
        self.target = 0
        """The step last asked for: keys pressed faster than the host answers count from it."""
        self.steps = 0
        self.marks: list[int] = [0]
        self.about: dict[str, Any] = {}
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

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # the play screen's own would connect to a table
        bar = self.query_one(StatusBar)
        bar.set_title("Replay")
        bar.set_game("asking the host for the game…")
        self.query_one(ChatPanel).border_title = "Chat then"
        self.query_one(ConnectionIndicator).display = not self.source.local
        if self.source.send is None:
            self.run_connection()
        else:
            self.post_message(ConnectionStatusChanged("connected"))
            self.start()

    # -- the link ---------------------------------------------------------------------------------

    @work(exclusive=True, group="net")
    async def run_connection(self) -> None:
        from netplay.client import Connection

        address = self.ticket.address
        try:
            self.connection = await Connection.connect(
                address.host, address.port, name=self.player_name or "Replay", reconnect=False,
                **self.backend.trust(address, self.source.fingerprint))
        except Exception as error:
            self.post_message(ConnectionStatusChanged(
                "closed", f"Could not reach the host at {address}: {error}"))
            return
        self.post_message(ConnectionStatusChanged("connected"))
        self.start()
        try:
            async for message in self.connection:
                self.receive(message)
        except Exception as error:
            self.post_message(ConnectionStatusChanged("closed", f"Lost the host: {error}"))
            return
        self.post_message(ConnectionStatusChanged("closed", "The host closed the replay."))

    def start(self) -> None:
        if self.game is None:
            tokens = [self.source.token] if self.source.token else []
            self.request(wire.ListReplays(tokens))
        else:
            self.ask(0)

    @work(group="send")
    async def request(self, message: wire.ClientMessage) -> None:
        send = self.source.send
        if send is None:
            if self.connection is None:
                return
            send = self.connection.send
        try:
            await send(message)
        except (OSError, ConnectionError) as error:
            self.query_one(EventLog).note(f"Could not ask the host: {error}")

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
        self.lobby = self.lobby_then()
        self.seats = seat_infos(self.lobby, int(self.about.get("players", 0)))
        await self.render_state(shown.view, [])  # the board reads whose eyes from the view
        self.show_chat(shown.chat)
        # Only once the frame that shows it is laid out and painted: whoever waits on `drawn`
        # (tests, the benchmark) then reads the screen.
        self.call_after_refresh(self.now_drawn, (shown.step, eyes))
        if self.playing is not None and self.step >= self.steps:
            self.stop_playing()

    def now_drawn(self, drawn: tuple[int, int | str]) -> None:
        self.drawn = drawn

    def lobby_then(self) -> dict[str, Any]:
        """The table as it stood at this step: who sat where, and who a bot covered."""
        covered = {c["seat"] for c in self.about.get("covers", [])
                   if c["from"] <= self.step < max(c["to"], c["from"] + 1)}
        return {
            "game": self.about.get("kind"), "players": self.about.get("players"),
            "phase": "over", "host_seat": None,
            "seats": [dict(s, connected=s["seat"] not in covered, covered=s["seat"] in covered)
                      for s in self.about.get("seats", [])],
        }

    def show_chat(self, lines: list[dict]) -> None:
        if lines == self.chat_shown:
            return  # most steps: rewriting the same lines would lay the screen out again
        self.chat_shown = lines
        log = self.query_one("#chat-log", RichLog)
        log.clear()
        for line in lines:
            log.write(f"{clock(line.get('time'))[:5]} {line.get('name')}: {line.get('text')}")

    def turn_text(self, board: Any) -> str:
        game = CATALOGUE.get(str(self.about.get("kind", "")))
        title = f"Replay · {game.title if game else ''} · {self.about.get('name', '')}"
        if title != self.title_shown:
            self.title_shown = title
            self.query_one(StatusBar).set_title(title)
        # The board's own status names the round (Machinations: the heist; Holmes: the day).
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
        event.prevent_default()  # the play screen's own would type it into the chat
        players = int(self.about.get("players", 0))
        if character in self.EYE_KEYS:
            seat = (int(character) - 1) % 10
            if seat < players:
                self.ask(self.target, seat)
        elif character in ("s", "a"):
            self.ask(self.target, EYES_SPECTATOR if character == "s" else EYES_ALL)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True

    def focus_game(self, from_chat: bool = False) -> None:
        """The keys move through the replay: the board's lists never take the keyboard."""

    def open_end_screen(self) -> None:
        """The end of a replay is only its last step."""

    def keep_for_replays(self) -> None:
        """Its game was kept when it ended."""

    def close_end_screen(self) -> None:
        pass

    def ring_on_your_turn(self, yours: bool) -> None:
        pass

    def on_replay_screen_refused(self, event: "ReplayScreen.Refused") -> None:
        self.query_one(EventLog).note(event.text)
        self.notify(event.text, severity="warning", timeout=4, markup=False)

    def action_about(self) -> None:
        self.app.push_screen(AboutScreen(self.about, self.seats))

    # -- saving ---------------------------------------------------------------------------------

    def action_export(self) -> None:
        if self.game is None:
            return
        self.entries = []
        self.request(wire.FetchRecord(game=self.game, part=0, token=self.source.token))

    def on_replay_screen_part(self, event: "ReplayScreen.Part") -> None:
        part = event.part
        self.entries.extend(part.body)
        if part.part + 1 < part.parts:
            self.request(wire.FetchRecord(game=part.game, part=part.part + 1,
                                          token=self.source.token))
            return
        from netplay import replay_file

        try:
            record = replay_file.check(self.entries)
            folder = replays_dir(self.backend)
            self.saved = replay_file.save(folder / replay_file.file_name(record), self.entries)
        except (OSError, replay_file.ReplayFileError) as error:
            self.notify(f"Could not save the replay: {error}", severity="error", markup=False)
            return
        self.query_one(EventLog).note(f"Saved to {self.saved}")
        self.notify(f"Saved to {self.saved}", timeout=8, markup=False)

    # -- leaving --------------------------------------------------------------------------------

    async def action_leave(self) -> None:
        self.stop_playing()
        self.workers.cancel_group(self, "net")
        if self.source.send is None and self.connection is not None:
            try:
                await self.connection.close()
            except Exception:
                pass
            self.connection = None
        if self.source.on_close is not None:
            await self.source.on_close()
        self.dismiss()


async def open_file_replay(backend: Backend, record: Any, player_name: str,
                           eyes: int | str = EYES_SPECTATOR) -> ReplayScreen:
    """A replay screen for a replay file's record, shown by a host of its own on 127.0.0.1
    that stops when the screen closes, through `eyes` at first."""
    from netplay.replay_file import ReplayHost
    from tui.address import Address

    host = ReplayHost(record)
    _, port = await host.start()
    ticket = Ticket(Address("127.0.0.1", port), None, spectate=True)
    backend.remember_code(ticket.address, host.host.table_code)  # it pairs by the code silently
    return ReplayScreen(backend, ReplaySource(ticket, game=record.game, on_close=host.stop,
                                              eyes=eyes, local=True), player_name)

"""The lobby's past games: the finished games this player may watch again, newest first.

Two sources: the hosts where this player sat (each asked, with the tokens of the seats played
to an end, `played_book`, and of the seats held now, for the games those seats played:
`replays`), and the replay files in Gaslight's data directory
(the games against bots are kept there as they end, and any saved with `x` in a replay). Enter
opens the highlighted game in the replay screen.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.address import Address
from tui.backend import Backend
from tui.listing import Ticket
from tui.played_games import played_book, replays_dir
from tui.seat_book import HeldSeat

ASK_TIMEOUT = 3.0
"""Seconds a host has to answer before the list goes on without it."""
LISTED = 40
TOKENS_ASKED = 5
"""Seats asked about per host: the host answers 5 lists at once, then one a second."""


@dataclass(frozen=True)
class PastGame:
    kind: str
    name: str
    players: int
    ended: float | None
    result: str
    game: str
    address: Address | None = None
    """The host that shows it; None for a replay file."""
    token: str | None = None
    fingerprint: str | None = None
    """The key of the host that gave `token`: watching expects it."""
    path: Path | None = None
    seat: int | None = None
    """The seat this player played: its replay starts through their own eyes."""

    @property
    def eyes(self) -> int | str:
        from netplay.replays import EYES_SPECTATOR

        return self.seat if isinstance(self.seat, int) else EYES_SPECTATOR

    def line(self) -> str:
        from engine.catalogue import CATALOGUE

        info = CATALOGUE.get(self.kind)
        when = time.strftime("%d %b %H:%M", time.localtime(self.ended)) if self.ended else ""
        where = "file" if self.path is not None else str(self.address)
        title = info.title if info else self.kind
        return f"{when}  {title} · {self.name} · {self.players}p · {self.result} ({where})"


def files_of(folder: Path) -> list[PastGame]:
    from netplay import replay_file
    from netplay.replays import Replay
    from netplay.table import HUMAN

    games = []
    for path in sorted(folder.glob(f"*{replay_file.SUFFIX}"), key=lambda p: p.stat().st_mtime,
                       reverse=True)[:LISTED]:
        try:
            record = replay_file.read(path)
        except replay_file.ReplayFileError:
            continue  # a damaged file is refused when opened by name; here it is left out
        replay = Replay(record)
        # A kept file is a game against bots: its one person is this player.
        people = [seat for seat, player in enumerate(record.seats) if player.kind == HUMAN]
        games.append(PastGame(record.kind, record.name, record.players, replay.ended,
                              replay.outcome.text if replay.outcome else "", record.game,
                              path=path, seat=people[0] if len(people) == 1 else None))
    return games


async def games_at(address: Address, tokens: list[str], name: str,
                   trust: dict[str, Any]) -> list[PastGame]:
    """`trust`: how to make sure of the host (`Backend.trust`)."""
    from netplay.client import Connection
    from netplay.protocol import ListReplays, ReplayList

    async def ask() -> list[PastGame]:
        # One list per token, so that each game is opened with the token that may watch it
        # (a host answers a few lists at once, then one a second).
        conn = await Connection.connect(address.host, address.port, name=name, reconnect=False,
                                        **trust)
        found: dict[str, PastGame] = {}
        try:
            for token in tokens[:TOKENS_ASKED]:
                await conn.send(ListReplays([token]))
                while not isinstance(message := await conn.next_message(), ReplayList):
                    pass
                for g in message.games:
                    found.setdefault(str(g["game"]), PastGame(
                        str(g["kind"]), str(g["name"]), int(g["players"]), g.get("ended"),
                        str(g.get("result", "")), str(g["game"]), address=address,
                        token=token, fingerprint=trust["fingerprint"], seat=g.get("seat")))
        finally:
            await conn.close()
        return list(found.values())

    try:
        async with asyncio.timeout(ASK_TIMEOUT):
            return await ask()
    except Exception:  # a host that is gone or refuses lists nothing
        return []


class PastGamesScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    PastGamesScreen { align: center middle; }
    PastGamesScreen > Vertical { width: 100%; max-width: 110; height: 100%; max-height: 24;
                                 border: thick $accent; background: $surface; padding: 0 1; }
    PastGamesScreen OptionList { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "Back"),
                Binding("enter", "open", "Watch again", priority=True)]

    def __init__(self, backend: Backend, player_name: str) -> None:
        super().__init__()
        self.backend = backend
        self.player_name = player_name
        self.games: list[PastGame] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Past games (Enter watches one again, Esc goes back):", id="past-title")
            yield OptionList(id="past-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).add_option(Option("Looking for your past games…",
                                                     disabled=True))
        self.find()

    @work(exclusive=True)
    async def find(self) -> None:
        # The tokens go, together, to the host that gave them: the one with their key.
        by_host: dict[tuple[Address, str | None], list[HeldSeat]] = {}
        for seat in [*reversed(played_book(self.backend).all()), *self.backend.seats.all()]:
            held = by_host.setdefault((seat.address, seat.fingerprint), [])
            if seat.token not in [s.token for s in held]:
                held.append(seat)
        found: list[PastGame] = []
        asked = [games_at(address, [s.token for s in held], self.player_name,
                          self.backend.trust(address, self.backend.seat_key(held[0])))
                 for (address, _), held in by_host.items()]
        for games in await asyncio.gather(*asked):
            found.extend(games)
        found.extend(await asyncio.to_thread(files_of, replays_dir(self.backend)))
        found.sort(key=lambda g: g.ended or 0, reverse=True)
        self.show(found[:LISTED])

    def show(self, games: list[PastGame]) -> None:
        self.games = games
        options = self.query_one(OptionList)
        options.clear_options()
        if not games:
            options.add_option(Option("No past games yet: the games you play end up here.",
                                      disabled=True))
            return
        options.add_options([Option(g.line()) for g in games])
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open(event.option_index)

    def action_open(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is not None:
            self.open(index)

    @work(exclusive=True, group="open")
    async def open(self, index: int) -> None:
        from tui.screens.replay import ReplayScreen, ReplaySource, open_file_replay

        if not 0 <= index < len(self.games):
            return
        game = self.games[index]
        if game.path is not None:
            from netplay import replay_file

            try:
                record = await asyncio.to_thread(replay_file.read, game.path)
            except replay_file.ReplayFileError as error:
                self.notify(f"Cannot open {game.path.name}: {error}", severity="error",
                            markup=False)
                return
            screen: Any = await open_file_replay(self.backend, record, self.player_name,
                                                 eyes=game.eyes)
        else:
            assert game.address is not None
            screen = ReplayScreen(self.backend, ReplaySource(
                Ticket(game.address, None, spectate=True), game=game.game, token=game.token,
                fingerprint=game.fingerprint, eyes=game.eyes), self.player_name)
        self.app.push_screen(screen)

    def action_close(self) -> None:
        self.dismiss(None)

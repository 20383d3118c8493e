"""The lobby's past games: the finished games this player may watch again, newest first.

Two sources: the hosts where this player sat (each asked, with the tokens of the seats played
to an end, `played_book`, and of the seats held now, for the games those seats played:
`replays`), and the replay files in Gaslight's data directory (the games against bots are kept
there as they end, and any saved with `x` in a replay). Both come through the backend, which
asks the hosts and has netplay read the files. Enter opens the highlighted game in the replay
screen.
"""

from __future__ import annotations

import asyncio

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
from tui.past_games import PastGame, ReplayFileFailed
from tui.played_games import played_book
from tui.screens.replay import ReplayScreen, ReplaySource, open_file_replay
from tui.seat_book import HeldSeat

LISTED = 40
"""Past games listed: the newest."""


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
        asked = [self.backend.past_games_at(address, [s.token for s in held], self.player_name,
                                            self.backend.seat_key(held[0]))
                 for (address, _), held in by_host.items()]
        for games in await asyncio.gather(*asked):
            found.extend(games)
        found.extend(await self.backend.replay_files(LISTED))
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
        if not 0 <= index < len(self.games):
            return
        game = self.games[index]
        if game.path is not None:
            try:
                screen = await open_file_replay(self.backend, game.path, self.player_name,
                                                eyes=game.eyes)
            except ReplayFileFailed as error:
                self.notify(str(error), severity="error", markup=False)
                return
        else:
            assert game.address is not None
            screen = ReplayScreen(self.backend, ReplaySource(
                Ticket(game.address, None, spectate=True), game=game.game, token=game.token,
                fingerprint=game.fingerprint, eyes=game.eyes), self.player_name)
        self.app.push_screen(screen)

    def action_close(self) -> None:
        self.dismiss(None)

"""The lobby's past games: the finished games this player may watch again, newest first.

Every game a person plays or watches is kept on their machine as it ends (`tui/kept_games.py`),
so the list holds them after their table closed and its host stopped; a host that still runs
is asked too, for a game missed at its end. The backend gathers both (`Backend.past_games`). A
kept file that cannot be read is one line that says why. Enter opens the highlighted game in the
replay screen.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.backend import Backend
from tui.listing import Ticket
from tui.past_games import PastGame, ReplayFileFailed
from tui.screens.replay import ReplayScreen, ReplaySource, open_file_replay

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
        self.show(await self.backend.past_games(self.player_name, LISTED))

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

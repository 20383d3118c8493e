"""Host a new table: the game, its declared options, the seat count and the bots, set as the
last table this player hosted (`tui/table_request.py`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static
from textual.widgets._select import SelectOverlay

from netplay.protocol import MAX_NAME
from tui.quick_play import DEFAULT_PACE, PACE_WORDS
from tui.table_request import TableRequest


FIELD_HELP = {
    "host-game": "The game to play at this table.",
    "host-name": "How the table is listed in other players' lobbies.",
    "host-players": "The seats at the table, people and bots together.",
    "host-bots": "Bots take this many seats at once; the rest wait for people to join.",
    "host-pace": "How long bots wait before each move; normal is about a person's pace.",
    "host-hints": "Whether players may ask for a hint: the move the strongest bot would play "
                  "from their seat, and why. The table is told each time someone asks.",
    "host-go": "Open the table and sit at it; start when everyone is there.",
}
"""What each fixed field is for; each option brings its own help from the catalogue."""


class HostTableScreen(ModalScreen[TableRequest | None]):
    DEFAULT_CSS = """
    HostTableScreen { align: center middle; }
    HostTableScreen > Vertical { width: 70; max-width: 100%; height: auto; max-height: 100%;
                                 border: thick $accent; background: $surface; padding: 0 1; }
    HostTableScreen #host-intro { margin: 0 0 1 0; }
    HostTableScreen .row { height: 1; }
    HostTableScreen .row Label { width: 20; }
    HostTableScreen .row Select, HostTableScreen .row Input { width: 1fr; }
    HostTableScreen #host-options { height: auto; }
    HostTableScreen #host-help { color: $text-muted; height: 3; margin: 1 0 0 0; }
    HostTableScreen #host-buttons { height: 1; margin: 0; }
    HostTableScreen #host-buttons Button { margin: 0 2 0 0; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, player_name: str, default_game: str = "timebomb",
                 last: TableRequest | None = None) -> None:
        """`last`: the table this player hosted last; the form starts from it."""
        super().__init__()
        from engine.catalogue import CATALOGUE

        self.games = CATALOGUE
        self.player_name = player_name
        self.last = last
        game = last.game if last is not None else default_game
        self.game_id = game if game in CATALOGUE else next(iter(CATALOGUE))
        self.helps: dict[str, str] = dict(FIELD_HELP)
        self.people = last.players - last.bots if last is not None else 2
        """The people the host expects, themselves included: bots take the other seats."""

    @property
    def game(self):
        return self.games[self.game_id]

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical():
            yield Static("Host a table on this computer; it is announced on the LAN. The "
                         "waiting room shows its table code, which players type the first "
                         "time they join.", id="host-intro")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select(
                    [(cls.title, gid) for gid, cls in self.games.items()],
                    value=self.game_id, allow_blank=False, compact=True, id="host-game",
                )
            with Horizontal(classes="row"):
                yield Label("Table name")
                # The host keeps this many characters of a table's name: typing stops there
                # rather than the host cutting it silently.
                yield Input((self.last.name if self.last and self.last.name
                             else f"{self.player_name}'s table")[:MAX_NAME], compact=True,
                            id="host-name", max_length=MAX_NAME)
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select(
                    self.player_choices(), value=self.last.players if self.last else
                    game.min_players + 1 if game.min_players < game.max_players
                    else game.min_players,
                    allow_blank=False, compact=True, id="host-players",
                )
            with Horizontal(classes="row"):
                yield Label("Bots")
                yield Select([(str(n), n) for n in range(game.max_players)], value=0,
                             allow_blank=False, compact=True, id="host-bots")
            with Horizontal(classes="row"):
                yield Label("Bot pace")
                yield Select([(words, pace) for pace, words in PACE_WORDS.items()],
                             value=self.last.bot_pace if self.last else DEFAULT_PACE,
                             allow_blank=False, compact=True, id="host-pace")
            with Horizontal(classes="row"):
                yield Label("Hints")
                yield Select([("off", False), ("on: anyone may ask", True)],
                             value=bool(self.last and self.last.hints), allow_blank=False,
                             compact=True, id="host-hints")
            yield Vertical(id="host-options")
            yield Static("", id="host-help")
            with Horizontal(id="host-buttons"):
                yield Button("Host", variant="primary", compact=True, id="host-go")
                yield Button("Cancel", compact=True, id="host-cancel")

    async def on_mount(self) -> None:
        await self.rebuild()

    def player_choices(self) -> list[tuple[str, int]]:
        game = self.game
        return [(str(n), n) for n in range(game.min_players, game.max_players + 1)]

    @property
    def players(self) -> int:
        value = self.query_one("#host-players", Select).value
        return value if isinstance(value, int) else self.game.min_players

    async def rebuild(self) -> None:
        """Offer the bots and options allowed at the chosen player count."""
        players = self.players
        bots = self.query_one("#host-bots", Select)
        # Bots fill the seats nobody is expected in; the people expected stay as many when
        # the seat count changes.
        bots.set_options([(f"{n} ({players - n} for people)", n) for n in range(players)])
        bots.value = max(players - self.people, 0)
        box = self.query_one("#host-options", Vertical)
        await box.remove_children()
        self.helps = dict(FIELD_HELP)
        last = self.last.options if self.last and self.last.game == self.game_id else {}
        for option in self.game.describe_options(players):
            value = last.get(option["name"], option["default"])
            select = Select(
                list(zip(option["choice_labels"], range(len(option["choices"])))),
                value=option["choices"].index(value if value in option["choices"]
                                              else option["default"]),
                allow_blank=False, compact=True, id=f"opt-{option['name']}",
            )
            await box.mount(Horizontal(Label(option["label"]), select, classes="row"))
            self.helps[select.id] = option["help"]
        self.show_help()

    def on_descendant_focus(self) -> None:
        self.show_help()

    def show_help(self) -> None:
        """One field's help at a time, the focused one's: all of them would push the buttons
        off an 80x24 terminal."""
        focused = self.focused
        field = focused.id if focused is not None else None
        if isinstance(focused, SelectOverlay):
            field = focused.parent.id if focused.parent else None
        self.query_one("#host-help", Static).update(self.helps.get(field, "") or "")

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "host-game" and event.value != self.game_id:
            await self.switch_game(str(event.value))
        elif event.select.id == "host-players":
            await self.rebuild()
        elif event.select.id == "host-bots" and isinstance(event.value, int):
            self.people = self.players - event.value

    @property
    def bots(self) -> int:
        value = self.query_one("#host-bots", Select).value
        return value if isinstance(value, int) else 0

    async def switch_game(self, game_id: str) -> None:
        """Another game: the seats and bots stay where the game allows them, and a change is
        said, never made quietly."""
        before = self.players, self.bots
        self.game_id = game_id
        game = self.game
        players = self.query_one("#host-players", Select)
        with self.prevent(Select.Changed):
            players.set_options(self.player_choices())
            players.value = min(max(before[0], game.min_players), game.max_players)
        await self.rebuild()
        changed = [f"{what} {old} → {new}" for what, old, new in
                   zip(("Players", "Bots"), before, (self.players, self.bots)) if old != new]
        if changed:
            self.notify(f"{game.title} is for {game.min_players}-{game.max_players} players: "
                        + ", ".join(changed) + ".", title="Seats changed")

    def request(self) -> TableRequest:
        players = self.players
        options = {}
        for option in self.game.describe_options(players):
            index = self.query_one(f"#opt-{option['name']}", Select).value
            options[option["name"]] = option["choices"][index if isinstance(index, int) else 0]
        name = " ".join(self.query_one("#host-name", Input).value.split()) or (
            f"{self.player_name}'s table"
        )
        pace = self.query_one("#host-pace", Select).value
        return TableRequest(self.game_id, players, options, name, self.bots,
                            pace if pace in PACE_WORDS else DEFAULT_PACE,
                            self.query_one("#host-hints", Select).value is True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(self.request() if event.button.id == "host-go" else None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(self.request())

    def action_cancel(self) -> None:
        self.dismiss(None)

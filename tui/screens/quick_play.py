"""The quick-play picker: a game, its player count, options and bots, then play at once.

The game list has the keyboard: arrows or a digit pick a game, Enter plays it as it was last
set up. Tab reaches the settings below it, which are that game's own, remembered per game.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from tui.quick_play import DEFAULT_PACE, PACE_WORDS, QuickPlay, fit, remembered


class GameList(OptionList):
    """The games: a tap or a click picks one, as ↑↓ and a digit do, and shows its settings;
    Enter or the Play button plays it. A tap that played at once left a phone no way to its
    settings."""

    async def _on_click(self, event: events.Click) -> None:
        event.prevent_default()  # OptionList's own click selects
        clicked = event.style.meta.get("option")
        if clicked is not None and not self.get_option_at_index(clicked).disabled:
            self.highlighted = clicked
            self.focus()


class QuickPlayScreen(ModalScreen[QuickPlay | None]):
    DEFAULT_CSS = """
    QuickPlayScreen { align: center middle; }
    QuickPlayScreen > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                                 border: thick $accent; background: $surface; padding: 0 1; }
    QuickPlayScreen #qp-games { height: auto; border: none; padding: 0; }
    QuickPlayScreen #qp-summary { color: $text-muted; height: auto; margin: 0 0 1 0; }
    QuickPlayScreen .row { height: 1; }
    QuickPlayScreen .row Label { width: 20; padding: 0 0 0 2; }
    QuickPlayScreen .row Select { width: 1fr; }
    /* The setting that has the keyboard: its whole row lit, its label marked and bold. */
    QuickPlayScreen .row:focus-within { background: $accent 35%; }
    QuickPlayScreen .row:focus-within Label { text-style: bold; color: $text; }
    QuickPlayScreen .row:focus-within Label.-mark { padding: 0; }
    /* An open list floats over the rows beside it: framed, on a background of its own. */
    /* (A compact list drops its border with !important: so must this.) */
    QuickPlayScreen .row Select > SelectOverlay { border: round $accent !important;
                                                  background: $panel; }
    QuickPlayScreen #qp-settings { height: auto; }
    QuickPlayScreen #qp-help { color: $text-muted; height: auto; margin: 1 0 0 0; }
    QuickPlayScreen #qp-buttons { height: 1; margin: 1 0 0 0; }
    QuickPlayScreen #qp-buttons Button { margin: 0 2 0 0; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("f1", "rules", "Rules", tooltip="The rules of the highlighted game"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def __init__(self) -> None:
        super().__init__()
        from engine.catalogue import CATALOGUE

        self.games = CATALOGUE
        self.game_id, self.choices = remembered()
        self.built: str | None = None
        """The game whose settings are on screen, with `built_players` players."""
        self.built_players = 0

    @property
    def info(self):
        return self.games[self.game_id]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Play against bots[/b] on this computer: ↑↓ or a digit picks a game,"
                         " Enter plays, Tab reaches the settings.")
            yield GameList(
                *(Option(f"{n}. {info.title}  [dim]{self.player_range(info)}[/dim]", id=gid)
                  for n, (gid, info) in enumerate(self.games.items(), 1)),
                id="qp-games",
            )
            yield Static("", id="qp-summary")
            yield Vertical(id="qp-settings")
            yield Static("", id="qp-help")
            with Horizontal(id="qp-buttons"):
                yield Button("Play", variant="primary", compact=True, id="qp-play")
                yield Button("Cancel", compact=True, id="qp-cancel")

    @staticmethod
    def player_range(info) -> str:
        if info.min_players == info.max_players:
            return f"{info.min_players} players"
        return f"{info.min_players}-{info.max_players} players"

    async def on_mount(self) -> None:
        games = self.query_one("#qp-games", OptionList)
        games.highlighted = list(self.games).index(self.game_id)
        games.focus()
        await self.show_settings()

    # -- the settings of the highlighted game -------------------------------------------------

    async def show_settings(self) -> None:
        """Offer the highlighted game's settings, as remembered, for its chosen player count."""
        choice = self.choices[self.game_id]
        if (self.built, self.built_players) == (self.game_id, choice.players):
            return
        self.built, self.built_players = self.game_id, choice.players
        info = self.info
        self.query_one("#qp-summary", Static).update(info.summary)
        box = self.query_one("#qp-settings", Vertical)
        await box.remove_children()
        rows = [self.row("Players", Select(
            [(str(n), n) for n in info.player_counts], value=choice.players,
            allow_blank=False, compact=True, id="qp-players"))]
        helps = []
        for option in info.describe_options(choice.players):
            value = choice.options.get(option["name"], option["default"])
            choices = option["choices"]
            rows.append(self.row(option["label"], Select(
                list(zip(option["choice_labels"], range(len(choices)))),
                value=choices.index(value) if value in choices else 0,
                allow_blank=False, compact=True, id=f"qp-opt-{option['name']}")))
            if option["help"]:
                helps.append(f"{option['label']}: {option['help']}")
        if len(info.bot_levels) > 1:
            rows.append(self.row("Bots", Select(
                [(level.name, level.bot) for level in info.bot_levels],
                value=choice.bot_level or info.default_bot,
                allow_blank=False, compact=True, id="qp-bots")))
        rows.append(self.row("Bot pace", Select(
            [(words, pace) for pace, words in PACE_WORDS.items()], value=choice.bot_pace,
            allow_blank=False, compact=True, id="qp-pace")))
        await box.mount_all(rows)
        self.query_one("#qp-help", Static).update("\n".join(helps[:2]))

    @staticmethod
    def row(label: str, select: Select) -> Horizontal:
        return Horizontal(Label(label), select, classes="row")

    def on_descendant_focus(self) -> None:
        """The focused setting's label starts with ▸: seen without colour too."""
        for row in self.query(".row"):
            label = row.query_one(Label)
            text = str(label.content).removeprefix("▸ ")
            focused = row.has_focus_within
            label.update(f"▸ {text}" if focused else text)
            label.set_class(focused, "-mark")

    def read_settings(self) -> QuickPlay:
        """The choice on screen for the highlighted game."""
        info = self.info
        players = self.query_one("#qp-players", Select).value
        players = players if isinstance(players, int) else self.choices[self.game_id].players
        options = {}
        # The option boxes on screen were made for the player count they were built with.
        for option in info.describe_options(self.built_players):
            found = self.query(f"#qp-opt-{option['name']}")
            index = found.first(Select).value if found else None
            choices = option["choices"]
            options[option["name"]] = (
                choices[index] if isinstance(index, int) and index < len(choices)
                else option["default"]
            )
        bots = self.query("#qp-bots")
        level = bots.first(Select).value if bots else info.default_bot
        pace = self.query_one("#qp-pace", Select).value
        return QuickPlay(self.game_id, players, fit(info, players, options), str(level),
                         pace if pace in PACE_WORDS else DEFAULT_PACE)

    async def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self.built != self.game_id:
            return
        self.choices[self.game_id] = self.read_settings()
        if event.select.id == "qp-players" and self.choices[self.game_id].players != self.built_players:
            # The options are built anew for the new count: the keyboard stays on the count.
            await self.show_settings()
            self.query_one("#qp-players", Select).focus()

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id and event.option.id != self.game_id:
            self.game_id = event.option.id
            await self.show_settings()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.play()

    # -- actions --------------------------------------------------------------------------------

    def action_pick(self, index: int) -> None:
        if index < len(self.games):
            games = self.query_one("#qp-games", OptionList)
            games.highlighted = index
            games.focus()

    def play(self) -> None:
        self.dismiss(self.read_settings())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "qp-play":
            self.play()
        else:
            self.dismiss(None)

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.game_id))

    def action_cancel(self) -> None:
        self.dismiss(None)

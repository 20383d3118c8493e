"""The Holmes table: the day track, the characters with their markers, the line, both play
areas, the investigation markers and a live score estimate from the visible cards.

Built from `tui.models.holmes`. When the game waits on you, Enter (or c) opens a dialog that
lists only the legal actions, in words.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.holmes.catalogue import CLUE_NAMES, COPIES, MAP
from tui.models.holmes import AreaModel, HolmesModel, build_model, clue_word
from tui.widgets.game_table import GameTable

PRIVATE_EVENTS = frozenset({"rumours_private", "hidden_gain", "start_offer"})
"""The events only this seat sees: its Langdale Pike draw, hidden clues, alternative start."""


def area_text(area: AreaModel, hide_secrets: bool) -> Text:
    text = Text()
    text.append(f"IM {area.im}", style="bold")
    text.append(f" · score now ~{area.estimate}\n")
    if not area.types and not area.free_wildcards:
        text.append("no visible clues\n", style="italic")
    for clue, count, wild in area.types:
        copies = f"/{COPIES[clue]}" if clue != MAP else ""
        text.append(f"{CLUE_NAMES[clue]:<12} {count}{copies}")
        if wild:
            text.append(" +W", style="bold")
        text.append("\n")
    if area.free_wildcards:
        text.append(f"free Wildcards {area.free_wildcards} (-3 each if unplaced)\n")
    if area.reserved:
        text.append(f"reserved: {clue_word(area.reserved)}\n")
    text.append(f"hidden clues: {area.hidden_count}")
    if area.hidden and not hide_secrets:
        text.append(" · " + ", ".join(clue_word(c) for c in area.hidden))
    return text


class CharacterList(OptionList):
    """The characters in play, one row each: Enter on one offers the moves to it."""

    DEFAULT_CSS = """
    CharacterList { width: 1fr; height: auto; border: round $secondary;
                    border-title-align: left; padding: 0; }
    CharacterList:focus { border: round $accent; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: tuple[tuple[str, Text], ...] = ()

    def set_rows(self, rows: Sequence[tuple[str, Text]]) -> None:
        rows = tuple(rows)
        if rows == self.rows:
            return
        highlighted = self.highlighted
        self.rows = rows
        self.clear_options()
        self.add_options([Option(text, id=character) for character, text in rows])
        if rows:
            self.highlighted = min(highlighted or 0, len(rows) - 1)


class HolmesTable(GameTable):
    DEFAULT_CSS = """
    HolmesTable { height: 1fr; }
    HolmesTable #ho-track { height: auto; border: round $secondary; border-title-align: left;
                            padding: 0 1; }
    HolmesTable #ho-middle { height: auto; }
    HolmesTable #ho-line { width: 21; height: auto; border: round $secondary;
                           border-title-align: left; padding: 0 1; }
    HolmesTable #ho-areas { height: auto; }
    HolmesTable .ho-area { width: 1fr; height: auto; border: round $secondary;
                           border-title-align: left; padding: 0 1; }
    HolmesTable .ho-area.-you { border: round $primary; }
    HolmesTable #ho-prompt { height: auto; padding: 0 1; }
    HolmesTable #ho-prompt.-your-turn { background: $warning 20%; text-style: bold; }
    """

    BINDINGS = [
        Binding("c", "choose", "Choose"),
        Binding("h", "hide", "Hide clues"),
        Binding("h", "unhide", "Show clues"),
    ]

    secret_hidden: reactive[bool] = reactive(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model: HolmesModel | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("", id="ho-track")
            yield Static("", id="ho-prompt")
            with Horizontal(id="ho-middle"):
                yield CharacterList(id="ho-characters")
                yield Static("", id="ho-line")
            with Horizontal(id="ho-areas"):
                yield Static("", id="ho-area-0", classes="ho-area")
                yield Static("", id="ho-area-1", classes="ho-area")

    def on_mount(self) -> None:
        self.query_one("#ho-line").border_title = "The line"

    # -- rendering --------------------------------------------------------------------------

    def show(self, view, legal, seat, seats) -> None:
        self.model = build_model(view, legal, seat, seats)
        self.refresh_all()

    def refresh_all(self) -> None:
        model = self.model
        if model is None:
            return
        self.refresh_track(model)
        self.refresh_characters(model)
        self.refresh_line(model)
        self.refresh_areas(model)
        self.refresh_prompt(model)

    def refresh_track(self, model: HolmesModel) -> None:
        track = self.query_one("#ho-track", Static)
        track.border_title = f"Day {model.day} of {model.days}"
        text = Text()
        for day, names in model.day_track:
            style = "bold reverse" if day == model.day else ("" if day < model.day else "dim")
            text.append(f"{day}", style=style)
            text.append(" " + (", ".join(names) if names else "·") + "  ")
        if model.villains:
            text.append(" · villains: " + ", ".join(model.villains), style="bold")
        track.update(text)

    def refresh_characters(self, model: HolmesModel) -> None:
        wide = self.size.width >= 66
        rows = []
        for row in model.characters:
            text = Text()
            text.append(f"{(row.name if wide else row.short)[:18]:<{18 if wide else 10}}",
                        style="strike" if row.spent else "")
            text.append(f" {row.markers[0]:<3}{row.markers[1]:<3}")
            if row.spent:
                text.append(" spent", style="bold")
            elif wide:
                text.append(f" {row.skill}", style="italic")
            rows.append((row.id, text))
        characters = self.query_one(CharacterList)
        characters.set_rows(rows)
        letters = " · ".join(f"{a.side[:1]} {a.name}" for a in model.areas)
        characters.border_title = "Characters"
        characters.border_subtitle = f"▲ standing ▬ lying · {letters}"

    def refresh_line(self, model: HolmesModel) -> None:
        text = Text()
        for slot, card in enumerate(model.line, start=1):
            text.append(f"{slot} {clue_word(card)}\n")
        text.append(f"deck {model.deck_count}\ndiscard {model.discard_count}\n")
        text.append(f"IM reserve {model.reserve}\n")
        text.append(f"characters left {model.character_deck_count}")
        if model.reserve_card:
            text.append(f"\nreserve card: {model.reserve_card}")
        self.query_one("#ho-line", Static).update(text)

    def refresh_areas(self, model: HolmesModel) -> None:
        for area in model.areas:
            box = self.query_one(f"#ho-area-{area.seat}", Static)
            you = " (you)" if area.you else ""
            box.border_title = f"{area.name}{you} · {area.side}"
            box.set_class(area.you, "-you")
            box.update(area_text(area, self.secret_hidden and area.you))

    def refresh_prompt(self, model: HolmesModel) -> None:
        prompt = self.query_one("#ho-prompt", Static)
        prompt.set_class(model.your_turn, "-your-turn")
        if model.over:
            prompt.update(model.outcome_text)
        elif model.your_turn:
            prompt.update(f"Your turn: {model.prompt} · c or Enter to choose")
        elif model.spectator:
            prompt.update(f"Waiting for {model.waiting_for}: {model.prompt}")
        else:
            prompt.update(f"Waiting for {model.waiting_for or 'the table'}: {model.prompt}")

    def watch_secret_hidden(self) -> None:
        if self.model is not None:
            self.refresh_areas(self.model)
        self.post_message(self.SecretsToggled())

    def binding_state(self) -> tuple:
        model = self.model
        if model is None:
            return ()
        return (model.your_turn, model.spectator, self.secret_hidden)

    def private_events(self) -> frozenset[str]:
        return PRIVATE_EVENTS if self.secret_hidden else frozenset()

    def status_line(self) -> str:
        model = self.model
        if model is None:
            return ""
        turn = "game over" if model.over else ("your turn" if model.your_turn
                                                else f"waiting for {model.waiting_for}")
        return f"{model.status_line()} · {turn}"

    # -- acting -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        model = self.model
        if action == "choose":
            return bool(model and model.your_turn)
        if action == "hide":
            return bool(model and not model.spectator and not self.secret_hidden)
        if action == "unhide":
            return bool(model and not model.spectator and self.secret_hidden)
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a character: the moves to it, or else every choice there is now."""
        event.stop()
        model = self.model
        if model is None or not model.choices:
            self.app.bell()
            return
        target = event.option.id
        moves = [c for c in model.choices
                 if c.action.get("to", c.action.get("character")) == target
                 and c.action["type"] in ("move", "place")]
        self.action_choose(moves or None)

    def action_choose(self, only: Sequence | None = None) -> None:
        from tui.screens.holmes_choice import HolmesChoiceScreen

        model = self.model
        if model is None or not model.choices:
            return

        def chosen(action: dict | None) -> None:
            if action is not None:
                self.post_message(self.ActionChosen(action))

        self.app.push_screen(HolmesChoiceScreen(model.prompt, only or model.choices), chosen)

    def on_resize(self) -> None:
        self.refresh_all()

    def action_hide(self) -> None:
        self.secret_hidden = True

    def action_unhide(self) -> None:
        self.secret_hidden = False

    # -- the end ----------------------------------------------------------------------------

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        model = build_model(view, [], seat, seats)
        text = Text(model.outcome_text + "\n", style="bold")
        for area, score in zip(model.areas, view.get("scores") or []):
            text.append(f"\n{area.name} ({area.side}): {score['total']} points, IM {area.im}\n")
            for clue, points in score["majorities"].items():
                text.append(f"  {CLUE_NAMES[clue]} majority +{points}\n")
            for clue in score["complete_sets"]:
                text.append(f"  all {CLUE_NAMES[clue]}s +3\n")
            if score["maps"]:
                text.append(f"  Map Fragments {score['maps']:+d}\n")
            if score["penalties"]:
                text.append(f"  penalties -{score['penalties']}\n")
        return Static(text)

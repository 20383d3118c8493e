"""The Holmes board: the day track, the characters with their markers, the line, both play
areas, the investigation markers and a live score estimate from the visible cards.

Built from `tui.games.holmes.model`. When the game waits on you, Enter (or Ctrl+K) opens a dialog
that lists only the legal actions, in words.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.markup import escape
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static
from textual.widgets.option_list import Option

from engine.holmes.catalogue import (
    CLUE_NAMES,
    COPIES,
    MAP,
    UNASSIGNED_PENALTY,
    UNCLAIMED_RESERVED_PENALTY,
)
from tui.games.holmes.model import (AreaModel, HolmesModel, build_model, clue_word,
                                    only_choice_why)
from tui.games.terms import goal
from tui.widgets.changed import retitle, update_changed
from tui.widgets.choice_panel import Choice, ChoicePanel
from tui.widgets.option_rows import show_options
from tui.widgets.game_board import GameBoard
from tui.widgets.pick_list import PickList


def area_text(area: AreaModel, hide_secrets: bool, compact: bool = False,
              goal: str = "") -> Text:
    """An area's clues; `compact` spends fewer rows on the hidden clues, for a short screen.
    `goal`, on the viewer's own area: how they win."""
    text = Text()
    text.append(f"IM {area.im}", style="bold")
    text.append(f" · ~{area.estimate} points\n")
    if goal:
        text.append(goal + "\n", style="italic")
    if not area.types and not area.free_wildcards:
        text.append("no visible clues\n", style="italic")
    for clue, count, wild in area.types:
        copies = f"/{COPIES[clue]}" if clue != MAP else ""
        text.append(f"{CLUE_NAMES[clue]:<12} {count}{copies}")
        if wild:
            text.append(" +W", style="bold")
        text.append("\n")
    if area.free_wildcards:
        text.append(f"free Wildcards {area.free_wildcards} (-{UNASSIGNED_PENALTY})\n")
    if area.reserved:
        text.append(f"reserved: {clue_word(area.reserved)}\n")
    hidden = ", ".join(clue_word(c) for c in area.hidden or ())
    if area.revealed:  # the end: the hidden clues are face up now, and counted
        text.append(f"were hidden: {hidden or 'none'}")
    elif not area.hidden_count:
        text.append("no hidden clues")
    else:
        text.append(f"hidden {area.hidden_count}" if compact
                    else f"hidden clues: {area.hidden_count}")
        if hidden and not hide_secrets:
            text.append((": " if compact else " · ") + hidden)
    return text


class CharacterList(PickList):
    """The characters in play, one row each: Enter on one offers the moves to it."""

    DEFAULT_CSS = """
    CharacterList { width: 1fr; height: auto; border: round $secondary;
                    border-title-align: left; padding: 0; }
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
        show_options(self, [Option(text, id=character) for character, text in rows])
        if rows:
            self.highlighted = min(highlighted or 0, len(rows) - 1)
        self.rows_changed()


class HolmesBoard(GameBoard):
    """Top to bottom, most urgent first: the day, what the game waits for, the characters
    beside your own play area, the line beside your opponent's. On a short screen both play
    areas come first, side by side, and the characters and the line share the rows left."""

    DEFAULT_CSS = """
    HolmesBoard #ho-track { height: auto; padding: 0 1; }
    HolmesBoard #ho-prompt { height: auto; padding: 0 1; }
    HolmesBoard #ho-prompt.-your-turn { background: $warning 20%; text-style: bold; }
    HolmesBoard .ho-row { height: auto; }
    HolmesBoard CharacterList { width: 24; }
    HolmesBoard #ho-line { width: 24; }
    HolmesBoard .ho-area { width: 1fr; padding: 0 0 0 1; border-subtitle-align: right; }
    HolmesBoard.-wide CharacterList { width: 34; }
    HolmesBoard .ho-rest { height: 1fr; }
    HolmesBoard .ho-rest CharacterList, HolmesBoard .ho-rest #ho-line { width: 1fr; height: 1fr; }
    """

    BINDINGS = [Binding("ctrl+k", "choose", "Choose")]

    SHORT = 30
    """Below this many rows both play areas come first and the characters list scrolls in
    the rows left, so that whose turn, what you hold and your opponent's area all show."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model: HolmesModel | None = None
        self.composed_short = False
        """The board was laid out for a short screen: a resize across `SHORT` lays it out anew."""

    @property
    def short(self) -> bool:
        return 0 < self.app.size.height < self.SHORT

    def compose(self) -> ComposeResult:
        self.composed_short = self.short
        areas = (Static("", id="ho-area-a", classes="panel ho-area"),
                 Static("", id="ho-area-b", classes="panel ho-area"))
        with VerticalScroll():
            yield Static("", id="ho-track")
            yield Static("", id="ho-prompt")
            if self.composed_short:
                with Horizontal(classes="ho-row"):
                    yield from areas
                with Horizontal(classes="ho-row ho-rest"):
                    yield CharacterList(id="ho-characters", taken=self.character_taken)
                    yield Static("", id="ho-line", classes="panel")
                return
            with Horizontal(classes="ho-row"):
                yield CharacterList(id="ho-characters", taken=self.character_taken)
                yield areas[0]
            with Horizontal(classes="ho-row"):
                yield Static("", id="ho-line", classes="panel")
                yield areas[1]

    def on_mount(self) -> None:
        self.title_line()

    def title_line(self) -> None:
        self.query_one("#ho-line").border_title = "The line"

    # -- rendering --------------------------------------------------------------------------

    def redraw(self) -> None:
        self.model = build_model(self.view, self.legal, self.seat, self.seats)
        self.refresh_all()

    def refresh_all(self) -> None:
        model = self.model
        if model is None:
            return
        self.set_class(self.size.width >= 70, "-wide")
        self.refresh_track(model)
        self.refresh_characters(model)
        self.refresh_line(model)
        self.refresh_areas(model)
        self.refresh_prompt(model)

    def refresh_track(self, model: HolmesModel) -> None:
        # Only the days so far: later arrivals are unknown. A narrow board leaves the arrivals
        # to the characters list (the status bar has the day), keeping the rows for the areas.
        track = self.query_one("#ho-track", Static)
        wide = self.has_class("-wide")
        track.display = wide or bool(model.villains)
        text = Text(f"Day {model.day} of {model.days}", style="bold")
        arrived = [(day, names) for day, names in model.day_track if names and day <= model.day]
        if arrived and wide:
            text.append(" · arrived: " + "; ".join(f"{', '.join(names)} ({day})"
                                                   for day, names in arrived))
        if model.villains:
            text.append(" · villains: " + ", ".join(model.villains), style="bold")
        update_changed(track, text)

    def refresh_characters(self, model: HolmesModel) -> None:
        wide = self.has_class("-wide")
        rows = []
        for row in model.characters:
            text = Text()
            text.append(f"{(row.name if wide else row.short)[:18]:<{19 if wide else 9}}",
                        style="strike" if row.spent else "")
            text.append(f"{row.markers[0]:<3}{row.markers[1]:<3}")
            if row.spent:  # narrow: the markers' trailing space is the gap, so it fits a row
                text.append(" spent" if wide else "spent", style="bold")
            rows.append((row.id, text))
        characters = self.query_one(CharacterList)
        characters.set_rows(rows)
        retitle(characters, "Characters", subtitle="▲ standing ▬ lying")

    def refresh_line(self, model: HolmesModel) -> None:
        text = Text()
        for slot, card in enumerate(model.line, start=1):
            text.append(f"{slot} {clue_word(card)}\n")
        text.append(f"deck {model.deck_count} · discard {model.discard_count}\n")
        text.append(f"IM reserve {model.reserve}\n")
        text.append(f"characters left {model.character_deck_count}")
        if model.reserve_card:
            text.append(f"\nreserve card: {model.reserve_card}")
        # On a short screen the line fills the rows left: its text never changes its size.
        update_changed(self.query_one("#ho-line", Static), text, layout=not self.composed_short)

    def refresh_areas(self, model: HolmesModel) -> None:
        # Your own area first, where the eye starts (beside the characters, or on a short
        # screen beside your opponent's); a spectator's in seat order.
        first = next((a for a in model.areas if a.you), model.areas[0])
        second = next(a for a in model.areas if a is not first)
        for box_id, area in (("#ho-area-a", first), ("#ho-area-b", second)):
            box = self.query_one(box_id, Static)
            retitle(box, escape(area.name) + (" (you)" if area.you else ""), subtitle=area.side)
            box.set_class(area.you, "-you")
            update_changed(box, area_text(area, self.secret_hidden and area.you,
                                          compact=self.composed_short,
                                          goal=goal(self.view["game"], self.view)
                                          if area.you else ""))

    def refresh_prompt(self, model: HolmesModel) -> None:
        prompt = self.query_one("#ho-prompt", Static)
        prompt.set_class(self.your_turn, "-your-turn")
        if model.over:
            text = Text(model.outcome_text)
        elif self.your_turn:  # the keys only when there is a choice: not in a replay
            text = Text(f"Your turn: {model.prompt}"
                        + (f" · {self.key_named('Enter or Ctrl+K', 'choose')} to choose"
                           if model.choices else ""))
        else:
            text = Text(f"Waiting for {model.waiting_for or 'the table'}: {model.prompt}")
        update_changed(prompt, text)

    # -- acting -----------------------------------------------------------------------------

    def binding_state(self) -> tuple:
        return super().binding_state() + (bool(self.model and self.model.choices),)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return bool(self.model and self.model.choices)
        return super().check_action(action, parameters)

    def character_taken(self, index: int) -> None:
        """Enter on a character: the moves to it, or else every choice there is now."""
        model = self.model
        if model is None or not model.choices:
            self.notify(self.refusal(None), severity="warning", timeout=3)
            return
        characters = self.query_one(CharacterList)
        target = characters.get_option_at_index(index).id
        moves = [c for c in model.choices
                 if c.action.get("to", c.action.get("character")) == target
                 and c.action["type"] in ("move", "place")]
        self.action_choose(moves or None, target)

    def action_choose(self, only: Sequence | None = None, picked: str = "") -> None:
        """The dialog of the legal choices, or `only` those of the character `picked`; one
        choice says why it is the only one."""
        model = self.model
        if model is None or not model.choices:
            return
        question = model.prompt[:1].upper() + model.prompt[1:] + "."
        offered = only or model.choices
        if len(offered) == 1:
            question += " " + only_choice_why(offered[0].action, self.view,
                                              picked if only else "")
        choices = [Choice(c.label, c.action) for c in offered]
        self.open_dialog(ChoicePanel("Your choice", choices, question=question, esc="Later"),
                         self.send, [choice.answer for choice in choices])

    async def on_resize(self) -> None:
        if self.short != self.composed_short:
            await self.recompose()
            self.title_line()
        self.refresh_all()

    # -- the end ----------------------------------------------------------------------------

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        model = build_model(view, [], seat, seats)
        text = Text(model.outcome_text + "\n", style="bold")
        for area, score in zip(model.areas, view.get("scores") or []):
            total = score["total"]
            text.append(f"\n{area.name} ({area.side}): {total} point{'' if total == 1 else 's'}, "
                        f"IM {area.im}\n")
            for clue, points in score["majorities"].items():
                text.append(f"  {CLUE_NAMES[clue]} majority +{points}\n")
            for clue in score["complete_sets"]:
                text.append(f"  every {CLUE_NAMES[clue]} +3\n")
            if score["maps"]:
                text.append(f"  Map Fragments {score['maps']:+d}\n")
            for line in penalty_lines(area, score["penalties"]):
                text.append(f"  {line}\n")
        return Static(text)


def penalty_lines(area: AreaModel, penalties: int) -> list[str]:
    """Each penalty and what it is for, from what the end view shows of the area."""
    lines = []
    if area.free_wildcards:
        n = area.free_wildcards
        lines.append(f"-{UNASSIGNED_PENALTY * n} for {n} Wildcard{'s' * (n > 1)} never put "
                     "on a clue")
    if area.reserved:
        lines.append(f"-{UNCLAIMED_RESERVED_PENALTY} for the reserved "
                     f"{clue_word(area.reserved)} never taken")
    accounted = UNASSIGNED_PENALTY * area.free_wildcards + (
        UNCLAIMED_RESERVED_PENALTY if area.reserved else 0)
    if accounted != penalties and penalties:  # the view left something out: say the sum
        lines = [f"-{penalties} in penalties"]
    return lines

"""The Time Bomb Évolution board: Time Bomb's board plus the bombs board and the Variante's
decisions.

It is a small subclass of `TimeBombBoard`, as the engine's Évolution is of Time Bomb: the
players, the cut and the claim work the same; the board shows each colour's count against its
threshold, the Defusing wires (on a colour, set apart or moved apart), the last reveal, the
Number cards drawn, a forced target and round 4's length; a decision the game waits for from
this player opens a dialog offering exactly the legal choices.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from tui.games.timebomb_evolution.model import (
    COLOUR_POWERS,
    COLOUR_STYLES,
    QUESTIONS,
    ColourRow,
    TimeBombEvolutionModel,
    build_model,
    colour_name,
    cut_outcomes,
    describe_claim,
    describe_decision,
    ending_rule,
    only_decision_why,
)
from tui.games.timebomb.board import TimeBombBoard
from tui.widgets.choice_panel import Choice, ChoicePanel
from tui.widgets.changed import retitle, update_changed
from tui.games.timebomb.model import build_ending

WAITING = {
    "defuse": "a colour to defuse",
    "move_apart": "a wire to move apart",
    "draw_number": "a Number card",
}


def hand_text(hand: dict[str, int]) -> Text:
    """`1 ◆ Defusing · 2 Red`, each colour in its colour and by its name."""
    text = Text()
    for kind, count in ((k, c) for k, c in hand.items() if c):
        text.append(" · " if text.plain else "")
        text.append(f"{count} ")
        text.append_text(kind_text(kind))
    return text or Text("no wires")


def kind_text(kind: str) -> Text:
    if kind == "defusing":
        return Text("◆ Defusing", style="bold")
    return Text(colour_name(kind), style=COLOUR_STYLES.get(kind, ""))


def colour_cell(row: ColourRow) -> Text:
    """`Red    2/4 ⚠ `: a colour, its count against its threshold, and its state."""
    cell = Text(f"{colour_name(row.colour):<6}", style=COLOUR_STYLES.get(row.colour, ""))
    cell.append(f" {row.revealed}/{row.threshold}")
    if row.wire is not None:
        cell.append(f" ◆{row.wire}", style="bold")
    elif row.gone_off:
        cell.append(" ✹ ", style="bold")
    elif row.one_from_exploding:
        cell.append(" ⚠ ", style="bold red1")
    else:
        cell.append("   ")
    return cell


def wires_apart_text(model: TimeBombEvolutionModel) -> str:
    """` · apart ◆1 · moved ◆3`: the Defusing wires on no colour (EV-16, EV-17)."""
    text = ""
    if model.set_apart:
        text += " · apart " + " ".join(f"◆{n}" for n in model.set_apart)
    if model.moved_apart:
        text += " · moved " + " ".join(f"◆{n}" for n in model.moved_apart)
    return text


def power_text(colour: str, model: TimeBombEvolutionModel, names: dict[int, str]) -> str:
    """What `colour` does in the Variante, or what it has done: the target a Red's draw named,
    round 4's length as Oranges left it (a maximum before round 4: more can only shorten it)."""
    if colour == "red" and model.designated is not None:
        draw = model.draws[-1] if model.draws else None
        drew = f" ({draw.number})" if draw else ""
        return f"next cut: {names.get(model.designated, '?')}'s wire{drew}"
    if colour == "orange":
        bound = "" if model.round4_final else "≤"
        return f"round 4: {bound}{model.round4_length} cuts"
    return COLOUR_POWERS[colour]


class TimeBombEvolutionBoard(TimeBombBoard):
    BINDINGS = [Binding("ctrl+d", "decide", "Decide")]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.model: TimeBombEvolutionModel | None = None
        self.deciding = False

    def variant_panels(self) -> ComposeResult:
        yield Static("", id="ev-board", classes="panel")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#ev-board").border_title = "Bombs"

    # -- rendering --------------------------------------------------------------------------

    model_of = staticmethod(build_model)

    def redraw(self) -> None:
        super().redraw()
        if self.model.decisions and not self.deciding:
            self.call_after_refresh(self.action_decide)

    def everything_text(self) -> Text:
        text = super().everything_text()
        removed = (self.view or {}).get("removed")
        if removed:  # EV-24: hidden from every seat until the end
            text.append("\nRemoved from the game: ")
            text.append_text(hand_text(removed))
        return text

    def wires_text(self, hand: dict[str, int]) -> Text:
        return hand_text({k: hand.get(k, 0) for k in self.model.kinds})

    def row_text(self, row, width: int, wide: bool) -> Text:
        text = super().row_text(row, width, wide)
        model = self.model
        # Short marks: the board below says in full who is designated and who is choosing.
        if model is not None and row.seat == model.designated:
            text.append(" ⇦", style="bold reverse")
        if model is not None and row.seat == model.pending_seat:
            text.append(" …", style="bold")
        return text

    def refresh_variant(self) -> None:
        model = self.model
        if model is None:
            return
        board = self.query_one("#ev-board", Static)
        board.set_class(self.your_choice, "-your-turn")
        title = "Bombs"
        if model.variante:  # its lines are the colours': the wires apart go in the title
            title += " · Variante" + wires_apart_text(model)
        retitle(board, title)
        update_changed(board, self.board_text(model, board.content_size.width or 44))

    def on_resize(self) -> None:
        super().on_resize()
        self.refresh_variant()

    def board_text(self, model: TimeBombEvolutionModel, width: int) -> Text:
        names = {row.seat: row.name for row in model.players}
        if model.variante:
            # Each colour has a power: a line each saying it, and the colour cut last stands
            # out, having just done it.
            text = Text()
            for row in model.colours:
                last = row.colour == model.last_reveal
                text.append("\n" if text else "")
                text.append_text(colour_cell(row))
                text.append(f" {power_text(row.colour, model, names)}",
                            style="bold" if last else "dim")
                text.append(" ◂" if last else "", style="bold")
        else:
            # Colours only count to their threshold, several to a line.
            text = Text(f"◆ Defusing {model.defusing_found}/{model.defusing_total}",
                        style="bold")
            per_line = max(1, (width + 2) // 15)
            for i, row in enumerate(model.colours):
                text.append("\n" if i % per_line == 0 else "  ")
                text.append_text(colour_cell(row))
        if model.pending_kind and model.pending_seat is not None:
            if self.your_choice:  # Ctrl+D only when it decides: not in a replay
                text.append(f"\n… Your choice: {WAITING[model.pending_kind]}"
                            + (f" · press {self.key_named('Ctrl+D', 'decide')}" if model.decisions
                               else ""), style="bold")
            else:
                who = names.get(model.pending_seat, "?")
                text.append(f"\n… {who} is choosing: {WAITING[model.pending_kind]}",
                            style="italic")
        return text

    def refresh_revealed(self) -> None:
        model = self.model
        if model is None:
            return
        names = {p.seat: p.name for p in model.players}
        text = Text()
        for i, wire in enumerate(self.this_round(model)):
            text.append("\n" if i else "")
            text.append(
                f"R{wire['round']}·{wire['cut']:<2} {names.get(wire['cutter'], '?')} ✂ "
                f"{names.get(wire['target'], '?')}: "
            )
            text.append_text(kind_text(wire["wire"]))
        if not text and not model.over:
            text.append("No wire cut this round." if model.history else "No wire cut yet.")
        self.append_history(text, model)
        # The panel fills the rows left (1fr, as Time Bomb's): its text never changes its size.
        update_changed(self.query_one("#tb-revealed", Static), text, layout=False)

    def binding_state(self) -> tuple:
        model = self.model
        return super().binding_state() + ((bool(model.decisions),) if model else ())

    @property
    def your_choice(self) -> bool:
        """Your turn, and the table waits on a decision of yours (EV-16, EV-17, EV-19)."""
        return self.your_turn and self.decision_pending

    @property
    def your_cut(self) -> bool:
        return self.your_turn and not self.decision_pending

    @property
    def decision_pending(self) -> bool:
        """The table waits on a decision, not on a cut."""
        return self.model is not None and self.model.pending_kind is not None

    def refusal(self, seat: int | None) -> str:
        model = self.model
        if self.your_choice and model is not None and model.decisions:
            # A row picked while the table waits on this seat's choice: say what it waits on.
            return (f"Your choice first: {WAITING[model.pending_kind]}. "
                    f"Press {self.key_named('Ctrl+D', 'decide')}.")
        return super().refusal(seat)

    def turn_text(self) -> str:
        model = self.model
        if model is not None and model.pending_kind and not model.over:
            if self.your_choice:
                return "your choice"
            return f"{self.name_of(model.pending_seat)} chooses"
        return super().turn_text()

    # -- acting -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "decide":
            return bool(self.model and self.model.decisions)
        return super().check_action(action, parameters)

    def action_decide(self) -> None:
        model = self.model
        if model is None or not model.decisions or self.deciding:
            return
        self.deciding = True

        def chosen(action: dict | None) -> None:
            self.deciding = False
            self.send(action)

        choices = [Choice(describe_decision(c, model), c) for c in model.decisions]
        title = QUESTIONS[model.decisions[0]["type"]]
        self.open_dialog(ChoicePanel(title, choices, question=only_decision_why(model.decisions),
                                     esc="Later", decision=True), chosen,
                         list(model.decisions))

    def claim_words(self, claim: dict) -> str:
        return describe_claim(claim)

    def cut_question(self, model: TimeBombEvolutionModel) -> str:
        return cut_outcomes(model)

    # -- the end ----------------------------------------------------------------------------

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        from tui.games.timebomb_evolution.ending import TimeBombEvolutionEnding

        ending = build_ending(view, seat, seats)
        hands = view.get("hands") or []
        rows = tuple(
            replace(row, remaining=hand_text(hands[row.seat]) if row.seat < len(hands) else "")
            for row in ending.rows
        )
        last_cut = ending.last_cut
        revealed = view.get("revealed") or []
        if revealed:
            names = {row.seat: row.name for row in ending.rows}
            last = revealed[-1]
            last_cut = (f"Last cut: {names.get(last['cutter'], '?')} ✂ "
                        f"{names.get(last['target'], '?')}: {kind_text(last['wire']).plain}")
        rule = ending_rule((view.get("outcome") or {}).get("reason"), bool(view.get("variante")))
        return TimeBombEvolutionEnding(
            replace(ending, rows=rows, last_cut=last_cut, rule=rule), view.get("removed") or {}
        )

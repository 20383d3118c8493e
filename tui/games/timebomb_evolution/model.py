"""What the Time Bomb Évolution board shows, on top of Time Bomb's model.

Everything the Variante makes public is here: each colour's cards out and the count that makes
it explode, which Defusing wire lies on which colour, the wires set or moved apart, the last
card revealed (for Pink), every Number card drawn and whom it designates, round 4's length,
and the decision the game waits for. Colours always carry their name, never colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping, Sequence

from engine.timebomb.cards import claim_words
from engine.timebomb.cards import colour_name
from tui.games.timebomb.model import TimeBombModel, build_model as build_timebomb_model
from tui.models.seats import SeatInfo

COLOUR_STYLES = {
    "yellow": "bold yellow",
    "blue": "bold dodger_blue1",
    "red": "bold red1",
    "pink": "bold hot_pink",
    "green": "bold green3",
    "orange": "bold dark_orange",
}
COLOUR_POWERS = {
    "yellow": "never takes a Defusing wire",
    "blue": "moves a Defusing wire apart",
    "red": "draws a Number: next target",
    "pink": "two Pinks in a row explode",
    "green": "explodes at 3",
    "orange": "each one shortens round 4",
}
"""What a colour does in the Variante when it is cut (RULES.md, EV-16 to EV-21), in a line."""

ENDING_RULES = {
    "defused": "EV-13: the last Defusing wire cut wins for Sherlock's team.",
    "pink": "EV-18: a Pink explodes when the cut just before it was a Pink too.",
    "orange": "EV-21: each Orange cut takes a cut from round 4, and none was left.",
    "time": "EV-15: round 4 ended without a winner.",
}
"""The rule that ended a game, by the outcome's reason; a colour's explosion depends on the
Variante (`ending_rule`)."""


def ending_rule(reason: str | None, variante: bool) -> str:
    """The rule that ended the game, numbered, for the end screen."""
    if reason == "bomb":
        if variante:
            return ("EV-14: a colour explodes at its threshold (4, Green 3), unless a Defusing "
                    "wire lies on it.")
        return "EV-14: the fourth bomb of a colour to be cut explodes."
    return ENDING_RULES.get(reason or "", "")


DECISIONS = ("defuse", "move_apart", "draw_number")
QUESTIONS = {
    "defuse": "Your Defusing wire defuses a colour. Which one?",
    "move_apart": "The Blue bomb moves a Defusing wire apart. Which one?",
    "draw_number": "Your Red bomb: draw a Number card",
}
"""What each decision asks its player, over the choices the engine offers."""
ONLY_ONE = {
    "defuse": "It is the only colour that can take it now (EV-16).",
    "move_apart": "It is the only Defusing wire lying on a colour (EV-17).",
    "draw_number": "Only the card decides (EV-19).",
}
"""Why a decision offers a single choice: the rules leave only that one."""


def only_decision_why(decisions: Sequence[Mapping[str, Any]]) -> str:
    """Why the pending decision offers a single choice, when it does."""
    return ONLY_ONE[decisions[0]["type"]] if len(decisions) == 1 else ""


def wire_letter(kind: str) -> str:
    """One character per revealed wire in the players' rows: ◆, or the colour's initial."""
    return "◆" if kind == "defusing" else kind[:1].upper()


def claim_text(claim: Mapping[str, Any] | None, short: bool = False) -> str:
    """`1◆ +Red`: the claimed Defusing count and the colour named, if any; `short`, for a
    narrow row, names the colour by its initial as the revealed column does (`1◆ +R`)."""
    if claim is None:
        return "—"
    colour = claim.get("colour") or ""
    named = wire_letter(colour) if short else colour_name(colour)
    return f"{claim.get('defusing', 0)}◆" + (f" +{named}" if colour else "")


def truthful_claim(hand: Mapping[str, int]) -> dict[str, Any]:
    """The claim that says what `hand` holds: its Defusing wires, and the colour it holds
    most of (the first in the box's order on a tie), if any."""
    colours = [(count, kind) for kind, count in hand.items() if kind != "defusing" and count]
    most = max(colours, key=lambda c: c[0])[1] if colours else ""
    return {"type": "claim", "defusing": hand.get("defusing", 0), "colour": most}


def describe_claim(action: Mapping[str, Any]) -> str:
    return claim_words(action.get("defusing", 0), colour=action.get("colour"))


VARIANTE_CUTS = {
    "blue": "moves a ◆ apart",
    "red": "draws a Number card: the next target",
    "pink": "a Pink next explodes",
    "orange": "shortens round 4",
}
"""What a colour's cut does in the Variante when it does not explode (EV-17 to EV-21); Yellow
and Green do nothing more than count."""


def cut_outcomes(model: "TimeBombEvolutionModel") -> str:
    """What the wire about to be cut may be, and what each would do now: the Defusing wire,
    every colour that would explode, and in the Variante each power; the rest only count."""
    defusing = f"◆: {model.defusing_found + 1} of {model.defusing_total} found"
    if model.variante:
        defusing += ", laid on a colour by you"
    parts = [defusing]
    quiet = []
    for row in model.colours:
        name = colour_name(row.colour)
        pink_pair = model.variante and row.colour == "pink" and model.last_reveal == "pink"
        if row.wire is None and row.revealed + 1 >= row.threshold or pink_pair:
            parts.append(f"{name} ⚠ explodes")
        elif model.variante and row.colour in VARIANTE_CUTS and not (
                row.colour == "blue" and not any(r.wire for r in model.colours)):
            parts.append(f"{name} {VARIANTE_CUTS[row.colour]}")
        else:
            quiet.append(name)
    if quiet:
        parts.append(f"{', '.join(quiet)}: nothing yet")
    return " · ".join(parts) + ". They take the ✂ next."


def describe_decision(action: Mapping[str, Any], model: "TimeBombEvolutionModel") -> str:
    """The words of one choice the player may make."""
    kind = action["type"]
    if kind == "draw_number":
        return (f"Draw a Number card (0 to {model.number_cards - 1}): it names whose wire is "
                "cut next")
    row = next((c for c in model.colours if c.colour == action.get("colour")), None)
    count = f" ({row.revealed}/{row.threshold} out)" if row else ""
    colour = colour_name(str(action.get("colour")))
    if kind == "defuse":
        return f"Lay the Defusing wire on {colour}{count}: {colour} cannot explode then"
    return f"Move the wire off {colour}{count}: {colour} is armed again"


def cut_effect(events: Sequence[Mapping[str, Any]], index: int, names: Mapping[int, str]) -> str:
    """What the cut at `index` did beyond its wire, from the events it led to before the next
    cut or deal: where its Defusing wire went, the wire a Blue moved apart, whom a Red's
    Number card named, or the explosion (EV-13 to EV-21)."""
    did = []
    for event in events[index + 1:]:
        kind = event.get("type")
        if kind in ("cut", "deal"):
            break
        if kind == "defuse":
            did.append(f"laid on {colour_name(event['colour'])}")
        elif kind == "set_apart":
            did.append("set apart")
        elif kind == "move_apart":
            did.append(f"moved ◆{event['wire']} off {colour_name(event['colour'])}")
        elif kind == "draw_number":
            did.append(f"Number {event['number']}: {names.get(event['designated'], '?')} next")
        elif kind == "game_over" and event.get("reason") in ("bomb", "pink"):
            did.append("exploded")
    return ", ".join(did)


@dataclass(frozen=True)
class ColourRow:
    colour: str
    revealed: int
    threshold: int
    wire: int | None
    """The number of the Defusing wire lying on this colour: it is defused."""

    @property
    def gone_off(self) -> bool:
        """It exploded: no warning any more, the game is over."""
        return self.wire is None and self.revealed >= self.threshold

    @property
    def one_from_exploding(self) -> bool:
        return self.wire is None and self.revealed + 1 == self.threshold


@dataclass(frozen=True)
class NumberDraw:
    drawer: str
    number: int
    designated: str


@dataclass(frozen=True)
class TimeBombEvolutionModel(TimeBombModel):
    variante: bool = False
    colours: tuple[ColourRow, ...] = ()
    set_apart: tuple[int, ...] = ()
    moved_apart: tuple[int, ...] = ()
    last_reveal: str | None = None
    draws: tuple[NumberDraw, ...] = ()
    number_cards: int = 0
    designated: int | None = None
    round4_length: int = 0
    round4_final: bool = True
    pending_seat: int | None = None
    pending_kind: str | None = None
    decisions: tuple[Mapping[str, Any], ...] = ()
    """The decision actions legal for the viewer now."""


def build_model(
    view: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]],
    seat: int | None,
    seats: Sequence[SeatInfo],
) -> TimeBombEvolutionModel:
    base = build_timebomb_model(view, legal, seat, seats, claim_words=claim_text,
                                wire_mark=wire_letter, truthful=truthful_claim,
                                cut_effect=cut_effect)
    claims = view.get("claims") or [None] * len(base.players)
    players = tuple(
        replace(row, short_claim=claim_text(claims[row.seat], short=True))
        for row in base.players
    )
    names = {row.seat: row.name for row in players}
    defused = view.get("defused") or {}
    revealed = view.get("revealed_counts") or {}
    thresholds = view.get("thresholds") or {}
    pending = view.get("pending") or {}
    shared = {f.name: getattr(base, f.name) for f in fields(TimeBombModel)}
    shared["players"] = players
    return TimeBombEvolutionModel(
        **shared,
        variante=bool(view.get("variante")),
        colours=tuple(
            ColourRow(c, int(revealed.get(c, 0)), int(thresholds.get(c, 4)), defused.get(c))
            for c in view.get("colours", ())
        ),
        set_apart=tuple(view.get("set_apart", ())),
        moved_apart=tuple(view.get("moved_apart", ())),
        last_reveal=view.get("last_reveal"),
        draws=tuple(
            NumberDraw(names.get(d["seat"], "?"), int(d["number"]), names.get(d["designated"], "?"))
            for d in view.get("draws", ())
        ),
        number_cards=len(view.get("number_cards", ())),
        designated=view.get("designated"),
        round4_length=int(view.get("round4_length", len(players))),
        round4_final=bool(view.get("round4_length_final", True)),
        pending_seat=pending.get("seat"),
        pending_kind=pending.get("decision"),
        decisions=tuple(a for a in legal if a.get("type") in DECISIONS),
    )

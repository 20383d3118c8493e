"""What the Holmes board shows, computed from a view, the legal actions and the seats.

Pure: no textual. Clue types carry a word and their copies, never colour alone; markers read
"standing" or "lying" as a symbol and a letter for their owner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.holmes.catalogue import (
    CHARACTER_NAMES,
    CLUE_NAMES,
    MAP,
    SIDE_NAMES,
    SKILLS,
    UNASSIGNED_PENALTY,
    UNCLAIMED_RESERVED_PENALTY,
    VALUE,
    VALUED,
    WILD_PREFIX,
    WILDCARD,
)
from engine.holmes.scoring import estimate
from tui.models.seats import SeatInfo

SIDE_LETTERS = {"sherlock": "S", "mycroft": "M"}
MARKER_SYMBOLS = {"standing": "▲", "lying": "▬"}


def clue_word(card: str | None) -> str:
    if card is None:
        return "—"
    if card.startswith(WILD_PREFIX):
        return f"Wildcard on {CLUE_NAMES[card[len(WILD_PREFIX):]]}"
    return CLUE_NAMES.get(card, card)


def character_word(character: str) -> str:
    return CHARACTER_NAMES.get(character, character)


def short_name(character: str) -> str:
    """A character's name in one word or two, for narrow terminals: "Watson", "Von Kramm"."""
    return character.replace("_", " ").title()


@dataclass(frozen=True)
class CharacterRow:
    id: str
    name: str
    short: str
    skill: str
    text: str
    day: int
    initial: bool
    spent: bool
    markers: tuple[str, ...]
    """One short mark per seat: "▲S" standing, "▬M" lying, "" none."""


@dataclass(frozen=True)
class AreaModel:
    seat: int
    name: str
    side: str
    you: bool
    im: int
    types: tuple[tuple[str, int, bool], ...]
    """(type, visible real cards, has a Wildcard) for each type shown, in value order."""
    free_wildcards: int
    hidden_count: int
    hidden: tuple[str, ...] | None
    """Only for the viewer's own area (or everyone's after the reveal)."""
    reserved: str | None
    estimate: int
    revealed: bool = False
    """`hidden` holds the clues that were hidden, shown at the end of the game (HO-38)."""


@dataclass(frozen=True)
class Choice:
    action: Mapping[str, Any]
    label: str


@dataclass(frozen=True)
class HolmesModel:
    spectator: bool
    seat: int | None
    day: int
    days: int
    day_track: tuple[tuple[int, tuple[str, ...]], ...]
    characters: tuple[CharacterRow, ...]
    line: tuple[str | None, ...]
    deck_count: int
    discard_count: int
    character_deck_count: int
    reserve: int
    reserve_card: str | None
    villains: tuple[str, ...]
    areas: tuple[AreaModel, ...]
    waiting_for: str
    prompt: str
    choices: tuple[Choice, ...]
    """The legal actions in words: what the viewer may choose now (nothing in a replay)."""
    over: bool
    outcome_text: str

    def status_line(self) -> str:
        scores = " · ".join(f"{a.name} ~{a.estimate}" for a in self.areas)
        return f"Day {self.day}/{self.days} · {scores}"


def side_name(view: Mapping[str, Any], seat: int) -> str:
    side = view["sides"][seat]
    return SIDE_NAMES.get(side, "?") if side else ("first" if seat == view["first_player"]
                                                    else "second")


def build_model(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seat: int | None,
                seats: Sequence[SeatInfo]) -> HolmesModel:
    names = [s.name for s in seats] or ["Seat 1", "Seat 2"]
    letters = [SIDE_LETTERS.get(view["sides"][s] or "", str(s + 1)) for s in range(2)]
    characters = tuple(
        CharacterRow(
            c["id"], c["name"], short_name(c["id"]), c["skill"], c["text"], c["day"],
            c["initial"], c["spent"],
            tuple("" if m is None else MARKER_SYMBOLS[m] + letters[s]
                  for s, m in enumerate(c["markers"])),
        )
        for c in view["characters"]
    )
    track = []
    for day in range(1, view["days"] + 1):
        arrived = tuple(c.short for c in characters if c.day == day and not c.initial)
        track.append((day, arrived))
    estimates = estimate(view)
    areas = []
    for s, area in enumerate(view["areas"]):
        types = tuple(
            (t, area["clues"].get(t, 0), t in area["wildcards"])
            for t in (*VALUED, MAP)
            if area["clues"].get(t, 0) or t in area["wildcards"]
        )
        hidden = area.get("revealed") if area.get("revealed") is not None else area.get("hidden")
        areas.append(AreaModel(
            s, names[s] if s < len(names) else f"Seat {s + 1}", side_name(view, s), s == seat,
            area["im"], types, area["free_wildcards"], area["hidden_count"],
            None if hidden is None else tuple(hidden), area["reserved"], estimates[s],
            area.get("revealed") is not None,
        ))
    pending = view.get("pending") or {}
    waiting = [names[s] for s in view["to_act"] if s < len(names)]
    choices = tuple(Choice(a, describe_action(a, view)) for a in legal)
    outcome = view.get("outcome") or {}
    holder = view["reserve_card"]
    return HolmesModel(
        spectator=seat is None,
        seat=seat,
        day=view["day"],
        days=view["days"],
        day_track=tuple(track),
        characters=characters,
        line=tuple(view["line"]),
        deck_count=view["deck_count"],
        discard_count=view["discard_count"],
        character_deck_count=view["character_deck_count"],
        reserve=view["reserve"],
        reserve_card=None if holder is None else names[holder],
        villains=tuple(character_word(v) for v in view["villains_drawn"]),
        areas=tuple(areas),
        waiting_for=" and ".join(waiting),
        prompt=pending.get("text", ""),
        choices=choices,
        over=view.get("outcome") is not None,
        outcome_text=str(outcome.get("text", "")),
    )


def skill_words(view: Mapping[str, Any], character: str) -> str:
    """` · Rest: Gain 3 IM.`: a character's skill, as the view names it (a character not on
    the table yet, offered for Day 1 at the alternative start, as the box does)."""
    for row in view.get("characters", ()):
        if row["id"] == character:
            return f" · {row['skill']}: {row['text']}"
    skill, text = SKILLS.get(character, ("", ""))
    return f" · {skill}: {text}" if skill else ""


def own_card_word(card: str) -> str:
    """One of the player's own visible cards: a type, or an unplaced or placed Wildcard."""
    return "unplaced Wildcard" if card == WILDCARD else clue_word(card)


TAKE_COSTS = {"watson": "pay 1 IM", "gregson": "pay 2 IM",
              "von_kramm": "free; then your opponent may buy a hidden clue for 1 IM"}
"""What one clue taken from the line costs at each character that takes (HO-7, HO-36); at
Lestrade the first costs 3 IM for both (`take_cost`)."""


def take_cost(pending: Mapping[str, Any]) -> str:
    """What taking a line clue (or the reserved one) costs now, in words."""
    character = pending.get("character") or ""
    if character == "lestrade":
        return "already paid" if pending.get("taken") else "pay 3 IM for this and one more"
    return TAKE_COSTS.get(character, "")


def describe_action(action: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A player's words for one legal action, with what it costs and does: a choice of a
    character says its skill, so a player chooses knowing what it does."""
    kind = action["type"]
    pending = view.get("pending") or {}
    line = view["line"]
    skill = character_word(pending.get("character") or "")
    if kind == "pick_start":
        return (f"Pick {character_word(action['character'])} for Day 1"
                + skill_words(view, action["character"]))
    if kind == "choose_side":
        return f"Play {SIDE_NAMES[action['side']]}: both sides play alike"
    if kind == "place":
        return (f"Place a marker on {character_word(action['character'])}"
                + skill_words(view, action["character"]))
    if kind == "move":
        return (f"Move from {character_word(action['from'])} to {character_word(action['to'])}"
                + skill_words(view, action["to"]))
    if kind == "lay_down":
        return (f"Lay down your marker on {character_word(action['character'])}: it stays "
                "there today (Moran)")
    if kind == "use":
        return f"Use {skill}'s skill" + skill_words(view, pending.get("character") or "")
    if kind == "take":
        cost = take_cost(pending)
        return (f"Take the {clue_word(line[action['slot']])} (line slot {action['slot'] + 1})"
                + (f": {cost}" if cost else ""))
    if kind == "take_reserved":
        cost = take_cost(pending)
        return (f"Take your reserved {clue_word(view['areas'][view['viewer']]['reserved'])}"
                + (f": {cost}" if cost else ""))
    if kind == "steal":
        return (f"Steal a {clue_word(action['card'])} into your hidden clues: pay "
                f"{view['day']} IM")
    if kind == "draw":
        k = action["count"]
        return (f"Draw {k} card{'s' * (k > 1)} for {k} IM: keep one hidden"
                + (", discard the rest" if k > 1 else ""))
    if kind == "keep":
        drawn = pending.get("drawn") or []
        card = drawn[action["index"]] if action["index"] < len(drawn) else None
        rest = len(drawn) - 1
        return (f"Keep the {clue_word(card)} hidden: "
                + (f"{'the other' if rest == 1 else f'the {rest} others'} discarded face down"
                   if rest > 0 else "it joins your hidden clues"))
    if kind == "discard_line":
        return f"Discard the line's {clue_word(line[action['slot']])}: free, nobody gets it"
    if kind == "discard":
        card = action["card"]
        if pending.get("kind") == "skill" and card in VALUE:
            gain = max(0, VALUE[card] - view["day"])
            return (f"Discard your {clue_word(card)}: gain {gain} IM (its value {VALUE[card]} "
                    f"- Day {view['day']})")
        return f"Discard your {own_card_word(card)} (Moriarty: instead of 2 IM)"
    if kind == "swap":
        return (f"Give your {own_card_word(action['give'])} for the line's "
                f"{clue_word(line[action['slot']])}: free")
    if kind == "decline":
        if pending.get("kind") == "buy":
            return "Do not buy: keep your IM"
        return f"Decline {skill}'s skill: pay nothing, gain nothing"
    if kind == "done":
        return "Stop here: pay no more"
    if kind == "buy":
        return "Pay 1 IM: draw 1 hidden clue"
    if kind == "assign":
        clue = clue_word(action["clue"])
        return f"Put a Wildcard on {clue}: it counts as one more {clue}"
    if kind == "keep_aside":
        return f"Keep the Wildcard aside: -{UNASSIGNED_PENALTY} at the end if never placed"
    if kind == "reserve":
        return (f"Reserve the line's {clue_word(line[action['slot']])}: yours to take later at "
                f"the usual cost; -{UNCLAIMED_RESERVED_PENALTY} if never taken")
    if kind == "end_action":
        return "End your action: reserve no clue"
    if kind == "return_im":
        return "Return 2 IM (Moriarty: instead of a visible clue)"
    return kind


def only_choice_why(action: Mapping[str, Any], view: Mapping[str, Any], picked: str = "") -> str:
    """Why a dialog offers one choice: the character the player picked, or the rules."""
    if picked:
        return (f"The move to {character_word(picked)}, the character you picked; Ctrl+K "
                "offers every choice.")
    kind = action["type"]
    if kind in ("place", "move"):
        return ("Your only move: every other character holds your marker already or is "
                "spent.")
    if kind in ("take", "take_reserved", "discard_line", "keep"):
        return "The only clue the skill can take now."
    return "The rules leave you this one choice now."

"""What each seat may see (HO-48 to HO-50), built field by field for the viewer.

Private: a player's own hidden clues, their Langdale Pike draw, their Von Kramm draw and their
alternative-start pair. Hidden from both: the character deck, the clue deck order, the discard
pile's contents and an undrawn `random_one` villain; they show only as counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import REFEREE
from engine.holmes.catalogue import (
    DAYS,
    INITIAL,
    MARKERS,
    SKILLS,
    VALUED,
    character_name,
)
from engine.holmes.pending import BOTH, Pending

if TYPE_CHECKING:
    from engine.holmes.game import Holmes


def describe_pending(game: "Holmes", p: Pending) -> str:
    """The decision awaited, in public words."""
    kind = p.kind
    if kind == "pick_start":
        return "both players pick a Day-1 character"
    if kind == "side":
        return "the first player chooses Sherlock or Mycroft"
    if kind == "move":
        return "place a marker" if game.day == 1 else "move a standing marker"
    if kind == "skill":
        name = character_name(p.character)
        return f"use {name}'s skill, continue it, or stop" if p.started else (
            f"use or decline {name}'s skill")
    if kind == "finish":
        return "reserve a clue or end the action"
    if kind == "assign":
        return "assign a Wildcard or keep it aside"
    if kind == "buy":
        return "buy a hidden clue for 1 IM (Von Kramm) or decline"
    if kind == "moran":
        return "lay one standing marker down (Moran)"
    if kind == "moriarty":
        return "discard a visible clue or return 2 IM (Moriarty)"
    return kind


def pending_view(game: "Holmes", p: Pending, viewer: int) -> dict[str, Any]:
    view: dict[str, Any] = {
        "kind": p.kind,
        "seat": None if p.seat == BOTH else p.seat,
        "character": p.character,
        "text": describe_pending(game, p),
        "taken": p.taken,
    }
    if p.kind == "skill" and p.character == "langdale":
        view["drawn_count"] = len(p.drawn)
        if viewer in (p.seat, REFEREE):
            view["drawn"] = list(p.drawn)
    if p.kind == "assign":
        view["choices"] = game.assign_options(p)
    if p.kind == "pick_start":
        view["picked"] = sorted(p.picks)
        if viewer == REFEREE:
            view["offers"] = {str(s): list(c) for s, c in p.offers.items()}
            view["picks"] = {str(s): c for s, c in p.picks.items()}
        elif viewer in p.offers:
            view["offer"] = list(p.offers[viewer])
            view["pick"] = p.picks.get(viewer)
    return view


def area_view(game: "Holmes", seat: int, viewer: int) -> dict[str, Any]:
    area = game.areas[seat]
    view = {
        "im": area.im,
        "clues": {t: n for t, n in area.clues.items() if n},
        "wildcards": [t for t in VALUED if t in area.wild_on],
        "free_wildcards": area.free_wild,
        "hidden_count": len(area.hidden),
        "reserved": area.reserved,
        "types": area.toby_count(),
    }
    if viewer in (seat, REFEREE):
        view["hidden"] = sorted(area.hidden)
    if game.revealed is not None:
        view["revealed"] = sorted(game.revealed[seat])
    return view


def build_view(game: "Holmes", viewer: int, events: bool = True) -> dict[str, Any]:
    view = game.base_view(viewer, events)
    characters = [
        {
            "id": c,
            "name": character_name(c),
            "skill": SKILLS[c][0],
            "text": SKILLS[c][1],
            "initial": c in INITIAL,
            "day": game.day_of.get(c, 0),
            "spent": c in game.spent,
            "markers": [
                None if c not in game.markers[s] else ("standing" if game.markers[s][c] else "lying")
                for s in range(2)
            ],
        }
        for c in game.board
    ]
    view.update(
        {
            "day": game.day,
            "days": DAYS,
            "first_player": game.first,
            "sides": list(game.sides),
            "active": game.active() if game.stage == "action" else None,
            "actions_done": game.actions_done if game.stage == "action" else 0,
            "actions_per_player": game.actions_each,
            "moran_today": game.moran_today,
            "characters": characters,
            "unplaced_markers": [MARKERS - len(m) for m in game.markers],
            "character_deck_count": len(game.char_deck),
            "villains_drawn": list(game.villains_drawn),
            "line": list(game.line),
            "deck_count": len(game.deck),
            "discard_count": len(game.discard),
            "reserve": game.reserve,
            "reserve_card": game.reserve_holder,
            "areas": [area_view(game, s, viewer) for s in range(2)],
            "pending": pending_view(game, game.queue[0], viewer) if game.queue else None,
            "scores": None if game.scores is None else [s.as_dict() for s in game.scores],
        }
    )
    if viewer == REFEREE:
        view["referee"] = {
            "deck": list(game.deck),
            "discard": list(game.discard),
            "character_deck": list(game.char_deck),
        }
    return view

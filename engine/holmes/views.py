"""What each seat may see (HO-48 to HO-50), built field by field for the viewer.

Private: a player's own hidden clues, their Langdale Pike draw, their Von Kramm draw and their
alternative-start pair. Hidden from both: the character deck, the clue deck order, the discard
pile's contents and an undrawn `random_one` villain; they show only as counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.holmes.catalogue import (
    DAYS,
    INITIAL,
    MARKERS,
    SKILLS,
    VALUED,
    character_name,
)
from engine.holmes.pending import BOTH, Pending, describe_pending

if TYPE_CHECKING:
    from engine.holmes.game import Holmes


def pending_view(game: "Holmes", p: Pending, seat: int | None = None,
                 referee: bool = False) -> dict[str, Any]:
    """The decision awaited, publicly; with `seat`, what that seat alone sees of it too (its
    Langdale Pike draw, its Day-1 offer); for the `referee`, everything."""
    view: dict[str, Any] = {
        "kind": p.kind,
        "seat": None if p.seat == BOTH else p.seat,
        "character": p.character,
        "text": describe_pending(game.day, p),
        "taken": p.taken,
    }
    if p.kind == "skill" and p.character == "langdale":
        view["drawn_count"] = len(p.drawn)
        if referee or seat == p.seat:
            view["drawn"] = list(p.drawn)
    if p.kind == "assign":
        view["choices"] = game.assign_options(p)
    if p.kind == "pick_start":
        view["picked"] = sorted(p.picks)
        if referee:
            view["offers"] = {str(s): list(c) for s, c in p.offers.items()}
            view["picks"] = {str(s): c for s, c in p.picks.items()}
        elif seat in p.offers:
            view["offer"] = list(p.offers[seat])
            view["pick"] = p.picks.get(seat)
    return view


def area_view(game: "Holmes", seat: int, hidden_shown: bool) -> dict[str, Any]:
    """A play area; its hidden clues only where `hidden_shown` (its owner, the referee)."""
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
    if hidden_shown:
        view["hidden"] = sorted(area.hidden)
    if game.revealed is not None:
        view["revealed"] = sorted(game.revealed[seat])
    return view


def public_view(game: "Holmes") -> dict[str, Any]:
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
    return {
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
        "areas": [area_view(game, s, False) for s in range(2)],
        "pending": pending_view(game, game.queue[0]) if game.queue else None,
        "scores": None if game.scores is None else [s.as_dict() for s in game.scores],
    }


def seat_view(game: "Holmes", seat: int) -> dict[str, Any]:
    """The public areas and decision again, with what `seat` alone sees in them."""
    return {
        "areas": [area_view(game, s, s == seat) for s in range(2)],
        "pending": pending_view(game, game.queue[0], seat) if game.queue else None,
    }


def referee_view(game: "Holmes") -> dict[str, Any]:
    return {
        "areas": [area_view(game, s, True) for s in range(2)],
        "pending": pending_view(game, game.queue[0], referee=True) if game.queue else None,
        "referee": {
            "deck": list(game.deck),
            "discard": list(game.discard),
            "character_deck": list(game.char_deck),
        },
    }

"""The decision the game waits for: one `Pending` at the head of the game's queue.

Every skill, villain and Wildcard choice is a pending decision answered through `apply`
(engine contract, "Multi-step decisions"). Kinds:

- ``pick_start``: both players secretly pick a Day-1 character (HO-40).
- ``side``: the first player chooses Sherlock or Mycroft (HO-8).
- ``move``: the active player places (Day 1) or moves (Days 2-7) a marker (HO-14, HO-15).
- ``skill``: the active player uses, continues or declines a character's skill (HO-19).
- ``buy``: the opponent's optional draw at Von Kramm (HO-36).
- ``assign``: assigning unassigned Wildcards (HO-28, HO-38).
- ``finish``: the reserve-card holder may still reserve before the action ends (HO-41).
- ``moran``: lay a standing marker down (HO-43).
- ``moriarty``: discard a visible clue or return 2 IM (HO-44).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core import IllegalAction

from engine.holmes.catalogue import character_name

BOTH = 2
"""The seat of a decision both players take at once: no seat, and no viewer either (not
`SPECTATOR`, not `REFEREE`), so that no seat test can mistake it for one."""


@dataclass(eq=False)
class Pending:
    kind: str
    seat: int
    character: str | None = None
    taken: int = 0
    """Cards taken or discarded so far in a multi-step skill."""
    drawn: list[str] = field(default_factory=list)
    """Langdale Pike's draw, private to `seat` (HO-48)."""
    touched_line: bool = False
    wild_gained: int = 0
    """Wildcards gained during this decision: each may go on any eligible type (HO-28 a)."""
    new_types: set[str] = field(default_factory=set)
    """Valued types gained visibly: an unassigned Wildcard may go there (HO-28 b)."""
    offers: dict[int, list[str]] = field(default_factory=dict)
    picks: dict[int, str] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        return self.taken > 0


def describe_pending(day: int, p: Pending) -> str:
    """The decision awaited, in public words."""
    kind = p.kind
    if kind == "pick_start":
        return "both players pick a Day-1 character"
    if kind == "side":
        return "the first player chooses Sherlock or Mycroft"
    if kind == "move":
        return "place a marker" if day == 1 else "move a standing marker"
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


def answers_decision(act: Callable) -> Callable:
    """Makes `act` an `act_<type>` method like every game's, which `Game.apply` calls after
    the shared checks. Every Holmes action answers the decision at the head of the queue, so
    it is first checked against the legal actions, which say exactly what that decision
    allows; after it, the game settles whatever follows without a player."""

    @functools.wraps(act)
    def answer(game: Any, seat: int, action: dict[str, Any]) -> None:
        if action not in game.legal_actions(seat):
            raise IllegalAction(game.explain(seat, action))
        act(game, seat, action)
        game.settle()

    return answer

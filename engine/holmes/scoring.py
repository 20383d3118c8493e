"""End-of-game scoring (HO-39): majorities, complete sets, Map Fragments and penalties.

Pure functions over counts, so the engine, the bots and the TUI's live estimate share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from engine.holmes.catalogue import (
    COMPLETE_SET_BONUS,
    MAP,
    MAP_SCORE,
    UNASSIGNED_PENALTY,
    UNCLAIMED_RESERVED_PENALTY,
    VALUE,
    VALUED,
)


@dataclass(frozen=True)
class Holding:
    """What one player holds for scoring: real cards per type, Wildcards, a reserved clue."""

    clues: Mapping[str, int]
    wild_on: frozenset[str] = frozenset()
    free_wild: int = 0
    unclaimed_reserved: bool = False

    def count(self, clue_type: str) -> int:
        return self.clues.get(clue_type, 0) + (1 if clue_type in self.wild_on else 0)


@dataclass(frozen=True)
class Score:
    total: int
    majorities: dict[str, int] = field(default_factory=dict)
    complete_sets: tuple[str, ...] = ()
    maps: int = 0
    penalties: int = 0

    def as_dict(self) -> dict:
        return {
            "total": self.total,
            "majorities": dict(self.majorities),
            "complete_sets": list(self.complete_sets),
            "maps": self.maps,
            "penalties": self.penalties,
        }


def score(holdings: Sequence[Holding]) -> tuple[Score, Score]:
    """Both players' scores by HO-39."""
    a, b = holdings
    majorities: tuple[dict[str, int], dict[str, int]] = ({}, {})
    complete: tuple[list[str], list[str]] = ([], [])
    for clue_type in VALUED:
        value = VALUE[clue_type]
        ca, cb = a.count(clue_type), b.count(clue_type)
        if ca > cb:
            majorities[0][clue_type] = value - cb
        elif cb > ca:
            majorities[1][clue_type] = value - ca
        for i, holding in enumerate(holdings):
            if holding.clues.get(clue_type, 0) == value:
                complete[i].append(clue_type)
    scores = []
    for i, holding in enumerate(holdings):
        maps = MAP_SCORE[min(holding.clues.get(MAP, 0), len(MAP_SCORE) - 1)]
        penalties = UNASSIGNED_PENALTY * holding.free_wild + (
            UNCLAIMED_RESERVED_PENALTY if holding.unclaimed_reserved else 0
        )
        total = (
            sum(majorities[i].values())
            + COMPLETE_SET_BONUS * len(complete[i])
            + maps
            - penalties
        )
        scores.append(Score(total, majorities[i], tuple(complete[i]), maps, penalties))
    return scores[0], scores[1]


def winner(totals: Sequence[int], im: Sequence[int]) -> int | None:
    """HO-39 tie-breaks: higher total, then more IM; None for a draw."""
    for key in (totals, im):
        if key[0] != key[1]:
            return 0 if key[0] > key[1] else 1
    return None


def holding_from_view(area: Mapping) -> Holding:
    """A Holding from one play area of a view: its visible cards only (for live estimates)."""
    return Holding(
        clues=dict(area["clues"]),
        wild_on=frozenset(area["wildcards"]),
        free_wild=area["free_wildcards"],
        unclaimed_reserved=area["reserved"] is not None,
    )


def estimate(view: Mapping) -> tuple[int, int]:
    """Both players' scores if the game ended now on the visible cards alone."""
    a, b = score([holding_from_view(area) for area in view["areas"]])
    return a.total, b.total

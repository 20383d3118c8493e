"""The cards of the Time Bomb family, named once: roles, wire kinds, Évolution's colours, the
role decks, and how a claim reads. Both games' rules, the inference, the bots and the TUI
models take them from here, so a word or a count cannot drift between them."""

from __future__ import annotations

from typing import Final

from engine import catalogue

SHERLOCK: Final = "sherlock"
MORIARTY: Final = "moriarty"
TEAM_NAMES: Final = {SHERLOCK: "Sherlock", MORIARTY: "Moriarty"}

SAFE, DEFUSING, BOMB = "safe", "defusing", "bomb"
"""Time Bomb's wire kinds (TB-1); Évolution's are Defusing and its colours (EV-1)."""

ROUNDS: Final = 4
FIRST_HAND: Final = 5
"""Wires each player holds in round 1; one fewer each round (TB-10, EV-10)."""

TIMEBOMB_ROLE_DECKS: Final[dict[int, tuple[int, int]]] = {
    4: (3, 2), 5: (3, 2), 6: (4, 2), 7: (5, 3), 8: (5, 3),
}
"""TB-2: players -> (Sherlock, Moriarty) cards in the role deck; the deck less the players is
the number set aside (one at 4 and 7 players)."""

YELLOW, BLUE, RED, PINK, GREEN, ORANGE = "yellow", "blue", "red", "pink", "green", "orange"
COLOURS: Final = catalogue.COLOURS
"""EV-1, in the box's order; every list of colours in states, views and options keeps it."""
assert COLOURS == (YELLOW, BLUE, RED, PINK, GREEN, ORANGE)
CARDS_PER_COLOUR: Final = 5

EVOLUTION_ROLE_DECKS: Final[dict[int, tuple[int, int]]] = {4: (3, 2), 5: (3, 2), 6: (4, 2)}
"""EV-3: one Sherlock card stays in the box at 4 and 5 players."""


def colour_name(colour: str) -> str:
    return colour.capitalize()


def defusing_words(defusing: int) -> str:
    return f"{defusing} Defusing wire" + ("" if defusing == 1 else "s")


def claim_words(defusing: int, *, bomb: int | None = None, colour: str | None = None) -> str:
    """What a claim says, as the log and every screen word it: "2 Defusing wires and no Bomb"
    in Time Bomb (`bomb` 0 or 1), "1 Defusing wire and some Red" in Évolution (`colour`, or
    none)."""
    words = defusing_words(defusing)
    if bomb is not None:
        return words + (" and the Bomb" if bomb else " and no Bomb")
    return words + (f" and some {colour_name(colour)}" if colour else "")

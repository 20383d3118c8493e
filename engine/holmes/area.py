"""One player's play area: visible clues by type, Wildcards, hidden clues, the reserved clue
and investigation markers (HO-26 to HO-29, HO-41).

Wildcards are held apart from the real cards: `wild_on` is the set of valued types carrying
this player's Wildcard (at most one each, HO-28) and `free_wild` counts the unassigned ones.
"""

from __future__ import annotations

from collections import Counter

from engine.holmes.catalogue import (
    IM_START,
    MAP,
    REAL_TYPES,
    VALUED,
    WILD_PREFIX,
    WILDCARD,
    wildcard_on,
)


class PlayArea:
    __slots__ = ("clues", "wild_on", "free_wild", "hidden", "reserved", "im")

    def __init__(self) -> None:
        self.clues: dict[str, int] = dict.fromkeys(REAL_TYPES, 0)
        """Visible real cards per type, Map Fragments included."""
        self.wild_on: set[str] = set()
        self.free_wild = 0
        self.hidden: list[str] = []
        """Hidden clues, in the order gained: only the owner sees them (HO-27)."""
        self.reserved: str | None = None
        self.im = IM_START

    # -- reading --------------------------------------------------------------------------

    def visible_cards(self) -> list[str]:
        """Each distinct visible card by name: a type, "wildcard", or "wildcard:<type>"."""
        cards = [t for t in REAL_TYPES if self.clues[t]]
        if self.free_wild:
            cards.append(WILDCARD)
        cards += [wildcard_on(t) for t in VALUED if t in self.wild_on]
        return cards

    def stealable(self) -> list[str]:
        """Irene Adler's targets: visible real cards, Map Fragments included (HO-31)."""
        return [t for t in REAL_TYPES if self.clues[t]]

    def valued_held(self) -> list[str]:
        """Billy's choices: visible real valued cards (HO-35)."""
        return [t for t in VALUED if self.clues[t]]

    def eligible_types(self) -> list[str]:
        """Types a Wildcard may go on now: a visible real card and no Wildcard yet (HO-28)."""
        return [t for t in VALUED if self.clues[t] and t not in self.wild_on]

    def toby_count(self) -> int:
        """HO-33: valued types shown, plus one for any visible Map Fragment."""
        return sum(1 for t in VALUED if self.clues[t]) + (1 if self.clues[MAP] else 0)

    def physical_cards(self) -> Counter:
        """Every clue card this area holds, by printed type: for conservation checks."""
        cards = Counter({t: n for t, n in self.clues.items() if n})
        wilds = len(self.wild_on) + self.free_wild
        if wilds:
            cards[WILDCARD] += wilds
        cards.update(self.hidden)
        if self.reserved is not None:
            cards[self.reserved] += 1
        return cards

    # -- changing -------------------------------------------------------------------------

    def add_visible(self, card: str) -> None:
        if card == WILDCARD:
            self.free_wild += 1
        else:
            self.clues[card] += 1

    def remove_visible(self, card: str) -> str:
        """Take away one visible card by name; returns its printed type.

        Removing the last real card of a type unassigns that type's Wildcard (HO-28).
        """
        if card == WILDCARD:
            self.free_wild -= 1
            return WILDCARD
        if card.startswith(WILD_PREFIX):
            self.wild_on.remove(card[len(WILD_PREFIX):])
            return WILDCARD
        self.clues[card] -= 1
        if not self.clues[card] and card in self.wild_on:
            self.wild_on.remove(card)
            self.free_wild += 1
        return card

    def reveal_hidden(self) -> list[str]:
        """HO-38: hidden clues join their types at the end of the game."""
        revealed = list(self.hidden)
        for card in revealed:
            self.clues[card] += 1
        self.hidden.clear()
        return revealed


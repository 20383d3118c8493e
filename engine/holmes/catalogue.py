"""The static catalogue of Holmes: Sherlock & Mycroft (rules HO-2 to HO-7, HO-39, HO-41 to HO-44).

Clue cards of one type are identical, so a card is its type's id. Nothing here holds state:
the TUI may import this module for names and texts.
"""

from __future__ import annotations

from typing import Final

PLAYERS: Final = 2
DAYS: Final = 7
MARKERS: Final = 3
IM_TOTAL: Final = 24
IM_START: Final = 5
LINE_SIZE: Final = 4

SHERLOCK, MYCROFT = "sherlock", "mycroft"
SIDES: Final = (SHERLOCK, MYCROFT)
SIDE_NAMES: Final = {SHERLOCK: "Sherlock", MYCROFT: "Mycroft"}
FIRST, SECOND = "first", "second"
"""The teams of `Holmes.seat_teams()` and of the outcome: the first and second player."""

# -- clues (HO-5) ----------------------------------------------------------------------------

FALSE_PASS, EXPLOSIVE, CIGARETTE, BULLET = "false_pass", "explosive", "cigarette", "bullet"
BUTTON, FOOTPRINT, FINGERPRINT = "button", "footprint", "fingerprint"
WILDCARD, MAP = "wildcard", "map"

VALUED: Final = (FALSE_PASS, EXPLOSIVE, CIGARETTE, BULLET, BUTTON, FOOTPRINT, FINGERPRINT)
"""The seven valued types, in value order. A valued type's value is its number of copies."""
VALUE: Final = {t: v for t, v in zip(VALUED, range(3, 10))}
REAL_TYPES: Final = VALUED + (MAP,)
"""Every type a real (non-Wildcard) card can have."""
CLUE_TYPES: Final = REAL_TYPES + (WILDCARD,)
COPIES: Final = {**VALUE, MAP: 5, WILDCARD: 5}
DECK_SIZE: Final = sum(COPIES.values())
assert DECK_SIZE == 52

CLUE_NAMES: Final = {
    FALSE_PASS: "False Pass",
    EXPLOSIVE: "Explosive",
    CIGARETTE: "Cigarette",
    BULLET: "Bullet",
    BUTTON: "Button",
    FOOTPRINT: "Footprint",
    FINGERPRINT: "Fingerprint",
    WILDCARD: "Wildcard",
    MAP: "Map Fragment",
}

MAP_SCORE: Final = (0, -1, 1, 3, 6, 10)
"""HO-39: Map Fragments held (0-5) to points."""
COMPLETE_SET_BONUS: Final = 3
UNASSIGNED_PENALTY: Final = 3
UNCLAIMED_RESERVED_PENALTY: Final = 3

WILD_PREFIX: Final = "wildcard:"
"""A visible card is named by its type, "wildcard" for an unassigned Wildcard, or
"wildcard:<type>" for the Wildcard assigned to that type."""


def wildcard_on(clue_type: str) -> str:
    return WILD_PREFIX + clue_type


def clue_name(card: str) -> str:
    if card.startswith(WILD_PREFIX):
        return f"Wildcard on {CLUE_NAMES[card[len(WILD_PREFIX):]]}"
    return CLUE_NAMES[card]


# -- characters (HO-3, HO-7) -----------------------------------------------------------------

WATSON, HUDSON, LESTRADE = "watson", "hudson", "lestrade"
IRENE, GREGSON, WIGGINS, LANGDALE = "irene", "gregson", "wiggins", "langdale"
TOBY, SHINWELL, BILLY, VON_KRAMM, VIOLET = "toby", "shinwell", "billy", "von_kramm", "violet"
MORIARTY, MORAN = "moriarty", "moran"

INITIAL: Final = (WATSON, HUDSON, LESTRADE)
DECK_CHARACTERS: Final = (
    IRENE, GREGSON, WIGGINS, LANGDALE, TOBY, SHINWELL, BILLY, VON_KRAMM, VIOLET,
)
VILLAINS: Final = (MORIARTY, MORAN)

CHARACTER_NAMES: Final = {
    WATSON: "Doctor Watson",
    HUDSON: "Mrs. Hudson",
    LESTRADE: "Inspector Lestrade",
    IRENE: "Irene Adler",
    GREGSON: "Inspector Gregson",
    WIGGINS: "Wiggins",
    LANGDALE: "Langdale Pike",
    TOBY: "Toby",
    SHINWELL: 'Shinwell "Porky" Johnson',
    BILLY: "Billy, the Bellboy",
    VON_KRAMM: "Von Kramm",
    VIOLET: "Violet Hunter",
    MORIARTY: "James Moriarty",
    MORAN: "Sebastian Moran",
}

SKILLS: Final = {
    WATSON: ("Advice", "Pay 1 IM, take 1 clue from the line."),
    HUDSON: ("Rest", "Gain 3 IM."),
    LESTRADE: ("Raid", "Pay 3 IM, take 2 clues from the line."),
    IRENE: ("Theft", "Pay IM equal to the day. Steal 1 visible clue, not a Wildcard, "
                     "from the opponent into your hidden clues."),
    GREGSON: ("Break-in", "Take 1-3 clues from the line, paying 2 IM for each."),
    WIGGINS: ("Underworld network", "Gain 5 IM."),
    LANGDALE: ("Rumours", "Pay 1 IM per card, draw 1-3 cards; keep 1 hidden, discard the rest."),
    TOBY: ("Tracking", "Gain 1 IM for each clue type you show; Map Fragments count, "
                       "an unassigned Wildcard does not."),
    SHINWELL: ("Intimidation", "Discard 1-3 cards from the line."),
    BILLY: ("Errand", "Discard 1 of your valued clues; gain its value minus the day in IM."),
    VON_KRAMM: ("State Secrets", "Take 1 line clue free; then the opponent may pay 1 IM to "
                                 "draw 1 hidden clue."),
    VIOLET: ("Correct", "Swap 1 of your visible clues with 1 clue in the line."),
    MORIARTY: ("Villain", "Twice around (first, second, second, first): discard a visible "
                          "clue or return 2 IM."),
    MORAN: ("Villain", "Each player lays one standing marker down; 2 actions each today."),
}


def character_name(character: str) -> str:
    return CHARACTER_NAMES[character]


def a_clue(card: str) -> str:
    """The card's name with its article: "an Explosive", "a Bullet"."""
    name = clue_name(card)
    return ("an " if name[0] in "AEIOUaeiou" else "a ") + name

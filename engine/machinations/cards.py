"""The heist cards (MM-20) and the heist-name limit (MM-12): static facts the TUI may read."""

from __future__ import annotations

from typing import Final

ABET: Final = "abet"
FOIL: Final = "foil"
TAKE_THE_FALL: Final = "take_the_fall"
CARDS: Final = (ABET, FOIL, TAKE_THE_FALL)
CARD_NAMES: Final = {ABET: "Abet", FOIL: "Foil", TAKE_THE_FALL: "Take the Fall"}
MAX_NAME: Final = 40
"""Characters in a heist name."""

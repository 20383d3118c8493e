"""Moriarty's Machinations: the game and its bots."""

from engine.machinations.bots import BOTS
from engine.machinations.game import ABET, FOIL, TAKE_THE_FALL, Machinations
from engine.registry import register

Machinations.BOTS = BOTS
register(Machinations)

__all__ = ["Machinations", "ABET", "FOIL", "TAKE_THE_FALL"]

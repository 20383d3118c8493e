"""Time Bomb: the game and its bots."""

from engine.registry import register
from engine.timebomb.bots import BOTS
from engine.timebomb.game import BOMB, DEFUSING, MORIARTY, SAFE, SHERLOCK, TimeBomb

TimeBomb.BOTS = BOTS
register(TimeBomb)

__all__ = ["TimeBomb", "SHERLOCK", "MORIARTY", "SAFE", "DEFUSING", "BOMB"]

"""Holmes: Sherlock & Mycroft: the game and its bots."""

from engine.holmes.bots import BOTS
from engine.holmes.game import Holmes
from engine.registry import register

Holmes.BOTS = BOTS
register(Holmes)

__all__ = ["Holmes"]

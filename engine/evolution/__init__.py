"""Time Bomb Évolution and its Variante: the game and its bots."""

from engine.evolution.bots import BOTS
from engine.evolution.game import BLUE, COLOURS, GREEN, ORANGE, PINK, RED, YELLOW, Evolution
from engine.registry import register

Evolution.BOTS = BOTS
register(Evolution)

__all__ = ["Evolution", "COLOURS", "YELLOW", "BLUE", "RED", "PINK", "GREEN", "ORANGE"]

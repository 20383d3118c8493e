"""Moriarty's Machinations bots: `bot(view, legal_actions, rng) -> action`, own view only."""

from engine.core import random_bot

BOTS = {
    "random": random_bot(),
}

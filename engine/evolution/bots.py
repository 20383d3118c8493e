"""Time Bomb Évolution bots: `bot(view, legal_actions, rng) -> action`, seeing only their view."""

from engine.core import random_bot

BOTS = {
    "random": random_bot(frozenset({"claim"})),
}

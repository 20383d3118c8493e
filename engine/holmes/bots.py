"""Holmes bots: `bot(view, legal_actions, rng) -> action`, seeing only their own view."""

from engine.core import random_bot

BOTS = {
    "random": random_bot(),
}

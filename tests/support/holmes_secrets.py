"""Holmes's part of the random-play harness (tests/support/random_sim.py): dealing again what
one viewer cannot see, for the information-set check."""

from __future__ import annotations

import random

from engine.holmes.catalogue import VILLAINS, WILDCARD


def perturb_secrets(game, viewer: int, rng: random.Random) -> None:
    """Change everything `viewer` may not see, keeping every count and every public fact."""
    hidden_from = [s for s in (0, 1) if s != viewer]
    pool = game.deck + game.discard
    rng.shuffle(pool)
    game.deck, game.discard = pool[: len(game.deck)], pool[len(game.deck):]
    for seat in hidden_from:
        area = game.areas[seat]
        for i, card in enumerate(area.hidden):
            swap_with = [j for j, c in enumerate(game.deck) if c != WILDCARD and c != card]
            if swap_with:
                j = rng.choice(swap_with)
                area.hidden[i], game.deck[j] = game.deck[j], card
        for pending in game.queue:
            if pending.seat == seat and pending.drawn and game.deck:
                for i in range(len(pending.drawn)):
                    j = rng.randrange(len(game.deck))
                    pending.drawn[i], game.deck[j] = game.deck[j], pending.drawn[i]
            if pending.kind == "pick_start" and seat in pending.offers and game.char_deck:
                offer = pending.offers[seat]
                swappable = [j for j, c in enumerate(game.char_deck) if c not in VILLAINS]
                if swappable:
                    j = rng.choice(swappable)
                    old = offer[0]
                    offer[0], game.char_deck[j] = game.char_deck[j], old
                    if pending.picks.get(seat) == old:
                        pending.picks[seat] = offer[0]
    rng.shuffle(game.char_deck)
    if game.options["villains"] == "random_one" and not game.villains_drawn:
        game.char_deck = [
            (VILLAINS[1] if c == VILLAINS[0] else VILLAINS[0]) if c in VILLAINS else c
            for c in game.char_deck
        ]
    game.rng = random.Random(rng.random())

"""Games the engine's bots play to their end, for the tests that need a finished game's
record or the bot a client plays a seat with."""

from __future__ import annotations

import random
from typing import Any

import engine


def smart_bot(game_id: str):
    """The game's smart bot, or its random one where it has no smart one."""
    bots = engine.GAMES[game_id].BOTS
    return bots.get("smart", bots["random"])


def bots_play(kind: str, players: int, seed: int) -> tuple[engine.Game, list[tuple[int, Any]]]:
    """A game the bots played to its end, the lowest seat to act moving first, and each move
    as (seat, action), in order."""
    game = engine.new_game(kind, players, {}, seed)
    rng = random.Random(seed)
    bot = smart_bot(kind)
    while game.outcome is None:
        seat = min(game.to_act())
        legal = [a for a in game.legal_actions(seat) if a["type"] not in game.FREE_ACTIONS]
        game.apply(seat, bot(game.view(seat), legal, rng))
    return game, [(seat, action) for seat, action in game.history]

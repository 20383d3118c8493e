"""Games the engine's bots play to their end, for the tests that need a finished game's
record or the bot a client plays a seat with."""

from __future__ import annotations

import random
from typing import Any

import engine
from netplay.protocol import Error, State


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


async def play_seat(conn, log: list[State], seed: int) -> None:
    """Play the seat with the game's bot until the game is over, keeping every state."""
    rng = random.Random(seed)
    async for msg in conn:
        if isinstance(msg, Error):
            # A state that brought only a claim repeats a turn already answered: the second
            # answer is turned down, and the next state asks again.
            if msg.fatal:
                raise AssertionError(f"seat {conn.seat}: {msg.message}")
            continue
        if not isinstance(msg, State):
            continue
        log.append(msg)
        view = msg.view
        if view["outcome"] is not None:
            return
        bot = smart_bot(view["game"])
        free = engine.GAMES[view["game"]].FREE_ACTIONS
        moves = [a for a in msg.legal if a["type"] not in free]
        if moves and msg.seat in view["to_act"]:
            await conn.act(bot(view, moves, rng))
    raise AssertionError(f"seat {conn.seat}: closed before the end ({conn.refusal})")

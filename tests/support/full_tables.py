"""Every game at its largest table, mid-game and at its end, with the lobby message a host would
send: the whole-screen tests draw each screen of a full table from here (issue 46). The games
and their seat counts come from the engine's catalogue, so a fifth game is drawn too."""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.catalogue import CATALOGUE

NAMES = ["Ada", "Basil", "Cyril", "Dora", "Edith", "Fred", "Gwen", "Hugo", "Iris", "Jules"]
"""A name for each seat of the largest table there is (Machinations' ten)."""


def largest(game_id: str) -> int:
    return CATALOGUE[game_id].max_players


def played(game_id: str, stop, seed: int = 3) -> engine.Game:
    """A game at its largest table played by random legal moves until `stop(game)`."""
    game = engine.new_game(game_id, largest(game_id), {}, seed)
    rng = random.Random(seed)
    while game.outcome is None and not stop(game):
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def mid_game(game_id: str) -> tuple[engine.Game, int]:
    """A position some moves in, at a seat the game waits on."""
    moves = 0

    def enough(game) -> bool:
        nonlocal moves
        moves += 1
        return moves > 12 and 0 in game.to_act()

    game = played(game_id, enough)
    return game, 0


def ended(game_id: str) -> engine.Game:
    return played(game_id, lambda game: False)


def full_lobby(game_id: str, phase: str = "playing", **overrides: Any) -> dict[str, Any]:
    """The lobby of the largest table: people and bots, names as long as people's, an evening
    of three games, and half the people asking for another."""
    players = largest(game_id)
    seats = [{"seat": s, "name": NAMES[s] if s % 2 == 0 else f"Bot {s + 1}",
              "kind": "human" if s % 2 == 0 else "bot", "connected": True}
             for s in range(players)]
    evening = [{"game": f"t1-{n}", "result": "Sherlock's team wins", "team": "sherlock",
                "winners": [NAMES[0], NAMES[2]]} for n in range(1, 4)]
    return {"t": "lobby", "table": "t1", "name": "Baker Street", "game": game_id,
            "players": players, "options": {}, "seats": seats, "phase": phase, "host_seat": 0,
            "bot_level": "smart", "bot_pace": "normal", "turn_timer": 0, "evening": evening,
            **overrides}

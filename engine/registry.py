"""The registry of games: id to class, and the contract's constructors."""

from __future__ import annotations

import importlib
from typing import Any, Iterable, Mapping

from engine.catalogue import CATALOGUE
from engine.core import Game, InvalidSetup

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game reachable by its id."""
    GAMES[cls.id] = cls
    return cls


def game_class(game_id: str) -> type[Game]:
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise InvalidSetup(
            f"no game {game_id!r}; the games are: " + ", ".join(sorted(GAMES))
        ) from None


def new_game(
    game_id: str, players: int, options: Mapping[str, Any] | None = None, seed: int = 0
) -> Game:
    """A new game, its player count and options validated (InvalidSetup if not)."""
    return game_class(game_id)(players, options, seed)


def replay(
    game_id: str,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    actions: Iterable[tuple[int, Mapping[str, Any]]],
) -> Game:
    """Rebuild a game by applying `actions`, a sequence of (seat, action), to a new game."""
    game = new_game(game_id, players, options, seed)
    for seat, action in actions:
        game.apply(seat, dict(action))
    return game


def _load(game_id: str) -> None:
    """Register the game of package `engine.<game_id>`: the class in its `game.py` made from the
    catalogue's entry, with the bots of its `bots.py`."""
    module = importlib.import_module(f"engine.{game_id}.game")
    (cls,) = (value for value in vars(module).values()
              if isinstance(value, type) and value.__dict__.get("INFO") is CATALOGUE[game_id])
    cls.BOTS = importlib.import_module(f"engine.{game_id}.bots").BOTS
    register(cls)


for _game_id in CATALOGUE:
    _load(_game_id)

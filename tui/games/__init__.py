"""The games this client can draw: one package per game, found by the engine's game id.

A game's package (`tui/games/<package>/`) holds its model, its board, its dialogs and its end
screen, and registers itself once, in its `__init__`: `GAME_ID`, the engine's id, and
`load_board()`, which imports the board only when someone sits at that game. The package's name
is the id (`tui.games.timebomb_evolution`), so finding a game's package needs no list here. See tui/README.md for adding a game.

Headless: nothing here imports textual until `load_board()` is called.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.widgets.game_board import GameBoard


def package_name(game_id: str) -> str:
    """The module path of `game_id`'s package."""
    return f"{__name__}.{game_id}"


def game_package(game_id: str) -> ModuleType | None:
    """The package registered under `game_id`, or None when this client has none."""
    name = package_name(game_id)
    if not name.removeprefix(f"{__name__}.").isidentifier():
        return None  # the id came from a host: never let it name some other module
    try:
        package = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise  # the package is there but broken: say so
        return None
    return package if getattr(package, "GAME_ID", None) == game_id else None


def game_ids() -> list[str]:
    """Every game this client can draw, by engine id."""
    found = (importlib.import_module(f"{__name__}.{m.name}")
             for m in pkgutil.iter_modules(__path__) if m.ispkg)
    return sorted(package.GAME_ID for package in found)


def board_for(game_id: str) -> type["GameBoard"]:
    """The board for `game_id`, or the fallback that says this client cannot draw it."""
    package = game_package(game_id)
    if package is None:
        from tui.widgets.game_board import UnsupportedBoard

        return UnsupportedBoard
    return package.load_board()

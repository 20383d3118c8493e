"""Which widget renders which game's table: the registry the table screen looks up.

Each game registers a `GameTable` subclass under its engine id, as "module:Class" so a game's
widgets load only when someone sits at that game. See tui/README.md for adding a game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.widgets.game_table import GameTable

TABLE_WIDGETS: dict[str, str] = {
    "timebomb": "tui.widgets.timebomb_table:TimeBombTable",
    "holmes": "tui.widgets.holmes_table:HolmesTable",
    "timebomb-evolution": "tui.widgets.evolution_table:EvolutionTable",
    "machinations": "tui.widgets.machinations_table:MachinationsTable",
}


def table_widget_for(game_id: str) -> type["GameTable"]:
    """The widget class for `game_id`, or the generic fallback that shows the raw public state."""
    target = TABLE_WIDGETS.get(game_id, "tui.widgets.game_table:UnsupportedTable")
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)

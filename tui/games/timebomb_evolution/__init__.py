"""Time Bomb Évolution at the client: Time Bomb's board with the bombs board and the Variante."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games.timebomb_evolution.board import TimeBombEvolutionBoard

GAME_ID = "timebomb_evolution"


def load_board() -> type["TimeBombEvolutionBoard"]:
    from tui.games.timebomb_evolution.board import TimeBombEvolutionBoard

    return TimeBombEvolutionBoard

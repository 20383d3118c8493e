"""Time Bomb at the client: its model, board, cut dialog and end screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games.timebomb.board import TimeBombBoard

GAME_ID = "timebomb"


def load_board() -> type["TimeBombBoard"]:
    from tui.games.timebomb.board import TimeBombBoard

    return TimeBombBoard

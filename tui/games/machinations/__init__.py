"""Moriarty's Machinations at the client: its model, board and secret dialogs."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games.machinations.board import MachinationsBoard

GAME_ID = "machinations"


def load_board() -> type["MachinationsBoard"]:
    from tui.games.machinations.board import MachinationsBoard

    return MachinationsBoard

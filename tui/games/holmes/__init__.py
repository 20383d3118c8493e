"""Holmes: Sherlock & Mycroft at the client: its model and board."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games.holmes.board import HolmesBoard

GAME_ID = "holmes"


def load_board() -> type["HolmesBoard"]:
    from tui.games.holmes.board import HolmesBoard

    return HolmesBoard

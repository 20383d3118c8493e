"""A table's setup in words, from the host's `lobby` message: the game and its options, its
bots' level and pace, and its turn timer, as the waiting room tells every seated person."""

from __future__ import annotations

from typing import Any, Mapping

from engine.catalogue import CATALOGUE
from tui.commands.game_options import options_text
from tui.quick_play import PACE_WORDS


def setup_lines(lobby: Mapping[str, Any]) -> list[str]:
    """The game with its options, the bots, and the turn timer: a line each."""
    info = CATALOGUE.get(str(lobby.get("game", "")))
    if info is None:
        return [str(lobby.get("game", ""))]
    options = options_text(info, dict(lobby.get("options") or {}))
    levels = {level.bot: level.name for level in info.bot_levels}
    bot = levels.get(str(lobby.get("bot_level")), str(lobby.get("bot_level") or ""))
    pace = PACE_WORDS.get(str(lobby.get("bot_pace")), str(lobby.get("bot_pace") or ""))
    timer = int(lobby.get("turn_timer") or 0)
    return [
        info.title + (f" · {options}" if options else ""),
        f"Bots: {bot} · {pace}",
        "Turn timer: " + (f"{timer} s, then a bot plays for an away player" if timer else "off"),
    ]

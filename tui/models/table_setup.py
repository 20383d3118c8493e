"""A table's setup in words, from the host's `lobby` message: the game and its options, its
bots' level and pace, and its turn timer, as the waiting room tells every seated person."""

from __future__ import annotations

from engine.catalogue import CATALOGUE
from netplay import protocol as wire
from tui.commands.game_options import options_text
from tui.quick_play import PACE_WORDS


def setup_lines(lobby: wire.Lobby) -> list[str]:
    """The game with its options, the bots, and the turn timer: a line each."""
    info = CATALOGUE.get(lobby.game)
    if info is None:
        return [lobby.game]
    options = options_text(info, lobby.options)
    levels = {level.bot: level.name for level in info.bot_levels}
    bot = levels.get(lobby.bot_level, lobby.bot_level)
    pace = PACE_WORDS.get(lobby.bot_pace, lobby.bot_pace)
    timer = lobby.turn_timer
    return [
        info.title + (f" · {options}" if options else ""),
        f"Bots: {bot} · {pace}",
        "Turn timer: " + (f"{timer} s, then a bot plays for an away player" if timer else "off"),
    ]

"""Quick play: a game against bots on this computer, set up as the player last set it up.

What the player chose is remembered per game in the config file, so the next game of the same
kind is `Ctrl+G` then Enter. A remembered choice is checked against the static catalogue on the way
in: a stale or hand-edited one falls back to the game's defaults rather than failing later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.catalogue import CATALOGUE, GameInfo, InvalidSetup
from netplay.journal import DEFAULT_PACE
from tui.config import load_setting, save_setting

SETTING = "quick_play"

PACE_WORDS = {"fast": "Fast", "normal": "Normal: a person's pace", "slow": "Slow"}
"""The host's bot paces (`netplay.table.BOT_PACES`), in the player's words."""


@dataclass(frozen=True)
class QuickPlay:
    """A game against bots: every seat but the player's is a bot of `bot_level`."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    bot_level: str = ""
    bot_pace: str = DEFAULT_PACE

    @property
    def info(self) -> GameInfo:
        return CATALOGUE[self.game]

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "options": self.options, "bot_level": self.bot_level,
                "bot_pace": self.bot_pace}


def default_players(info: GameInfo) -> int:
    """One more than the fewest, where the game allows it: a livelier first table."""
    return min(info.min_players + 1, info.max_players)


def default_choice(game_id: str) -> QuickPlay:
    info = CATALOGUE[game_id]
    players = default_players(info)
    return QuickPlay(game_id, players, info.validate_options(players, {}), info.default_bot)


def checked(game_id: str, stored: Any) -> QuickPlay:
    """The stored choice for `game_id` if it is still a valid setup, else the defaults."""
    info = CATALOGUE[game_id]
    if not isinstance(stored, dict):
        return default_choice(game_id)
    try:
        players = stored.get("players")
        options = info.validate_options(players, stored.get("options") or {})
        level = info.bot_level(stored.get("bot_level") or info.default_bot).bot
    except (InvalidSetup, TypeError):
        return default_choice(game_id)
    pace = stored.get("bot_pace")
    return QuickPlay(game_id, players, options, level,
                     pace if pace in PACE_WORDS else DEFAULT_PACE)


def fit(info: GameInfo, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """`options` for `players` players: each value kept where that count allows it, else the
    option's default (a colour set sized for five players does not fit six)."""
    fitted = {}
    for option in info.options:
        value = options.get(option.name, option.default)
        try:
            option.check(players, value)
        except InvalidSetup:
            value = option.default
        fitted[option.name] = value
    return info.validate_options(players, fitted)


def remembered() -> tuple[str, dict[str, QuickPlay]]:
    """The game last played against bots, and the remembered choice for every game."""
    stored = load_setting(SETTING)
    stored = stored if isinstance(stored, dict) else {}
    games = stored.get("games") if isinstance(stored.get("games"), dict) else {}
    choices = {game_id: checked(game_id, games.get(game_id)) for game_id in CATALOGUE}
    last = stored.get("last")
    return (last if last in CATALOGUE else next(iter(CATALOGUE))), choices


def remember(choice: QuickPlay) -> None:
    """Keep `choice` for next time, as the game last played."""
    _, choices = remembered()
    choices[choice.game] = choice
    save_setting(SETTING, {
        "last": choice.game,
        "games": {game_id: c.to_json() for game_id, c in choices.items()},
    })

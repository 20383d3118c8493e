"""A table this player asks to host, and the last one they hosted, remembered: Ctrl+N in the
lobby starts from the last table's game, options, seats, bots and pace (issue 42), as quick
play starts from its last choice. The remembered request is checked against the static
catalogue on the way in: a stale or hand-edited one gives the game's defaults. No textual."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.catalogue import CATALOGUE, InvalidSetup
from tui.config import load_setting, save_setting
from tui.quick_play import DEFAULT_PACE, PACE_WORDS, fit

SETTING = "last_table"


@dataclass(frozen=True)
class TableRequest:
    game: str
    players: int
    options: dict[str, Any]
    name: str
    bots: int
    bot_pace: str = DEFAULT_PACE
    hints: bool = False
    """Its people may ask the strongest bot for a hint (PROTOCOL.md, "Hints")."""


def remember_table(request: TableRequest) -> None:
    save_setting(SETTING, asdict(request))


def last_table() -> TableRequest | None:
    """The table last hosted, still a valid setup, or None."""
    stored = load_setting(SETTING)
    if not isinstance(stored, dict) or stored.get("game") not in CATALOGUE:
        return None
    info = CATALOGUE[stored["game"]]
    try:
        players = int(stored.get("players"))
        if players not in info.player_counts:
            return None
        bots = min(max(int(stored.get("bots", 0)), 0), players - 1)
        options = fit(info, players, stored.get("options") or {})
    except (InvalidSetup, TypeError, ValueError):
        return None
    pace = stored.get("bot_pace")
    name = stored.get("name") if isinstance(stored.get("name"), str) else ""
    return TableRequest(info.id, players, options, name, bots,
                        pace if pace in PACE_WORDS else DEFAULT_PACE,
                        stored.get("hints") is True)

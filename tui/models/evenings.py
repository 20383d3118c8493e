"""Past evenings, from the games kept on this computer: each table's games, in the order they
ended, with who won them (issue 42). Derived afresh from the kept files each time, as the
group's record is (`netplay.group_record`): nothing here is stored. No textual."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from netplay.group_record import PlayedGame


@dataclass(frozen=True)
class PastEvening:
    """One table's evening: its games, oldest first."""

    table: str
    name: str
    kind: str
    games: tuple[PlayedGame, ...]

    @property
    def ended(self) -> float:
        return self.games[-1].ended

    def tally_games(self) -> list[dict[str, Any]]:
        """Each game as the evening's tally counts it: its winners' names and team."""
        return [{"winners": [seat.name for seat in game.seats if seat.won],
                 "team": next((seat.role for seat in game.seats if seat.won), None)}
                for game in self.games]

    def heading(self, title: str) -> str:
        """"Sat 28 Nov, 23:40 · Baker Street · Time Bomb": when its last game ended, where,
        and what."""
        when = time.strftime("%a %d %b, %H:%M", time.localtime(self.ended))
        return " · ".join(part for part in (when, self.name, title) if part)


def past_evenings(games: Iterable[PlayedGame]) -> list[PastEvening]:
    """The kept games grouped by table, newest evening first."""
    tables: dict[str, list[PlayedGame]] = {}
    for game in sorted(games, key=lambda g: (g.ended, g.game)):
        tables.setdefault(game.table or game.game, []).append(game)
    evenings = [PastEvening(table, played[-1].table_name, played[-1].kind, tuple(played))
                for table, played in tables.items()]
    return sorted(evenings, key=lambda e: e.ended, reverse=True)

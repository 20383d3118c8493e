"""The group's record as lines of text, for `gaslight record` and the lobby's record screen:
a block per game, each player's games, wins, rating (mu ± sigma) and wins by role."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.catalogue import CATALOGUE

if TYPE_CHECKING:
    from netplay.group_record import GroupRecord, Standing


def record_text(record: GroupRecord, you: str | None = None) -> str:
    """The record as the command prints it: a block per game, best rated first, `you` (a
    person's id) marked; then a line for each kept file that could not be read."""
    if not record.games:
        lines = ["No games kept yet: the games you play or watch are kept as they end, and "
                 "the record is made from them."]
    else:
        lines = [f"The group's record, from {record.played} kept "
                 f"game{'s' if record.played != 1 else ''}."]
    for kind, standings in record.games.items():
        info = CATALOGUE.get(kind)
        lines += ["", f"{info.title if info else kind}", HEADER]
        lines += [standing_line(standing, you) for standing in standings]
    if record.problems:
        lines += ["", "Kept files that could not be read (they count for nothing):"]
        lines += [f"  {problem}" for problem in record.problems]
    return "\n".join(lines)


HEADER = f"  {'player':<28} {'games':>5} {'wins':>5}  {'rating':<13} by role (won/played)"


def standing_line(standing: Standing, you: str | None = None) -> str:
    name = standing.name + (" (you)" if you and standing.player == f"person:{you}" else "")
    roles = ", ".join(f"{role.capitalize()} {won}/{played}"
                      for role, (played, won) in sorted(standing.roles.items()))
    rating = f"{standing.mu:.1f} ± {standing.sigma:.1f}"
    return (f"  {name[:28]:<28} {standing.games:>5} {standing.wins:>5}  {rating:<13} "
            f"{roles}")

"""Seats and names, from the host's `lobby` message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    kind: str  # "human" | "bot" | "empty"
    connected: bool
    covered: bool = False
    """A bot plays this away player's seat until they come back."""

    @property
    def status(self) -> str:
        """A word for the seat's state; never colour alone."""
        if self.kind == "bot":
            # The host names bots "Bot 3"; saying "bot" twice helps nobody.
            return "" if "bot" in self.name.lower() else "bot"
        if self.kind == "empty":
            return "empty"
        if self.covered:
            return "bot playing"
        return "" if self.connected else "away"


def seat_infos(entries: Sequence[Mapping[str, Any]], players: int) -> list[SeatInfo]:
    """One SeatInfo per seat of the host's seat `entries`, "Seat n" where it has not said yet."""
    known = {}
    for entry in entries:
        seat = entry.get("seat")
        if isinstance(seat, int):
            known[seat] = SeatInfo(
                seat,
                str(entry.get("name") or f"Seat {seat + 1}"),
                str(entry.get("kind") or "human"),
                bool(entry.get("connected", True)),
                bool(entry.get("covered")),
            )
    return [known.get(s, SeatInfo(s, f"Seat {s + 1}", "empty", False)) for s in range(players)]


def covered(seats: Sequence[SeatInfo]) -> dict[int, str]:
    """The seats a bot plays for a player who is away, with the player's name."""
    return {s.seat: s.name for s in seats if s.covered}


def away(seats: Sequence[SeatInfo]) -> list[SeatInfo]:
    """The seats of people away from the game that no bot covers yet."""
    return [s for s in seats if s.kind == "human" and not s.connected and not s.covered]


def names_of(seats: Sequence[SeatInfo]) -> list[str]:
    return [s.name for s in seats]


def event_text(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """An event's text with `{0}`, `{1}`... replaced by the names of the seats it lists."""
    text = str(event.get("text", ""))
    for index, seat in enumerate(event.get("seats", ())):
        text = text.replace("{" + str(index) + "}", name_of(seat, names))
    return text


def name_of(seat: Any, names: Sequence[str]) -> str:
    """The name of the seat an event lists."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"

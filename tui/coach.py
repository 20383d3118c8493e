"""The coach: a patient friend at the table for a person's first games of each game, saying in
the log what each event just did to the game and to the player's team, and what their choice
now means; and the words of a hint the host gave (PROTOCOL.md, "Hints").

It reads only what the seat's view shows, as the board does: each game's coach
(`tui/games/<game_id>/coach.py`) is handed the view, never anything else. Its lines are log
entries shaped like the game's events (`{0}` for a seat's name, filled in by the log), marked
`private` when they tell the seat's own secrets, so that Ctrl+E hides them with the events.

Whether it speaks is the person's, per game, on their machine (the config file, as
`tui.quick_play` keeps its choices): on for their first `FIRST_GAMES` games of a game, then off,
unless they turned it on or off themselves (`toggle`). Headless: no textual.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Mapping, Sequence

from tui.config import load_setting, save_setting
from tui.games import package_name

SETTING = "coach"
FIRST_GAMES = 3
"""Games of each game the coach sees a person through before it falls quiet by itself."""

Entry = dict[str, Any]
"""A line for the log, shaped like an event: `text`, `seats`, `private`."""


def entry(text: str, seats: Sequence[int] = (), private: bool = False) -> Entry:
    """A coach's line for the log: "Coach: " and `text`, `{0}`... standing for `seats`."""
    return {"type": "coach", "text": "Coach: " + text, "seats": list(seats), "private": private}


def private(entries: Sequence[Entry]) -> list[Entry]:
    return [{**line, "private": True} for line in entries]


def game_coach(game_id: str) -> ModuleType:
    """The coach of `game_id`'s package (ModuleNotFoundError when the game has none)."""
    return importlib.import_module(f"{package_name(game_id)}.coach")


# -- the person's games, on their machine ---------------------------------------------------


def _stored() -> dict[str, Any]:
    stored = load_setting(SETTING)
    stored = stored if isinstance(stored, dict) else {}
    games = stored.get("games") if isinstance(stored.get("games"), dict) else {}
    chosen = stored.get("on") if isinstance(stored.get("on"), dict) else {}
    return {"games": {g: n for g, n in games.items() if isinstance(n, int) and n >= 0},
            "on": {g: v for g, v in chosen.items() if isinstance(v, bool)}}


def games_played(game_id: str) -> int:
    """The games of `game_id` this person played to their end on this machine."""
    return _stored()["games"].get(game_id, 0)


def coach_on(game_id: str) -> bool:
    """Whether the coach speaks at `game_id`: as the person chose, else for their first games."""
    stored = _stored()
    return stored["on"].get(game_id, stored["games"].get(game_id, 0) < FIRST_GAMES)


def set_coach(game_id: str, on: bool) -> None:
    stored = _stored()
    stored["on"][game_id] = on
    save_setting(SETTING, stored)


def count_game(game_id: str) -> None:
    """One more game of `game_id` played to its end."""
    stored = _stored()
    stored["games"][game_id] = stored["games"].get(game_id, 0) + 1
    save_setting(SETTING, stored)


# -- at a table -------------------------------------------------------------------------------


class Coach:
    """The coach of one table's seat: what it has said of the game it follows.

    The play screen hands it every view it shows (`heard`) and writes the lines it returns
    into the log; `toggle` turns it off or on for that game."""

    def __init__(self) -> None:
        self.game_id: str | None = None
        self.events: list[Mapping[str, Any]] = []
        """The events of the game it follows, as last seen."""
        self.waited: frozenset[str] = frozenset()
        """The kinds of choice the game waited on this seat for at the last view, told once:
        a new kind (a vote that made this seat the proposer) is told again."""
        self.counted = False
        """This game's end was counted among the person's games."""

    @property
    def on(self) -> bool:
        return self.game_id is not None and coach_on(self.game_id)

    def toggle(self, game_id: str | None = None) -> str:
        """Turn the coach off or on for this table's game; what to tell the person."""
        game_id = game_id or self.game_id
        if game_id is None:
            return "The coach starts with the game."
        on = not coach_on(game_id)
        set_coach(game_id, on)
        return ("The coach is on: it says in the log what each move did and what your "
                "choice means." if on else "The coach is off. The same key turns it on again.")

    def heard(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
              names: Sequence[str]) -> list[Entry]:
        """The lines a new view brings: on a game's first view, how it is won from this seat;
        then what each new event did; and when the game starts waiting on this seat, what
        its choice means. None for a spectator, or while the coach is off."""
        viewer = view.get("viewer")
        if not isinstance(viewer, int) or viewer < 0:
            return []
        game_id = str(view.get("game"))
        events = list(view.get("events", ()))
        first = (game_id != self.game_id or events[:len(self.events)] != self.events
                 or not self.events)
        new = range(0 if first else len(self.events), len(events))
        self.game_id, self.events = game_id, events
        if first:
            self.waited, self.counted = frozenset(), False
        over = view.get("outcome") is not None
        self.count_if_over(game_id, over, first)
        if not coach_on(game_id):
            return []
        coach = game_coach(game_id)
        # How this seat wins and what its choice means are its own: Ctrl+E hides them.
        lines = private(coach.intro(view, names)) if first and not over else []
        if not first:
            for index in new:
                lines += coach.event_lines(view, index, names)
        waits = viewer in view.get("to_act", ()) and not over
        kinds = frozenset(str(a.get("type")) for a in legal) if waits else frozenset()
        if kinds and kinds != self.waited:
            lines += private(coach.choice_lines(view, legal, names))
        self.waited = kinds
        return lines

    def count_if_over(self, game_id: str, over: bool, first: bool) -> None:
        """A game this person saw running and then saw end counts as one of theirs."""
        if over and not first and not self.counted:
            self.counted = True
            count_game(game_id)
        elif first and over:
            self.counted = True  # came back to a finished game: counted when it ended, or not


def hint_lines(game_id: str, action: Mapping[str, Any], reason: str, seats: Sequence[int],
               view: Mapping[str, Any], names: Sequence[str]) -> list[Entry]:
    """The hint the host gave, for the asker's log: the move in the game's words and why.
    Private: an onlooker must not read what the bot would play from this seat."""
    words = game_coach(game_id).action_words(action, view, names).rstrip(".")
    return [{"type": "hint", "text": f"Hint: {words}. Why: {_named(reason, seats, names)}",
             "seats": [], "private": True}]


def _named(text: str, seats: Sequence[int], names: Sequence[str]) -> str:
    """`text` with `{0}`, `{1}`... made the names of `seats`."""
    for index, seat in enumerate(seats):
        name = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
        text = text.replace("{" + str(index) + "}", name)
    return text


def hint_news(before: Sequence[int], now: Sequence[int], names: Sequence[str]) -> list[str]:
    """Who asked for a hint since the lobby said `before`, for everyone's log: nobody is
    fooled into thinking a bot's move was a person's own (PROTOCOL.md, "Hints")."""
    lines = []
    for seat, count in enumerate(now):
        asked = count - (before[seat] if seat < len(before) else 0)
        if asked > 0:
            name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
            lines.append(f"{name} asked for a hint" + (f" ({asked} times)" if asked > 1 else "")
                         + ".")
    return lines


def hints_offered(hints: bool, phase: str, seat: int | None, spectator: bool) -> bool:
    """Whether the hint's key works: the table offers hints (`lobby.hints`), a game runs, and
    this person holds a seat in it."""
    return hints and phase == "playing" and seat is not None and not spectator

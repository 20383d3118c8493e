"""The evening's record of a table that plays again: games played, wins per person and per
team, and the evening's games, each of which opens its replay (Enter)."""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static
from textual.widgets.option_list import Option

from tui.widgets.pick_list import PickList


def tally_text(evening: Sequence[dict[str, Any]],
               team_name: Callable[[str], str] = str.capitalize,
               label: str = "This evening") -> Text:
    """"This evening: 3 games · wins: Ann 2, Bob 1 · teams: ☂ Sherlock 2, ♠ Moriarty 1", each
    team in its game's words (`team_name`); a past evening's, with no `label`."""
    people: collections.Counter[str] = collections.Counter()
    teams: collections.Counter[str] = collections.Counter()
    for game in evening:
        people.update(str(name) for name in game.get("winners") or ())
        if game.get("team"):
            teams[str(game["team"])] += 1
    text = Text()
    count = len(evening)
    games = f"{count} game{'s' if count != 1 else ''}"
    text.append(f"{label}: {games}" if label else games, style="bold")
    if people:
        text.append(" · wins: " + ", ".join(f"{name} {n}" for name, n in people.most_common()))
    if teams:
        text.append(" · teams: " + ", ".join(f"{team_name(team)} {n}"
                                             for team, n in teams.most_common()))
    return text


class Evening(Vertical):
    DEFAULT_CSS = """
    Evening { height: auto; margin: 1 0 0 0; }
    Evening OptionList { height: auto; max-height: 6; border: none; padding: 0; }
    """

    @dataclass
    class Chosen(Message):
        """A game of the evening to watch again."""

        game: str

    def __init__(self, team_name: Callable[[str], str] = str.capitalize, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.games: list[dict[str, Any]] = []
        self.team_name = team_name

    def compose(self) -> ComposeResult:
        yield Static(id="evening-tally")
        # Its number or the arrows, then Enter, a click or a tap: that game's replay.
        yield PickList(id="evening-games", taken=self.chosen)

    def show(self, evening: Sequence[dict[str, Any]]) -> None:
        games = list(evening)
        if games == self.games:
            return
        self.games = games
        self.display = bool(games)
        self.query_one("#evening-tally", Static).update(tally_text(games, self.team_name))
        options = self.query_one(PickList)
        options.clear_options()
        options.add_options([
            Option(Text(f"{number}. {game.get('result', '')}"
                        + (f" ({', '.join(game.get('winners') or ())})"
                           if game.get("winners") else "")))
            for number, game in enumerate(games, 1)])
        options.rows_changed()

    @property
    def choices(self) -> PickList | None:
        """The games to watch again, once there is one."""
        return self.query_one(PickList) if self.games else None

    def chosen(self, index: int) -> None:
        self.post_message(self.Chosen(str(self.games[index]["game"])))

"""The body of Évolution's end screen: Time Bomb's, plus the bomb cards removed unseen (EV-24)."""

from __future__ import annotations

from typing import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tui.games.timebomb.ending import TimeBombEnding
from tui.games.timebomb.model import Ending
from tui.games.timebomb_evolution.model import COLOUR_STYLES, colour_name


class TimeBombEvolutionEnding(TimeBombEnding):
    DEFAULT_CSS = """
    TimeBombEvolutionEnding #ending-removed { content-align: center middle; height: auto; }
    """

    def __init__(self, ending: Ending, removed: Mapping[str, int]) -> None:
        super().__init__(ending)
        self.removed = removed

    def compose(self) -> ComposeResult:
        yield from super().compose()
        text = Text("Removed unseen: ")
        parts = [(c, n) for c, n in self.removed.items() if n]
        for i, (colour, count) in enumerate(parts):
            text.append(" · " if i else "")
            text.append(f"{count} ")
            text.append(colour_name(colour), style=COLOUR_STYLES.get(colour, ""))
        yield Static(text, id="ending-removed")

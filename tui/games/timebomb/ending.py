"""The body of Time Bomb's end screen: the winning team and why, every role, every wire left."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.games.timebomb.model import Ending


class TimeBombEnding(Vertical):
    DEFAULT_CSS = """
    TimeBombEnding { height: auto; }
    TimeBombEnding #ending-headline { text-style: bold; content-align: center middle;
                                      height: 3; border: heavy $accent; }
    TimeBombEnding #ending-reason { content-align: center middle; height: 1; }
    TimeBombEnding #ending-rule { content-align: center middle; height: auto; }
    TimeBombEnding #ending-last-cut { content-align: center middle; height: 1; }
    TimeBombEnding #ending-table { height: auto; margin: 1 0 0 0; }
    """

    def __init__(self, ending: Ending) -> None:
        super().__init__()
        self.ending = ending

    def compose(self) -> ComposeResult:
        ending = self.ending
        # Players' names are text, never markup: each line is a Text.
        yield Static(Text(ending.headline), id="ending-headline")
        yield Static(Text(ending.reason), id="ending-reason")
        if ending.rule:
            yield Static(Text(ending.rule, style="italic"), id="ending-rule")
        if ending.last_cut:
            yield Static(Text(ending.last_cut), id="ending-last-cut")
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        table.add_column("")
        table.add_column("Player")
        table.add_column("Role")
        table.add_column("Wires left face down")
        for row in ending.rows:
            table.add_row(
                Text("★ won" if row.won else "  lost", style="bold" if row.won else "dim"),
                Text(row.name),
                row.team,
                row.remaining,
            )
        if ending.set_aside:
            table.add_row("", Text("set aside", style="italic"), ending.set_aside, "")
        yield Static(table, id="ending-table")

"""About a game being replayed (`i` in the replay): who played each seat, the options, the
covers, and the moves a turn timer forced."""

from __future__ import annotations

import time
from typing import Any

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.catalogue import CATALOGUE
from tui.commands.game_options import options_text
from tui.models.seats import SeatInfo


def clock(stamp: Any) -> str:
    return time.strftime("%H:%M:%S", time.localtime(stamp)) if isinstance(stamp, (int, float)) \
        else "--:--:--"


class AboutScreen(ModalScreen[None]):
    """Who played each seat, the options, the covers, and the moves a turn timer forced."""

    DEFAULT_CSS = """
    AboutScreen { align: center middle; }
    AboutScreen > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                             border: thick $accent; background: $surface; padding: 0 1; }
    AboutScreen VerticalScroll { height: auto; max-height: 100%; }
    """
    BINDINGS = [Binding("escape", "close", "Close"), Binding("i", "close", "Close")]

    def __init__(self, about: dict[str, Any], seats: list[SeatInfo]) -> None:
        super().__init__()
        self.about = about
        self.seats = seats

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("About this game (Esc closes):")
            with VerticalScroll():
                yield Static(self.table())

    def table(self) -> Table:
        about = self.about
        names = [s["name"] for s in about.get("seats", [])]
        table = Table(show_header=False, box=None, expand=True, padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(ratio=1, overflow="fold")
        table.add_row("Table", f"{about.get('name', '')} · started {clock(about.get('started'))}")
        for seat in about.get("seats", []):
            kind = "bot" if seat["kind"] == "bot" else "person"
            table.add_row(f"Seat {seat['seat'] + 1}", f"{seat['name']} ({kind})")
        info = CATALOGUE.get(str(about.get("kind", "")))
        options = about.get("options") or {}
        table.add_row("Options", (options_text(info, options) if info else "") or "none")
        bots = f"{about.get('bot_level', '')}"
        timer = about.get("turn_timer") or 0
        table.add_row("Bots", bots + (f" · turn timer {timer} s" if timer else " · no turn timer"))
        for cover in about.get("covers", []):
            who = names[cover["seat"]] if cover["seat"] < len(names) else cover["seat"]
            by = "the turn timer" if cover["by"] == "timer" else "the table's host"
            table.add_row("Covered", f"a bot played for {who} from step {cover['from']} to "
                                     f"{cover['to']} (set on by {by})")
        forced = about.get("forced") or []
        table.add_row("Timer moves", ", ".join(f"step {s}" for s in forced) if forced
                      else "none: no move was forced by a turn timer")
        return table

    def action_close(self) -> None:
        self.dismiss(None)

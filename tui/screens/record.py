"""The group's record, from the lobby (Ctrl+E): past evenings, each table's games and who won
them, and for each game every player's games, wins by role and rating (issue 42).

All of it is made afresh from the games kept on this computer (the backend reads the kept
files: `Backend.past_evenings`, `Backend.group_record`), so it can always be made again and is
never a second truth. The ratings are OpenSkill's Plackett-Luce, mu ± sigma (the uncertainty);
people are told apart by the id their app proved at the table (`tui/commands/record.py` prints
the same standings).
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.catalogue import CATALOGUE
from tui.backend import Backend
from tui.models.standings import HEADER, standing_line
from tui.widgets.evening import tally_text

EVENINGS_SHOWN = 12
"""Past evenings listed: the newest."""


class RecordScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    RecordScreen { align: center middle; }
    RecordScreen > VerticalScroll { width: 100%; max-width: 110; height: 100%;
                                    border: thick $accent; background: $surface; padding: 0 1; }
    RecordScreen Static { height: auto; }
    """
    BINDINGS = [Binding("escape", "close", "Back")]

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend

    def compose(self) -> ComposeResult:
        box = VerticalScroll()
        box.border_title = "The group's record"
        box.border_subtitle = "↑↓ scroll · Esc back"
        with box:
            yield Static("Reading the games kept on this computer…", id="record-text")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
        self.make()

    @work(exclusive=True)
    async def make(self) -> None:
        evenings = await self.backend.past_evenings()
        record = await self.backend.group_record()
        you = f"person:{self.backend.person.id}"
        text = Text()
        if not evenings:
            text.append("No games kept yet: the games you play or watch are kept here as they "
                        "end, and the record is made from them.")
        else:
            text.append("Past evenings", style="bold underline")
            for evening in evenings[:EVENINGS_SHOWN]:
                info = CATALOGUE.get(evening.kind)
                text.append("\n" + evening.heading(info.title if info else evening.kind),
                            style="bold")
                text.append("\n  ")
                text.append_text(tally_text(evening.tally_games(), label=""))
            if len(evenings) > EVENINGS_SHOWN:
                text.append(f"\n+{len(evenings) - EVENINGS_SHOWN} earlier evenings")
        for kind, standings in record.games.items():
            info = CATALOGUE.get(kind)
            text.append(f"\n\n{info.title if info else kind}", style="bold underline")
            text.append(f"\n{HEADER}", style="dim")
            for standing in standings:
                text.append("\n" + standing_line(standing, self.backend.person.id),
                            style="bold" if standing.player == you else "")
        if record.problems:
            text.append("\n\nKept files that could not be read (they count for nothing):")
            for problem in record.problems:
                text.append(f"\n  {problem}")
        self.query_one("#record-text", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)

"""The seats of a table that has not started: who sits where, and what the host can do."""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.markup import escape
from textual.widgets import Static

from tui.models.seats import SeatInfo


class WaitingRoom(Static):
    DEFAULT_CSS = """
    WaitingRoom { height: 1fr; border: round $secondary; border-title-align: left;
                  padding: 0 1; }
    """

    def on_mount(self) -> None:
        self.border_title = "Waiting for players"
        self.update("Connecting to the table…")

    def show(
        self,
        lobby: dict[str, Any],
        seats: Sequence[SeatInfo],
        seat: int | None,
        is_host: bool,
        share: str | None = None,
        code: str | None = None,
    ) -> None:
        text = Text()
        free = sum(1 for s in seats if s.kind == "empty")
        for info in seats:
            you = " (you)" if info.seat == seat else ""
            text.append(f"{info.seat + 1}. ")
            if info.kind == "empty":
                text.append("— free seat —", style="italic dim")
            else:
                text.append(info.name + you, style="bold" if you else "")
                if info.status:
                    text.append(f"  {info.status}", style="italic")
            text.append("\n")
        text.append("\n")
        if share:
            text.append("Other players find this table in their lobby, or join it by address: ")
            text.append(share, style="bold")
            if code:
                text.append("\nThe first time they join this table, they type its code: ")
                text.append(code, style="bold")
            text.append("\n\n")
        if is_host:
            text.append("You host this table. ")
            text.append("Press Ctrl+S to start" + (" (bots fill the free seats)" if free else "") + ".")
            if free:
                text.append(" Press Ctrl+N to seat a bot.")
        elif seat is None:
            text.append("You are watching. The game starts when the host says so.")
        else:
            text.append(f"{free} free seat{'s' if free != 1 else ''}. The host starts the game.")
        self.border_title = f"{escape(str(lobby.get('name') or 'Table'))} · waiting for players"
        self.update(text)

"""The seats of a table that has not started: who sits where, who hosts, the game and its
options, and what the host can do. Every seated person sees it: a table of people starts when
its host says so, never by filling its last seat (PROTOCOL.md, "Starting a table").

The host's also shows a QR code of Gaslight's page for browsers when there is one (the app is
a page's, or its person serves one: `tui.serve.page_address`), beside the seats where the room
is wide enough, else under them: a guest with only a phone scans it, gives a name and finds
the table in the lobby. `?` shows it too."""

from __future__ import annotations

from typing import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.markup import escape
from textual.widgets import Static

from netplay import protocol as wire
from tui.models.seats import SeatInfo
from tui.models.table_setup import setup_lines
from tui.serve.page_address import page_address
from tui.widgets.qr_code import qr_text

SCAN = "A phone's camera opens Gaslight here:"
BESIDE = 36
"""Columns the seats keep when the code stands beside them; with less, it goes under."""


class WaitingRoom(Static):
    DEFAULT_CSS = """
    WaitingRoom { height: 1fr; border: round $secondary; border-title-align: left;
                  padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text: RenderableType = ""
        self.page: str | None = None
        """The address of Gaslight's page for browsers, shown as a QR code."""

    def on_mount(self) -> None:
        self.border_title = "Waiting for players"
        self.update("Connecting to the table…")

    def update(self, text: RenderableType = "", *, page: str | None = None) -> None:
        """Say `text` in the room, with the QR code of `page` if any."""
        self.text, self.page = text, page
        super().update(self.drawn())

    def drawn(self) -> RenderableType:
        if self.page is None:
            return self.text
        code = Group(Text(SCAN), qr_text(self.page))
        width = max(line.cell_len for line in qr_text(self.page).split())
        if self.content_size.width < BESIDE + 2 + width:
            return Group(self.text, Text(), code)
        beside = Table.grid(padding=(0, 1), pad_edge=False, expand=True)
        beside.add_column(ratio=1)
        beside.add_column(width=width)
        beside.add_row(self.text, code)
        return beside

    def on_resize(self) -> None:
        if self.page is not None:
            super().update(self.drawn())

    def show(
        self,
        lobby: wire.Lobby,
        seats: Sequence[SeatInfo],
        seat: int | None,
        is_host: bool,
        share: str | None = None,
        code: str | None = None,
    ) -> None:
        text = Text()
        free = sum(1 for s in seats if s.kind == "empty")
        host_seat = lobby.host_seat
        for info in seats:
            you = " (you)" if info.seat == seat else ""
            text.append(f"{info.seat + 1}. ")
            if info.kind == "empty":
                text.append("— free seat —", style="italic dim")
            else:
                text.append(info.name + you, style="bold" if you else "")
                if info.seat == host_seat:
                    text.append("  hosts", style="italic")
                if info.status:
                    text.append(f"  {info.status}", style="italic")
            text.append("\n")
        text.append("\n")
        for line in setup_lines(lobby):
            text.append(line + "\n")
        if share:
            text.append("Others find it in their lobby, or join at ")
            text.append(share, style="bold")
            if code:
                text.append(", with the code ")
                text.append(code, style="bold")
                text.append(" the first time")
            text.append(".\n")
        text.append("\n")
        text.append_text(self.next_step(lobby, seats, seat, is_host, free,
                                        touch=self.app.has_class("-touch")))
        self.border_title = f"{escape(lobby.name or 'Table')} · waiting for players"
        self.update(text, page=page_address() if is_host else None)

    @staticmethod
    def next_step(lobby: wire.Lobby, seats: Sequence[SeatInfo], seat: int | None,
                  is_host: bool, free: int, touch: bool = False) -> Text:
        """What happens next, and who makes it happen: the host's key named, or on a touch
        screen the button. `is_host`: this player holds the host's powers now (the host, or
        who takes over while it is away)."""
        seats_free = f"{free} free seat{'s' if free != 1 else ''}"
        if lobby.start_when_full:
            return Text(f"{seats_free}: the game starts once every seat is taken.")
        if is_host:
            start, add = ("tap Start game", "Add bot") if touch else ("press Ctrl+S", "Ctrl+N")
            text = Text("You host this table.\n")
            if not free:
                text.append(f"The table is full: {start} to start.", style="bold")
                return text
            text.append(f"{seats_free}. {start[0].upper()}{start[1:]} to start (bots fill the free "
                        f"seats), or {add} to seat a bot.")
            return text
        host = next((s.name for s in seats if s.seat == lobby.host_seat), "the host")
        acting = lobby.acting_host if lobby.acting_host is not None else lobby.host_seat
        starter = next((s.name for s in seats if s.seat == acting), host)
        who = f"{starter}, who hosts," if starter == host else f"{starter} ({host} is away)"
        if seat is None:
            return Text(f"You are watching.\nThe game starts when {who} says so.")
        full = "The table is full." if not free else f"{seats_free.capitalize()}."
        return Text(f"{full}\nThe game starts when {who} presses Ctrl+S.")

"""The base of every game's table widget, and the fallback for games without one yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from tui.models.seats import SeatInfo


class GameTable(Widget):
    """Renders one game's view for one viewer and turns the player's choices into actions.

    The table screen calls `show` after every `state` message and handles `ActionChosen` by
    sending the action to the host. A subclass offers only what `legal` holds: the client never
    needs the rules to know what may be done.
    """

    can_focus = False

    @dataclass
    class ActionChosen(Message):
        action: dict[str, Any]

    class SecretsToggled(Message):
        """The player hid or showed their secrets: the log must mask or unmask its events."""

    def private_events(self) -> frozenset[str]:
        """Event types the log must mask now, because the player hid their secrets."""
        return frozenset()

    def show(
        self,
        view: dict[str, Any],
        legal: list[dict[str, Any]],
        seat: int | None,
        seats: Sequence[SeatInfo],
    ) -> None:
        raise NotImplementedError

    def binding_state(self) -> tuple:
        """What this table's `check_action` depends on: the footer is redrawn when it changes."""
        return ()

    def status_line(self) -> str:
        """The game's state in one line for the status bar: round, turn, score."""
        return ""

    @classmethod
    def ending(
        cls, view: dict[str, Any], seat: int | None, seats: Sequence[SeatInfo]
    ) -> Widget:
        """The body of the end screen: who won and why, and everything revealed."""
        outcome = view.get("outcome") or {}
        return Static(str(outcome.get("text", "The game is over.")))


class UnsupportedTable(GameTable):
    """A game this client has no table for yet: say so instead of failing."""

    def compose(self) -> ComposeResult:
        yield Static("This client cannot draw this game's table yet.", id="unsupported")

    def show(self, view, legal, seat, seats) -> None:
        self.query_one("#unsupported", Static).update(
            f"This client cannot draw the table of {view.get('game')!r} yet."
        )

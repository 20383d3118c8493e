"""The base of every game's board, and the fallback for games without one yet.

What every game shares lives here, once: the view the board was last given and its legal
actions (the play screen keeps no copy of either: it reads them here), whose eyes the view is
through (its `viewer`), whether it is your turn, hiding your secrets from onlookers with Ctrl+E,
and whether you won. A game's subclass builds `self.model` from the view and draws it in
`redraw`; the model's `status_line` fills the rest of the status bar.

"Your turn" means one thing in every game and on every screen: the table waits on this seat
(it is in the view's `to_act`). It is no promise that the player may act: a replay's step has
no legal actions, and Time Bomb's claims are legal out of turn. What the player may do now is
what `legal` holds, and each game names that after what it is (`may_cut`, `choices`...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from engine.core import REFEREE
from tui.models.seats import SeatInfo
from tui.widgets.changed import retitle, update_changed
from tui.widgets.choice_panel import ChoicePanel
from tui.widgets.pick_list import PickList


MIN_DIALOG_ROWS = 6
"""The least a dialog is given: its borders, its question and a few of its choices."""


class GameBoard(Widget):
    """Renders one game's view for one viewer and turns the player's choices into actions.

    The play screen calls `show` after every `state` message and handles `ActionChosen` by
    sending the action to the host. A subclass offers only what `legal` holds: the client never
    needs the rules to know what may be done.
    """

    can_focus = False

    # Every game draws its board as panels: a rounded box titled on its top border. `-you`
    # marks the viewer's own secrets, `-your-turn` where the game waits on them, `-list` a
    # box around a list of players, which shows when it has the keyboard.
    DEFAULT_CSS = """
    GameBoard { height: 1fr; }
    GameBoard .panel { height: auto; border: round $secondary; border-title-align: left;
                       padding: 0 1; }
    GameBoard .panel.-you { border: round $primary; }
    GameBoard .panel.-hidden { color: $text-muted; }
    GameBoard .panel.-list { padding: 0; }
    GameBoard .panel.-list:focus-within { border: round $accent; }
    GameBoard .panel.-your-turn { border: round $warning; }
    """

    BINDINGS = [
        Binding("ctrl+e", "hide", "Hide", tooltip="Hide your hand and your private log lines from onlookers"),
        Binding("ctrl+e", "unhide", "Show", tooltip="Show your secrets again"),
    ]

    KEPT = ".-you, .-list"
    """The panels a dialog never squeezes out of view: your secrets and the players."""

    YOUR_TURN = "your turn"
    """The status bar's words when the game waits on this seat."""

    secret_hidden: reactive[bool] = reactive(False)
    """The player hid their secrets from onlookers: the board and the log mask them."""

    @dataclass
    class ActionChosen(Message):
        action: dict[str, Any]

    class SecretsToggled(Message):
        """The player hid or showed their secrets: the log must mask or unmask its events."""

    class ClaimPassed(Message):
        """The player let a deal's claim offer go: the bots need not wait for their claim
        (PROTOCOL.md, "Deals")."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.seats: Sequence[SeatInfo] = ()
        self.model: Any = None
        """What the game's `redraw` built from the view: its own model, with a `status_line`."""
        self.dialog: tuple[ChoicePanel, tuple[dict[str, Any], ...], Any, Callable[[], str]] | None
        self.kept_height = 0
        """Rows the `KEPT` panels take, as last laid out with no dialog open."""
        self.dialog_dock: Widget | None = None
        """Where its dialogs open (under the board, beside the chat): the board itself when
        its screen gives it no place."""
        self.dialog = None
        """The dialog open on this board, the actions it may answer, the round it was opened
        in, and what else makes it stale: a state that takes them all away closes it."""

    def show(
        self,
        view: dict[str, Any],
        legal: list[dict[str, Any]],
        seats: Sequence[SeatInfo],
    ) -> None:
        """A new view from the host: keep it, then let the game draw it. A view that moved
        the game on (new events, other legal actions) makes every choice on the board new:
        no key typed before it was drawn takes one (tui/README.md, "The table's keyboard")."""
        moved_on = self.view is None or legal != self.legal or len(view.get("events", ())) != len(
            self.view.get("events", ()))
        self.view, self.legal, self.seats = view, legal, seats
        self.redraw()
        self.close_stale_dialog()
        self.call_after_refresh(self.measure_kept)
        if moved_on:
            for choices in self.query(PickList):
                choices.rows_changed()
            if self.dialog is not None:
                self.dialog[0].choice_list.rows_changed()

    @property
    def seat(self) -> int | None:
        """The seat whose eyes the view is through; None for a spectator's or the referee's
        (a replay's "everything"). Read from the view itself, so it can never disagree with
        the view shown."""
        viewer = (self.view or {}).get("viewer")
        return viewer if isinstance(viewer, int) and viewer >= 0 else None

    def redraw(self) -> None:
        """Draw `self.view` for `self.seat`; called on every view and when secrets are hidden."""
        raise NotImplementedError

    def log_lines_before(self) -> dict[int, tuple[str, ...]]:
        """Hook: the game's own lines for the log, before the event at each index of the
        view's events. None here."""
        return {}

    def offer_due(self) -> None:
        """Hook: a view came, or a dialog closed: open what the game offers the player
        unasked (a claim at a deal) and could not open before. Nothing here."""

    # -- what every game shares ---------------------------------------------------------------

    @property
    def choices(self) -> PickList | None:
        """Where the keyboard picks now: the open dialog's choices, else the board's list."""
        if self.dialog is not None:
            return self.dialog[0].choice_list
        return next(iter(self.query(PickList)), None)

    def open_dialog(self, panel: ChoicePanel, answered: Callable[[Any], None],
                    actions: Sequence[dict[str, Any]],
                    stale: Callable[[], str] = lambda: "") -> None:
        """Open a dialog that answers with one of `actions` (or None), at the foot of the
        board. It never outlives the state it was made for: it closes, with a word why, when
        the game ends, a new round begins, none of its actions is legal any more, or `stale()`
        gives a reason. A dialog of this board still open gives way to it."""
        self.close_dialog("")
        self.dialog = (panel, tuple(actions), self.view.get("round") if self.view else None,
                       stale)

        def done(answer: Any) -> None:
            if self.dialog is not None and self.dialog[0] is panel:
                self.dialog = None
            panel.remove()
            self.dialog_changed()
            answered(answer)
            self.offer_due()

        panel.answered = done
        (self.dialog_dock if self.dialog_dock is not None else self).mount(panel)
        self.fit_dock()
        self.dialog_changed()

    def measure_kept(self) -> None:
        if self.dialog is None:
            self.kept_height = sum(panel.outer_size.height for panel in self.query(self.KEPT))

    def on_resize(self) -> None:
        self.call_after_refresh(self.measure_kept)
        self.fit_dock()

    def fit_dock(self) -> None:
        """The dialog takes the rows the kept panels leave it, and no fewer than a dialog
        needs: its choices scroll, and say what they have no room for."""
        dock = self.dialog_dock
        if dock is None or self.dialog is None:
            return
        column = self.size.height + dock.outer_size.height
        self.dialog[0].fit(max(MIN_DIALOG_ROWS, column - self.kept_height))

    def dialog_changed(self) -> None:
        """A dialog opened or closed: what may be pressed changed; the screen owns the
        footer."""
        update = getattr(self.screen, "update_bindings", None)
        (update or self.refresh_bindings)()

    def close_stale_dialog(self) -> None:
        if self.dialog is None or self.view is None:
            return
        panel, actions, round_, stale = self.dialog
        if self.over:
            reason = "the game is over"
        elif self.view.get("round") != round_:
            reason = "a new round has begun"
        elif not any(action in self.legal for action in actions):
            reason = "the game moved on"
        else:
            reason = stale()
        if reason:
            self.close_dialog(f"The dialog closed: {reason}.")

    def close_dialog(self, word: str) -> None:
        """Close this board's open dialog, if any, unanswered, saying `word` (nothing when
        empty)."""
        if self.dialog is None:
            return
        self.dialog[0].close(None)
        if word:
            self.notify(word, severity="warning", timeout=5)

    def send(self, action: dict[str, Any] | None) -> None:
        """A dialog's answer: the action to send, or None when the player cancelled."""
        if action is not None:
            self.post_message(self.ActionChosen(action))

    @property
    def over(self) -> bool:
        return self.view is not None and self.view.get("outcome") is not None

    @property
    def your_turn(self) -> bool:
        """The table waits on this seat: it is in the view's `to_act` (claims and other free
        actions do not count). The one meaning of "your turn", everywhere."""
        return (
            self.view is not None and not self.over and self.seat is not None
            and self.seat in self.view.get("to_act", ())
        )

    def name_of(self, seat: int) -> str:
        return self.seats[seat].name if 0 <= seat < len(self.seats) else f"Seat {seat + 1}"

    def turn_text(self) -> str:
        """Whose turn it is, for the status bar: the same rule in every game."""
        if self.view is None:
            return ""
        if self.over:
            return "game over"
        if self.your_turn:
            return self.YOUR_TURN
        waiting = list(self.view.get("to_act", ()))
        if not waiting:
            return ""
        if len(waiting) > 2:
            return f"waiting for {len(waiting)} players"
        return self.waiting_text(" and ".join(self.turn_name(s) for s in waiting))

    def turn_name(self, seat: int) -> str:
        """A name the game waits for, saying when a bot plays that seat for its player."""
        covered = 0 <= seat < len(self.seats) and self.seats[seat].covered
        return self.name_of(seat) + (" (bot playing)" if covered else "")

    def waiting_for_away(self) -> list[str]:
        """The names of the away players the game waits for, whom no bot covers yet."""
        if self.view is None or self.over:
            return []
        return [
            self.seats[s].name for s in self.view.get("to_act", ())
            if 0 <= s < len(self.seats) and self.seats[s].kind == "human"
            and not self.seats[s].connected and not self.seats[s].covered
        ]

    def waiting_text(self, names: str) -> str:
        """The status bar's words while the game waits on others, named in `names`."""
        return f"waiting for {names}"

    def status_line(self) -> str:
        """The game's state in one short line for the status bar: round, score."""
        status = getattr(self.model, "status_line", None)
        return status() if status else ""

    def you_won(self) -> bool | None:
        """At the end: whether this seat is among the winners; None for a spectator."""
        if not self.over or self.seat is None:
            return None
        return self.seat in self.view["outcome"].get("winners", ())

    def refusal(self, seat: int | None) -> str:
        """Why picking `seat` (None: no row) does nothing now, for a short notice."""
        if self.seat is None:
            return "You are watching: spectators cannot act."
        if self.over:
            return "The game is over."
        if not self.your_turn:
            return f"Not your turn: {self.turn_text()}."
        if seat is None:
            return "Pick a player first: arrows or a digit, then Enter."
        if self.view is not None and seat >= int(self.view.get("players", 0)):
            return f"There is no seat {seat + 1} at this table."
        if seat == self.seat:
            return "You cannot pick yourself now."
        return f"You cannot pick {self.name_of(seat)} now."

    @property
    def can_hide(self) -> bool:
        """Only a seat has secrets to hide."""
        return self.view is not None and self.seat is not None

    def binding_state(self) -> tuple:
        """What this board's `check_action` depends on: the footer is redrawn when it changes."""
        return (self.can_hide, self.secret_hidden, self.dialog is not None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hide":
            return self.can_hide and not self.secret_hidden
        if action == "unhide":
            return self.can_hide and self.secret_hidden
        return True

    def action_hide(self) -> None:
        self.secret_hidden = True

    def action_unhide(self) -> None:
        self.secret_hidden = False

    @property
    def sees_everything(self) -> bool:
        """The view is the referee's (a replay's "everything"): every hand and role in it."""
        return self.view is not None and self.view.get("viewer") == REFEREE

    def key_named(self, keys: str, action: str) -> str:
        """How the board's words name a key: as `keys` ("Ctrl+E"), or on a touch screen, which
        has no such key, as the button the bar of buttons shows for `action` ("the Show
        button")."""
        if not self.app.has_class("-touch"):
            return keys
        words = next(binding.description for bindings in self._bindings.key_to_bindings.values()
                     for binding in bindings if binding.action == action)
        return f"the {words} button"

    def show_secret(self, panel: Static, *, watching: str, hidden: str,
                    shown: Callable[[], RenderableType],
                    everything: Callable[[], RenderableType]) -> None:
        """Fill the panel of what only this seat knows: for a spectator, `watching` (what they
        will and will not see); through the referee's eyes, what `everything()` draws; while
        Ctrl+E hides it, `hidden`; else what `shown()` draws, built only then."""
        if self.seat is None:
            retitle(panel, "Everything revealed" if self.sees_everything else "Spectating")
            panel.set_class(False, "-hidden")
            update_changed(panel, everything() if self.sees_everything else watching)
            return
        retitle(panel, "You")
        panel.set_class(self.secret_hidden, "-hidden")
        update_changed(panel, hidden if self.secret_hidden else shown())

    def watch_secret_hidden(self) -> None:
        if self.view is not None:
            self.redraw()
        self.post_message(self.SecretsToggled())

    @staticmethod
    def team_name(team: str) -> str:
        """A team's (or side's) name for people, as the evening's tally counts its wins."""
        return team.replace("_", " ").capitalize()

    @classmethod
    def ending(
        cls, view: dict[str, Any], seat: int | None, seats: Sequence[SeatInfo]
    ) -> Widget:
        """The body of the end screen: who won and why, and everything revealed."""
        outcome = view.get("outcome") or {}
        return Static(str(outcome.get("text", "The game is over.")))


class UnsupportedBoard(GameBoard):
    """A game this client has no board for yet: say so instead of failing."""

    def compose(self) -> ComposeResult:
        yield Static("This client cannot draw this game's board yet.", id="unsupported")

    def redraw(self) -> None:
        self.query_one("#unsupported", Static).update(
            f"This client cannot draw the board of {self.view.get('game')!r} yet."
        )

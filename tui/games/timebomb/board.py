"""The Time Bomb board: your role and wires, the players, the revealed wires.

Built from `tui.games.timebomb.model`; only the targets in `legal` can be picked, and a cut is a
player, then one of their face-down wires (the wire's position carries no information, TB-5).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from tui.games.timebomb.model import (
    TimeBombModel,
    build_ending,
    build_model,
    claim_text,
    counts_text,
    describe_claim,
    team_label,
    wire_symbol,
    wire_word,
)
from tui.widgets.game_board import GameBoard
from tui.widgets.player_list import PlayerEntry, PlayerList, name_cell

TEAM_STYLES = {"sherlock": "bold dodger_blue1", "moriarty": "bold red1"}


class TargetList(PlayerList):
    """The players, where Enter means cutting a wire of the highlighted one."""

    BINDINGS = [
        Binding("enter", "select", "Cut", tooltip="Cut a wire of the highlighted player"),
        Binding("enter", "refuse", show=False),
    ]


class TimeBombBoard(GameBoard):
    DEFAULT_CSS = """
    TimeBombBoard #tb-players-head { height: 1; color: $text-muted; }
    TimeBombBoard TargetList, TimeBombBoard TargetList:focus { border: none; }
    TimeBombBoard #tb-revealed { height: 1fr; min-height: 3; }
    """

    BINDINGS = [
        Binding("ctrl+k", "claim", "Claim", tooltip="Claim in public what you hold (a bluff is fine)"),
    ]

    YOUR_TURN = "✂ your cut"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model: TimeBombModel | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="tb-secret", classes="panel -you")
            with Vertical(id="tb-players-box", classes="panel -list"):
                yield Static("", id="tb-players-head")
                yield TargetList(id="tb-players")
            yield from self.variant_panels()
            yield Static("", id="tb-revealed", classes="panel")

    def variant_panels(self) -> ComposeResult:
        """Hook: what a variant shows between the players and the revealed wires: nothing here."""
        return ()

    def refresh_variant(self) -> None:
        """Hook: redraw the variant's panels."""

    model_of = staticmethod(build_model)
    """Hook: the model of a view, for this game."""

    def on_mount(self) -> None:
        self.query_one("#tb-secret").border_title = "You"
        self.query_one("#tb-players-box").border_title = "Players"
        self.query_one("#tb-revealed").border_title = "Revealed wires"

    # -- rendering --------------------------------------------------------------------------

    def redraw(self) -> None:
        self.model = self.model_of(self.view, self.legal, self.seat, self.seats)
        self.refresh_secret()
        self.refresh_players()
        self.refresh_variant()
        self.refresh_revealed()

    def refresh_secret(self) -> None:
        if self.model is not None:
            self.show_secret(
                self.query_one("#tb-secret", Static),
                watching="You watch: roles and hands stay hidden until the end.",
                hidden="Role and wires hidden · Ctrl+E shows them",
                shown=self.secret_text,
            )

    def secret_text(self) -> Text:
        model = self.model
        text = Text("Role: ")
        text.append(f"{team_label(model.role)}'s team", style=TEAM_STYLES.get(model.role or "", ""))
        text.append("\nWires: ")
        text.append_text(self.wires_text(model.hand or {}))
        return text

    def wires_text(self, hand: dict[str, int]) -> Text:
        """Hook: a hand's wires, kind by kind."""
        return Text(counts_text(hand, self.model.kinds))

    def refresh_players(self) -> None:
        model = self.model
        if model is None:
            return
        wide = self.size.width >= 64
        width = 24 if wide else 16
        wires = "face-down wires" if wide else "wires"
        head = self.query_one("#tb-players-head", Static)
        head.update(f"  {'Player':<{width}}  {wires:<{16 if wide else 6}}revealed  claim")
        players = self.query_one(PlayerList)
        box = self.query_one("#tb-players-box")
        box.border_title = "Players · your cut: pick one" if model.your_turn else "Players"
        box.set_class(model.your_turn, "-your-turn")
        players.set_entries(
            PlayerEntry(row.seat, self.row_text(row, width, wide), row.target)
            for row in model.players
        )

    def on_resize(self) -> None:
        self.refresh_players()

    def row_text(self, row, width: int, wide: bool) -> Text:
        text = Text()
        text.append("✂ " if row.cutter else "  ", style="bold")
        text.append(name_cell(row.name, row.you, row.status, width),
                    style="bold" if row.you else "")
        if wide:  # room to lay the wires out, as on the table
            text.append(f"  {'▮' * row.face_down:<5} {row.face_down:>2}        ")
        else:
            text.append(f"  {row.face_down:>2}▮   ")
        text.append(f"{row.revealed:<8.8}  ")
        if row.claim != claim_text(None) and self.covered(row.seat):
            # The player did not say it: a narrow row has room for the slant only.
            text.append(row.claim, style="italic")
            text.append(" (bot's)" if wide else "", style="italic")
        else:
            text.append(row.claim)
        return text

    def covered(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].covered

    def refresh_revealed(self) -> None:
        model = self.model
        if model is None:
            return
        parts = []
        for kind in model.kinds:
            count = model.revealed_counts.get(kind, 0)
            if kind == "defusing":
                parts.append(f"{wire_symbol(kind)} {wire_word(kind)} {count}/{model.defusing_total}")
            elif kind == "bomb":
                parts.append(f"{wire_symbol(kind)} Bomb {'CUT' if count else 'hidden'}")
            else:
                parts.append(f"{wire_symbol(kind)} {wire_word(kind)} {count}")
        text = Text(" · ".join(parts))
        names = {p.seat: p.name for p in model.players}
        for wire in reversed(model.revealed):
            text.append(
                f"\nR{wire['round']}·{wire['cut']:<2} {names.get(wire['cutter'], '?')} ✂ "
                f"{names.get(wire['target'], '?')}: {wire_symbol(wire['wire'])} {wire_word(wire['wire'])}"
            )
        self.query_one("#tb-revealed", Static).update(text)

    def binding_state(self) -> tuple:
        model = self.model
        if model is None:
            return super().binding_state()
        return super().binding_state() + (model.your_turn, bool(model.claims))

    def waiting_text(self, names: str) -> str:
        return f"✂ {names} cuts"

    def refusal(self, seat: int | None) -> str:
        if seat is not None and seat == self.seat and self.your_turn:
            return "You cannot cut your own wires: pick another player."
        return super().refusal(seat)

    # -- acting -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        model = self.model
        if action == "claim":
            return bool(model and model.claims and not model.spectator)
        return super().check_action(action, parameters)

    def on_player_list_picked(self, event: PlayerList.Picked) -> None:
        event.stop()
        self.offer_wires(event.seat)

    def offer_wires(self, seat: int) -> None:
        from tui.games.timebomb.dialogs import CutScreen

        model = self.model
        if model is None or seat not in model.targets:
            return
        row = model.players[seat]

        def chosen(confirmed: bool | None) -> None:
            if confirmed:
                self.post_message(self.ActionChosen({"type": "cut", "target": seat}))

        self.open_dialog(CutScreen(row.name, row.face_down), chosen,
                         [{"type": "cut", "target": seat}])

    def action_claim(self) -> None:
        from tui.screens.action_picker import ActionPicker

        model = self.model
        if model is None or not model.claims:
            return
        self.open_dialog(
            ActionPicker("Claim, in public, what you hold. Nobody checks it: you may bluff.",
                         [(f"I hold {self.claim_words(c)}", c) for c in model.claims]),
            self.send, model.claims,
        )

    def claim_words(self, claim: dict) -> str:
        return describe_claim(claim)

    # -- the end ----------------------------------------------------------------------------

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        from tui.games.timebomb.ending import TimeBombEnding

        return TimeBombEnding(build_ending(view, seat, seats))

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
    TEAM_SYMBOLS,
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
from tui.games.terms import goal
from tui.widgets.changed import retitle, update_changed
from tui.widgets.choice_panel import Choice, ChoicePanel
from tui.widgets.game_board import GameBoard
from tui.widgets.player_list import PlayerEntry, PlayerList, name_cell

TEAM_STYLES = {"sherlock": "bold dodger_blue1", "moriarty": "bold red1"}

CLAIM_DOES = "Free: shown to everyone; nobody checks it."
"""What a claim costs and does (RULES.md, "Talk and claims"): the claim dialog's question."""


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
        self.offered_round: int | None = None
        """The round whose deal this player was offered a claim for: once a round."""
        self.dealt_round: int | None = None
        """The round this board saw dealt: its claim offer is due. Seen dealt: shown before
        any cut, or after a state of the round before (states may come coalesced). A board
        that arrives mid-round (a rejoin) offers none; Ctrl+K still claims."""
        self.seen_round: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="tb-secret", classes="panel -you")
            with Vertical(id="tb-players-box", classes="panel -list"):
                yield Static("", id="tb-players-head")
                yield TargetList(id="tb-players", picked=self.offer_wires, why=self.refusal)
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
                hidden=f"Role and wires hidden · {self.key_named('Ctrl+E', 'unhide')} shows them",
                shown=self.secret_text,
                everything=self.everything_text,
            )

    def everything_text(self) -> Text:
        """Through the referee's eyes: where each row shows its player's role and wires."""
        text = Text("Each row shows its player's team (")
        text.append_text(Text(", ").join(
            Text(team_label(team), style=TEAM_STYLES[team]) for team in TEAM_STYLES))
        text.append(") and wires face down.")
        if self.model.set_aside:
            text.append("\nSet aside: ")
            text.append(team_label(self.model.set_aside),
                        style=TEAM_STYLES.get(self.model.set_aside, ""))
        return text

    def secret_text(self) -> Text:
        model = self.model
        text = Text("Role: ")
        text.append(f"{team_label(model.role)}'s team", style=TEAM_STYLES.get(model.role or "", ""))
        text.append("\nWires: ")
        text.append_text(self.wires_text(model.hand or {}))
        text.append("\n" + goal(self.view["game"], self.view), style="italic")
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
        update_changed(head, f"  {'Player':<{width}}  {wires:<{16 if wide else 6}}revealed  claim")
        players = self.query_one(PlayerList)
        box = self.query_one("#tb-players-box")
        title = "Players"
        if self.your_cut:  # "pick one" only when there is one to pick: not in a replay
            title += " · your cut: pick one" if model.may_cut else " · your cut"
        retitle(box, title)
        box.set_class(self.your_cut, "-your-turn")
        players.set_entries(
            PlayerEntry(row.seat, self.row_text(row, width, wide), row.target)
            for row in model.players
        )

    def on_resize(self) -> None:
        self.refresh_players()

    def row_text(self, row, width: int, wide: bool) -> Text:
        # One line a player, whatever is appended: a row that wrapped would push the list's
        # last player out of its box.
        text = Text(no_wrap=True, overflow="ellipsis")
        cutter = "✂" if row.cutter else " "
        if row.team:  # every role revealed: the team's mark takes the space after the cutter's
            text.append(cutter, style="bold")
            text.append(TEAM_SYMBOLS.get(row.team, "?"), style=TEAM_STYLES.get(row.team, ""))
        else:
            text.append(cutter + " ", style="bold")
        text.append(name_cell(row.name, row.you, row.status, width),
                    style="bold" if row.you else "")
        if wide:  # room to lay the wires out, as on the table
            text.append(f"  {row.hand or '▮' * row.face_down:<5} {row.face_down:>2}        ")
        elif row.hand:
            text.append(f"  {row.hand:<6}")
        else:
            text.append(f"  {row.face_down:>2}▮   ")
        text.append(f"{row.revealed:<8.8}  ")
        claim = row.claim if wide or not row.short_claim else row.short_claim
        if row.claim != claim_text(None) and self.covered(row.seat):
            # The player did not say it: a narrow row has room for the slant only.
            text.append(claim, style="italic")
            text.append(" (bot's)" if wide else "", style="italic")
        else:
            text.append(claim)
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
        for wire in self.this_round(model):
            text.append(
                f"\nR{wire['round']}·{wire['cut']:<2} {names.get(wire['cutter'], '?')} ✂ "
                f"{names.get(wire['target'], '?')}: {wire_symbol(wire['wire'])} {wire_word(wire['wire'])}"
            )
        self.append_history(text, model)
        # The panel fills the rows left (1fr): its text never changes its size.
        update_changed(self.query_one("#tb-revealed", Static), text, layout=False)

    @staticmethod
    def this_round(model: TimeBombModel) -> list:
        """The wires cut in the round being played, newest first; earlier rounds, and every
        round once the game is over, read as each player's claim beside the wires cut from
        them (`model.history`)."""
        if model.over:
            return []
        return [w for w in reversed(model.revealed) if w["round"] == model.round]

    def log_lines_before(self) -> dict[int, tuple[str, ...]]:
        """Each past round's claims, beside the wires cut from their player, in the log just
        before the next deal: where a short board has no room left for them."""
        model = self.model
        if model is None or not model.history or self.view is None:
            return {}
        lines = {}
        for index, event in enumerate(self.view.get("events", ())):
            if event.get("type") == "deal" and int(event.get("round", 1)) > 1:
                ended = f"R{int(event['round']) - 1} "
                lines[index] = tuple(line for line in model.history if line.startswith(ended))
        return lines

    def append_history(self, text: Text, model: TimeBombModel) -> None:
        for line in model.history:
            text.append(("\n" if text.plain else "") + line)
        retitle(self.query_one("#tb-revealed"),
                "Revealed wires · past claims" if model.history else "Revealed wires")

    def binding_state(self) -> tuple:
        model = self.model
        if model is None:
            return super().binding_state()
        return super().binding_state() + (model.may_cut, bool(model.claims))

    @property
    def your_cut(self) -> bool:
        """Your turn, and the table waits on your cut: a variant may wait on something else
        at your turn (Évolution's decisions)."""
        return self.your_turn

    def waiting_text(self, names: str) -> str:
        return f"✂ {names} cuts"

    def refusal(self, seat: int | None) -> str:
        if seat is not None and seat == self.seat and self.your_cut:
            return "You cannot cut your own wires: pick another player."
        return super().refusal(seat)

    # -- acting -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        model = self.model
        if action == "claim":
            return bool(model and model.claims and not model.spectator)
        return super().check_action(action, parameters)

    def offer_wires(self, seat: int) -> None:
        """A player picked to cut: which of their face-down wires. Which one does not matter
        (TB-5), but it is the gesture of the game, and a moment to change one's mind."""
        model = self.model
        if model is None or seat not in model.targets:
            return
        row = model.players[seat]
        cut = {"type": "cut", "target": seat}
        self.open_dialog(
            ChoicePanel(f"✂ Cut one of {row.name}'s {row.face_down} face-down wires",
                        [Choice("▮", cut) for _ in range(row.face_down)],
                        question=self.cut_question(model),
                        hint="a digit or ↑↓, Enter: cut · Esc: cancel"),
            self.send, [cut])

    def cut_question(self, model: TimeBombModel) -> str:
        """Hook: what the wire cut may turn out to be, and what each would do (TB-8)."""
        return (f"◆: {model.defusing_found + 1} of {model.defusing_total} found · ✹: "
                "Moriarty's team wins at once · ○: nothing. They take the ✂ next.")

    def show(self, view, legal, seats) -> None:
        super().show(view, legal, seats)
        self.offer_due()

    def offer_due(self) -> None:
        """Right after each deal, offer this player their claim, the truth first: Enter says
        it, Esc skips it. The game never waits for it (claims are free actions), and a
        sentence being typed goes on into the chat beside it."""
        model = self.model
        if model is not None and (self.view.get("cuts") == 0 or (
                self.seen_round is not None and model.round > self.seen_round)):
            self.dealt_round = model.round
        if model is not None:
            self.seen_round = model.round
        if (model is None or model.spectator or model.over or not model.claims
                or model.claimed or self.dealt_round != model.round
                or self.offered_round == model.round):
            return
        if self.dialog is not None or not self.is_attached:
            return
        if getattr(model, "decisions", ()):  # the game waits on this player's choice first
            return
        self.offered_round = model.round
        self.action_claim(offer=True)

    def action_claim(self, offer: bool = False) -> None:
        model = self.model
        if model is None or not model.claims:
            return
        truth = model.truth
        choices = [
            Choice(self.claim_words(c) + (" ← true" if c == truth else ""),
                   c, number=self.claim_number(c))
            for c in model.claims
        ]
        title = "Claim what you hold (bluffing is fine)"
        if offer:
            title = f"Round {model.round} dealt: claim? (bluffing is fine)"
        hand = model.hand

        # The offer at a deal is low, to leave the table in sight; Ctrl+K's full dialog says
        # what a claim does.
        panel = ChoicePanel(
            title, choices, esc="No claim", compact=offer,
            question="" if offer else CLAIM_DOES,
            initial=model.claims.index(truth) if truth in model.claims else 0,
            hint="Enter: claim · a count or ↑↓ · Esc: none",
        )

        def answered(claim: dict | None) -> None:
            if panel.declined and offer:
                # No claim at this deal: the bots need not wait for one (PROTOCOL.md, "Deals").
                self.post_message(self.ClaimPassed())
            self.send(claim)

        self.open_dialog(
            panel, answered, model.claims,
            stale=lambda: "" if self.model is None or self.model.hand == hand
            else "a wire of yours was cut",
        )

    @staticmethod
    def claim_number(claim: dict) -> int:
        """The count a digit names a claim by: its Defusing wires ("3" is "I hold 3")."""
        return int(claim.get("defusing", 0))

    def claim_words(self, claim: dict) -> str:
        return describe_claim(claim)

    # -- the end ----------------------------------------------------------------------------

    team_name = staticmethod(team_label)

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        from tui.games.timebomb.ending import TimeBombEnding

        return TimeBombEnding(build_ending(view, seat, seats))

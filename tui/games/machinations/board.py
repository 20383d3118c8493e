"""The Moriarty's Machinations board: your role and what you learned, the players with their
used crew sizes, the scores, and the heist and vote histories.

Built from `tui.games.machinations.model`. A Proposer picks a crew seat by seat from the
player list: only seats that still lead to an eligible crew can be picked, and Ctrl+S proposes
once the pick is an eligible crew. Votes, heist cards and accusations are secret dialogs.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from engine.machinations.roles import TEAM_NAMES, role_name
from tui.games.machinations.model import (
    OTHERS_TURN,
    SHORT_ROLE_NAMES,
    YOUR_TURN,
    MachinationsModel,
    PlayerRow,
    build_model,
    ending_lines,
    role_with_team,
    team_word,
)
from tui.games.machinations.dialogs import (accuse_panel, card_panel, named_proposal,
                                            propose_panel, vote_panel)
from tui.games.terms import goal
from tui.widgets.changed import retitle, update_changed
from tui.widgets.game_board import GameBoard
from tui.widgets.player_list import PlayerEntry, PlayerList, fit_cells, name_cell


def accusation_verb(role: str | None, players: int) -> str:
    """What the accuser's choice is: Lestrade arrests, Jack murders (at 6 or more), and
    anyone else asked only names someone, so that nobody can tell Lestrade (MM-37)."""
    if role == "lestrade":
        return "Arrest"
    if role == "jack" and players >= 6:
        return "Murder"
    return "Name"


class CrewList(PlayerList):
    """The players, where Enter adds the highlighted one to your crew (or takes them off), or
    names them in an accusation."""

    BINDINGS = [
        Binding("enter", "select", "Pick", tooltip="Add or remove the highlighted player from "
                "your crew, or name them in your accusation"),
        Binding("enter", "refuse", show=False),
    ]


WIDE = 70
"""From this row width on, the players' rows have room for full role names."""


class MachinationsBoard(GameBoard):
    DEFAULT_CSS = """
    MachinationsBoard #mm-players-head { height: 1; color: $text-muted; }
    MachinationsBoard PlayerList, MachinationsBoard PlayerList:focus { border: none; }
    MachinationsBoard #mm-record { height: 1fr; min-height: 5; }
    """

    BINDINGS = [
        Binding("ctrl+t,f4", "vote", "Vote", tooltip="Vote on the proposed crew, in secret"),
        Binding("ctrl+k", "play", "Play card", tooltip="Play your heist card, face down"),
        Binding("ctrl+s", "propose", "Propose", tooltip="Propose the crew you picked"),
        Binding("ctrl+x", "clear_crew", "Clear", tooltip="Start the crew again"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model: MachinationsModel | None = None
        self.crew: frozenset[int] = frozenset()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="mm-secret", classes="panel -you")
            with Vertical(id="mm-players-box", classes="panel -list"):
                yield Static("", id="mm-players-head")
                yield CrewList(id="mm-players", picked=self.picked, why=self.refusal)
            with VerticalScroll(id="mm-record", classes="panel"):
                yield Static("", id="mm-record-text")

    def on_mount(self) -> None:
        self.query_one("#mm-secret").border_title = "You"
        self.query_one("#mm-players-box").border_title = "Players"
        self.query_one("#mm-record").border_title = "Heists and votes"

    # -- rendering --------------------------------------------------------------------------

    def redraw(self) -> None:
        self.model = build_model(self.view, self.legal, self.seat, self.seats)
        if not self.model.crews:
            self.crew = frozenset()
        self.refresh_secret()
        self.refresh_players()
        self.refresh_record()

    def on_resize(self) -> None:
        if self.model is not None:
            self.refresh_players()

    def refresh_secret(self) -> None:
        if self.model is not None:
            self.show_secret(
                self.query_one("#mm-secret", Static),
                watching="You watch: roles stay hidden until they are revealed.",
                hidden=f"Role hidden · {self.key_named('Ctrl+E', 'unhide')} shows it",
                shown=self.secret_text,
                everything=lambda: "Every player's role shows in their row below.",
            )

    def secret_text(self) -> Text:
        """Your role and how it wins; what you learned at the start, ◇ in its players' rows,
        is said here too where the line has room."""
        model = self.model
        text = Text("Role: ")
        text.append(role_with_team(model.role) if model.role else "?", style="bold")
        learned = " · ◇ what you learned"
        room = self.query_one("#mm-secret").content_size.width or 44
        if any(row.known for row in model.players) and text.cell_len + len(learned) <= room:
            text.append(learned)
        text.append("\n" + goal(self.view["game"], self.view), style="italic")
        return text

    def refresh_players(self) -> None:
        model = self.model
        if model is None:
            return
        wide = self.size.width - 2 >= WIDE
        name_width, sizes_width = (18, 12) if wide else (13, 9)
        update_changed(
            self.query_one("#mm-players-head", Static),
            f"  {'Player':<{name_width}} {'on crews of' if wide else 'crews of':<{sizes_width}} "
            f"{'now':<7} role")
        box = self.query_one("#mm-players-box")
        if model.crews:
            title = "Players · pick a crew, Ctrl+S proposes"
        elif model.targets:
            title = "Players · pick who you name, Enter"
        else:
            title = "Players"
        retitle(box, title)
        box.set_class(self.your_turn, "-your-turn")
        pickable = model.pickable_for_crew(self.crew) if model.crews else frozenset(model.targets)
        self.query_one(PlayerList).set_entries(
            PlayerEntry(row.seat, self.row_text(row, name_width, sizes_width, wide),
                        row.seat in pickable)
            for row in model.players
        )

    def row_text(self, row: PlayerRow, name_width: int, sizes_width: int, wide: bool) -> Text:
        text = Text()
        mark = "■ " if row.seat in self.crew else ("★ " if row.proposer else "  ")
        text.append(mark, style="bold")
        text.append(name_cell(row.name, row.you, row.status, name_width),
                    style="bold" if row.you else "")
        text.append(f" {fit_cells(row.sizes_text, sizes_width)} {row.waiting:<7} ")
        role_width = max(4, self.size.width - 2 - text.cell_len)
        if row.role:
            text.append(fit_cells(self.role_word(row.role, wide), role_width), style="bold")
        elif row.known and not self.secret_hidden:
            known = "/".join(self.role_word(r, False) for r in row.known)
            text.append(fit_cells("◇ " + known, role_width), style="italic")
        return text

    @staticmethod
    def team_name(team: str) -> str:
        return TEAM_NAMES.get(team, team)

    @staticmethod
    def role_word(role: str, wide: bool) -> str:
        return role_name(role) if wide else SHORT_ROLE_NAMES.get(role, role_name(role))

    def refresh_record(self) -> None:
        model = self.model
        if model is None:
            return
        text = Text()
        if model.proposal:
            text.append(model.proposal + "\n", style="bold")
        if model.my_choice:
            text.append(f"({model.my_choice})\n", style="italic")
        if self.crew and model.crews:
            names = [model.players[s].name for s in sorted(self.crew)]
            text.append(f"Your crew: {', '.join(names)} ({model.crew_verdict(self.crew)})\n")
        text.append("Heists", style="underline")
        text.append("\n" + ("\n".join(reversed(model.heists)) or "none yet"))
        text.append("\nVotes", style="underline")
        text.append("\n" + ("\n".join(reversed(model.votes)) or "none yet"))
        text.append("\nRoles in play", style="underline")
        text.append("\n" + model.composition)
        update_changed(self.query_one("#mm-record-text", Static), text)

    def binding_state(self) -> tuple:
        model = self.model
        if model is None:
            return super().binding_state()
        return super().binding_state() + (
            model.can_vote, bool(model.cards), bool(model.crews), bool(self.crew),
            self.eligible_pick())

    def turn_text(self) -> str:
        model = self.model
        if model is None or self.over:
            return super().turn_text()
        if self.your_turn:
            return YOUR_TURN.get(model.phase, self.YOUR_TURN)
        if model.phase == "proposal":
            return f"{model.proposer} proposes"
        waiting = super().turn_text()
        return f"{OTHERS_TURN.get(model.phase, model.phase)}: {waiting}" if waiting else ""

    def refusal(self, seat: int | None) -> str:
        model = self.model
        if model is not None and self.your_turn and not (model.crews or model.targets):
            if model.can_vote:
                return f"Your vote first: press {self.key_named('Ctrl+T', 'vote')}."
            if model.cards:
                return f"Your heist card first: press {self.key_named('Ctrl+K', 'play')}."
        if model is not None and model.crews and seat is not None and seat < len(model.players):
            return (f"{model.players[seat].name} cannot join this crew: no eligible crew of "
                    "this size has them with the players you picked.")
        return super().refusal(seat)

    # -- acting -----------------------------------------------------------------------------

    def eligible_pick(self) -> bool:
        model = self.model
        return bool(model and tuple(sorted(self.crew)) in model.crews)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        model = self.model
        if model is None and action in ("vote", "play", "propose", "clear_crew"):
            return False
        if model is None:
            return super().check_action(action, parameters)
        if action == "vote":
            return model.can_vote
        if action == "play":
            return bool(model.cards)
        if action == "propose":
            return self.eligible_pick()
        if action == "clear_crew":
            return bool(model.crews and self.crew)
        return super().check_action(action, parameters)

    def picked(self, seat: int) -> None:
        """A player taken from the list: into the crew or out of it, or named in an
        accusation."""
        model = self.model
        if model is None:
            return
        if model.crews:
            if seat in model.pickable_for_crew(self.crew):
                self.crew = self.crew ^ {seat}
                self.refresh_players()
                self.refresh_record()
                self.footer_changed()
        elif seat in model.targets:
            verb = accusation_verb(model.role, len(model.players))
            name = model.players[seat].name
            self.open_dialog(accuse_panel(seat, name, verb), self.send,
                             [a for a in self.legal_of("accuse") if a.get("target") == seat])

    def action_vote(self) -> None:
        if self.model and self.model.can_vote:
            self.open_dialog(vote_panel(self.model.proposal, self.model.streak,
                                        len(self.model.players)),
                             self.send, self.legal_of("vote"))

    def action_play(self) -> None:
        if self.model and self.model.cards:
            self.open_dialog(card_panel(self.model.cards), self.send, self.legal_of("play"))

    def action_propose(self) -> None:
        if not self.eligible_pick():
            return
        crew = sorted(self.crew)
        names = ", ".join(self.model.players[s].name for s in crew)
        panel = propose_panel(crew, names)
        self.open_dialog(panel, lambda answer: self.send(named_proposal(panel, answer)),
                         self.legal_of("propose"))

    def legal_of(self, kind: str) -> list[dict]:
        return [a for a in self.legal if a.get("type") == kind]

    def action_clear_crew(self) -> None:
        self.crew = frozenset()
        self.refresh_players()
        self.refresh_record()
        self.footer_changed()

    def footer_changed(self) -> None:
        """The crew pick changes what may be pressed; the play screen owns the footer."""
        update = getattr(self.screen, "update_bindings", None)
        (update or self.refresh_bindings)()

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        from rich.table import Table

        outcome = view.get("outcome") or {}
        roles = view.get("roles") or []
        winners = set(outcome.get("winners", ()))
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        for column in ("", "Player", "Role", "Team"):
            table.add_column(column)
        for s, role in enumerate(roles):
            won = s in winners
            table.add_row(Text("★ won" if won else "  lost", style="bold" if won else "dim"),
                          Text(seats[s].name if s < len(seats) else f"Seat {s + 1}"),
                          role_name(role), team_word(role))
        text = Text(str(outcome.get("text", "The game is over.")) + "\n", style="bold")
        for line in ending_lines(view, seats):
            text.append(line + "\n", style="")
        body = Vertical(Static(text), Static(table))
        body.styles.height = "auto"
        return body

"""The Moriarty's Machinations table: your role and what you learned, the players with their
used crew sizes, the scores, and the heist and vote histories.

Built from `tui.models.machinations`. A Proposer picks a crew seat by seat from the player list:
only seats that still lead to an eligible crew can be picked, and `s` proposes once the pick is
an eligible crew. Votes, heist cards and accusations are secret dialogs.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from engine.machinations.roles import role_name
from tui.models.machinations import MachinationsModel, build_model
from tui.models.seats import SeatInfo
from tui.widgets.game_table import GameTable
from tui.widgets.player_list import PlayerEntry, PlayerList

PRIVATE_EVENTS = frozenset({"role", "knowledge"})


class MachinationsTable(GameTable):
    DEFAULT_CSS = """
    MachinationsTable { height: 1fr; }
    MachinationsTable #mm-secret { height: auto; border: round $primary;
                                   border-title-align: left; padding: 0 1; }
    MachinationsTable #mm-secret.-hidden { color: $text-muted; }
    MachinationsTable #mm-players-box { height: auto; border: round $secondary;
                                        border-title-align: left; }
    MachinationsTable #mm-players-box.-your-turn { border: round $warning; }
    MachinationsTable #mm-players-head { height: 1; color: $text-muted; }
    MachinationsTable PlayerList, MachinationsTable PlayerList:focus { border: none; }
    MachinationsTable #mm-record { height: 1fr; min-height: 3; border: round $secondary;
                                   border-title-align: left; padding: 0 1; }
    """

    BINDINGS = [
        Binding("v", "vote", "Vote", tooltip="Vote on the proposed crew, in secret"),
        Binding("p", "play", "Play card", tooltip="Play your heist card, face down"),
        Binding("s", "propose", "Propose", tooltip="Propose the crew you picked"),
        Binding("x", "clear_crew", "Clear crew", tooltip="Start the crew again"),
        Binding("h", "hide", "Hide role", tooltip="Hide your role and what you learned"),
        Binding("h", "unhide", "Show role", tooltip="Show your role and what you learned"),
    ]

    secret_hidden: reactive[bool] = reactive(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model: MachinationsModel | None = None
        self.crew: frozenset[int] = frozenset()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="mm-secret")
            with Vertical(id="mm-players-box"):
                yield Static("", id="mm-players-head")
                yield PlayerList(id="mm-players")
            with VerticalScroll(id="mm-record"):
                yield Static("", id="mm-record-text")

    def on_mount(self) -> None:
        self.query_one("#mm-secret").border_title = "You"
        self.query_one("#mm-players-box").border_title = "Players"
        self.query_one("#mm-record").border_title = "Heists and votes"

    # -- rendering --------------------------------------------------------------------------

    def show(self, view, legal, seat, seats: Sequence[SeatInfo]) -> None:
        self.model = build_model(view, legal, seat, seats)
        if not self.model.crews:
            self.crew = frozenset()
        self.refresh_all()

    def refresh_all(self) -> None:
        self.refresh_secret()
        self.refresh_players()
        self.refresh_record()

    def refresh_secret(self) -> None:
        model = self.model
        secret = self.query_one("#mm-secret", Static)
        if model is None:
            return
        if model.spectator:
            secret.border_title = "Spectating"
            secret.update("You watch: roles stay hidden until they are revealed.")
            return
        secret.set_class(self.secret_hidden, "-hidden")
        if self.secret_hidden:
            secret.update("Role hidden · press h to show it")
            return
        text = Text("Role: ")
        text.append(role_name(model.role) if model.role else "?", style="bold")
        for line in model.knowledge:
            text.append("\n· " + line)
        secret.update(text)

    def refresh_players(self) -> None:
        model = self.model
        if model is None:
            return
        self.query_one("#mm-players-head", Static).update(
            f"    {'Player':<18} {'crew sizes':<12} {'now':<7} role")
        box = self.query_one("#mm-players-box")
        if model.crews:
            title = "Players · pick your crew, s to propose"
        elif model.targets:
            title = "Players · pick who you name"
        else:
            title = "Players"
        box.border_title = title
        box.set_class(model.your_turn, "-your-turn")
        pickable = model.pickable_for_crew(self.crew) if model.crews else frozenset(model.targets)
        self.query_one(PlayerList).set_entries(
            PlayerEntry(row.seat, self.row_text(row), row.seat in pickable)
            for row in model.players
        )

    def row_text(self, row) -> Text:
        text = Text()
        mark = "■ " if row.seat in self.crew else ("★ " if row.proposer else "  ")
        text.append(mark, style="bold")
        suffix = " (you)" if row.you else (f" · {row.status}" if row.status else "")
        name = row.name[: 18 - len(suffix)] + suffix
        text.append(f"{name:<18} ", style="bold" if row.you else "")
        text.append(f"{','.join(map(str, row.sizes)) or '-':<12} {row.waiting:<7} {row.role}")
        return text

    def refresh_record(self) -> None:
        model = self.model
        if model is None:
            return
        cops, robbers = model.scores
        text = Text(f"Cops {cops} · Robbers {robbers} · goal {model.threshold} · Proposer "
                    f"{model.proposer} · failed in a row {model.streak}/{len(model.players)}\n")
        if model.proposal:
            text.append(model.proposal + "\n", style="bold")
        if model.my_choice:
            text.append(f"({model.my_choice})\n", style="italic")
        if self.crew and model.crews:
            names = [model.players[s].name for s in sorted(self.crew)]
            ok = "eligible" if tuple(sorted(self.crew)) in model.crews else "not a legal crew yet"
            text.append(f"Your crew: {', '.join(names)} ({ok})\n")
        text.append("Heists\n", style="underline")
        text.append("\n".join(model.heists) or "none yet")
        text.append("\nVotes\n", style="underline")
        text.append("\n".join(reversed(model.votes)) or "none yet")
        text.append("\nRoles in play\n", style="underline")
        text.append(model.composition)
        self.query_one("#mm-record-text", Static).update(text)

    def watch_secret_hidden(self) -> None:
        self.refresh_secret()
        self.post_message(self.SecretsToggled())

    def binding_state(self) -> tuple:
        model = self.model
        if model is None:
            return ()
        return (model.can_vote, bool(model.cards), bool(model.crews), bool(self.crew),
                self.eligible_pick(), model.spectator, self.secret_hidden)

    def private_events(self) -> frozenset[str]:
        return PRIVATE_EVENTS if self.secret_hidden else frozenset()

    def status_line(self) -> str:
        model = self.model
        if model is None:
            return ""
        turn = "your turn" if model.your_turn else f"Proposer {model.proposer}"
        return f"{model.status_line()} · {'game over' if model.over else turn}"

    # -- acting -----------------------------------------------------------------------------

    def eligible_pick(self) -> bool:
        model = self.model
        return bool(model and tuple(sorted(self.crew)) in model.crews)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        model = self.model
        if model is None:
            return action not in ("vote", "play", "propose", "clear_crew", "hide", "unhide")
        if action == "vote":
            return model.can_vote
        if action == "play":
            return bool(model.cards)
        if action == "propose":
            return self.eligible_pick()
        if action == "clear_crew":
            return bool(model.crews and self.crew)
        if action == "hide":
            return not model.spectator and not self.secret_hidden
        if action == "unhide":
            return not model.spectator and self.secret_hidden
        return True

    def on_player_list_picked(self, event: PlayerList.Picked) -> None:
        event.stop()
        model = self.model
        if model is None:
            return
        if model.crews:
            if event.seat in model.pickable_for_crew(self.crew):
                self.crew = self.crew ^ {event.seat}
                self.refresh_players()
                self.refresh_record()
                self.footer_changed()
        elif event.seat in model.targets:
            from tui.screens.machinations_dialogs import AccuseScreen

            verb = "Murder" if model.role == "jack" else "Arrest"
            name = model.players[event.seat].name
            self.app.push_screen(AccuseScreen(event.seat, name, verb), self.send)

    def send(self, action: dict | None) -> None:
        if action is not None:
            self.post_message(self.ActionChosen(action))

    def action_vote(self) -> None:
        from tui.screens.machinations_dialogs import VoteScreen

        if self.model and self.model.can_vote:
            self.app.push_screen(VoteScreen(self.model.proposal), self.send)

    def action_play(self) -> None:
        from tui.screens.machinations_dialogs import CardScreen

        if self.model and self.model.cards:
            self.app.push_screen(CardScreen(self.model.cards), self.send)

    def action_propose(self) -> None:
        from tui.screens.machinations_dialogs import ProposeScreen

        if not self.eligible_pick():
            return
        crew = sorted(self.crew)
        names = ", ".join(self.model.players[s].name for s in crew)
        self.app.push_screen(ProposeScreen(crew, names), self.send)

    def action_clear_crew(self) -> None:
        self.crew = frozenset()
        self.refresh_players()
        self.refresh_record()
        self.footer_changed()

    def footer_changed(self) -> None:
        """The crew pick changes what may be pressed; the table screen owns the footer."""
        update = getattr(self.screen, "update_bindings", None)
        (update or self.refresh_bindings)()

    def action_hide(self) -> None:
        self.secret_hidden = True

    def action_unhide(self) -> None:
        self.secret_hidden = False

    @classmethod
    def ending(cls, view, seat, seats) -> Widget:
        outcome = view.get("outcome") or {}
        names = [s.name for s in seats]
        roles = view.get("roles") or []
        lines = [str(outcome.get("text", "The game is over.")), ""]
        winners = set(outcome.get("winners", ()))
        for s, role in enumerate(roles):
            name = names[s] if s < len(names) else f"Seat {s + 1}"
            lines.append(f"{name:<18} {role_name(role):<26} {'won' if s in winners else 'lost'}")
        return Static("\n".join(lines))

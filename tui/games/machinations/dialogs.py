"""Moriarty's Machinations' secret dialogs: the vote, the heist card, the proposal's name and
the accusation. Each returns the action to send, or None when cancelled."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from engine.machinations.cards import CARD_NAMES, CARDS, MAX_NAME

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 64; max-width: 100%; height: auto; border: thick $accent;
                     background: $surface; padding: 1 2; }}
{name} Input {{ width: 1fr; }}
{name} Horizontal {{ height: auto; width: auto; }}
{name} Button {{ margin: 0 1 0 0; }}
{name} .hint {{ color: $text-muted; margin: 1 0 0 0; }}
"""


class SecretDialog(ModalScreen[dict[str, Any] | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def action_cancel(self) -> None:
        self.dismiss(None)


class VoteScreen(SecretDialog):
    DEFAULT_CSS = DIALOG_CSS.format(name="VoteScreen")
    BINDINGS = [*SecretDialog.BINDINGS, Binding("a", "vote(True)", "Approve"),
                Binding("o", "vote(False)", "Object")]

    def __init__(self, proposal: str) -> None:
        super().__init__()
        self.proposal = proposal

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"{self.proposal}.\nYour vote stays secret until everyone has voted."))
            with Horizontal():
                yield Button("Approve", id="vote-approve", variant="success")
                yield Button("Object", id="vote-object", variant="error")
            yield Static("a Approve · o Object · Esc later", classes="hint")

    def action_vote(self, approve: bool) -> None:
        self.dismiss({"type": "vote", "approve": approve})

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_vote(event.button.id == "vote-approve")


class CardScreen(SecretDialog):
    """All three cards for every crew member (MM-20): the ones not legal are disabled."""

    DEFAULT_CSS = DIALOG_CSS.format(name="CardScreen")
    BINDINGS = [*SecretDialog.BINDINGS,
                Binding("left", "app.focus_previous", show=False),
                Binding("right", "app.focus_next", show=False),
                *(Binding(str(i + 1), f"card({i})", show=False) for i in range(3))]

    def __init__(self, legal_cards: tuple[str, ...]) -> None:
        super().__init__()
        self.legal_cards = legal_cards

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Play one heist card, face down. Nobody will ever know it was yours.")
            with Horizontal():
                for i, card in enumerate(CARDS):
                    yield Button(f"{i + 1} {CARD_NAMES[card]}", id=f"card-{card}",
                                 disabled=card not in self.legal_cards)
            yield Static("←/→ or 1-3, then Enter · Esc: later", classes="hint")

    def on_mount(self) -> None:
        next(b for b in self.query(Button) if not b.disabled).focus()

    def action_card(self, index: int) -> None:
        """A digit picks a card, as Tab would; Enter plays it."""
        card = CARDS[index]
        if card in self.legal_cards:
            self.query_one(f"#card-{card}", Button).focus()
        else:
            self.notify(f"You cannot play {CARD_NAMES[card]} on this heist.",
                        severity="warning", timeout=3)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss({"type": "play", "card": event.button.id.removeprefix("card-")})


class ProposeScreen(SecretDialog):
    """Name the heist (optional) and confirm the crew."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ProposeScreen")

    def __init__(self, crew: list[int], crew_text: str) -> None:
        super().__init__()
        self.crew = crew
        self.crew_text = crew_text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Propose the crew: {self.crew_text}"))
            yield Input(placeholder="Name the heist (optional)", max_length=MAX_NAME,
                        id="heist-name")
            yield Static("Enter to propose · Esc to go back", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss({"type": "propose", "name": event.value, "crew": list(self.crew)})


class AccuseScreen(SecretDialog):
    DEFAULT_CSS = DIALOG_CSS.format(name="AccuseScreen")
    BINDINGS = [*SecretDialog.BINDINGS, Binding("y", "confirm", "Confirm")]

    def __init__(self, target: int, target_name: str, verb: str) -> None:
        super().__init__()
        self.target = target
        self.target_name = target_name
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"{self.verb} {self.target_name}? Your choice stays secret until "
                              "both accusers have chosen."))
            with Horizontal():
                yield Button("Confirm", id="accuse-confirm", variant="warning")
                yield Button("Back", id="accuse-back")
            yield Static("y or Enter to confirm · Esc to go back", classes="hint")

    def action_confirm(self) -> None:
        self.dismiss({"type": "accuse", "target": self.target})

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "accuse-confirm":
            self.action_confirm()
        else:
            self.dismiss(None)

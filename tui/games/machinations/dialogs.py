"""Moriarty's Machinations' secret dialogs: the vote, the heist card, the proposal's name and
the accusation, each a `ChoicePanel` whose answer is the action to send (None: put off).

A letter never answers one (a sentence typed at the table is chat): a choice is its digit, the
arrows and Enter, a click or a tap.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from engine.machinations.cards import CARD_NAMES, CARDS, MAX_NAME
from tui.widgets.choice_panel import Choice, ChoicePanel


def vote_panel(proposal: str) -> ChoicePanel:
    return ChoicePanel(
        "Your vote (secret until all have voted)",
        [Choice("Approve", {"type": "vote", "approve": True}),
         Choice("Object", {"type": "vote", "approve": False})],
        question=f"{proposal}.", esc="Later",
    )


def card_panel(legal_cards: tuple[str, ...]) -> ChoicePanel:
    """All three cards for every crew member (MM-20): the ones not legal are shown, not
    offered."""
    first = next((n for n, card in enumerate(CARDS) if card in legal_cards), 0)
    return ChoicePanel(
        "Play one heist card, face down",
        [Choice(CARD_NAMES[card] + ("" if card in legal_cards else " (not on this heist)"),
                {"type": "play", "card": card}, enabled=card in legal_cards)
         for card in CARDS],
        question="Nobody will ever know it was yours.", esc="Later", initial=first,
    )


def propose_panel(crew: list[int], crew_text: str) -> ChoicePanel:
    """Name the heist (optional) and confirm the crew: the one dialog that asks for words, so
    what is typed while it is open goes into its name line."""
    name = Input(placeholder="Name the heist (optional)", max_length=MAX_NAME, id="heist-name",
                 select_on_focus=False)
    return ChoicePanel(
        "Propose the crew",
        [Choice("Propose this crew", {"type": "propose", "crew": list(crew)})],
        question=f"{crew_text}. Name the heist if you like:", field=name, esc="Back",
        hint="Enter: propose · Esc: back",
    )


def named_proposal(panel: ChoicePanel, answer: dict[str, Any] | None) -> dict[str, Any] | None:
    """The proposal as sent: with the name typed into the dialog's line."""
    if answer is None or panel.field is None:
        return answer
    return {**answer, "name": panel.field.value}


def accuse_panel(target: int, target_name: str, verb: str) -> ChoicePanel:
    return ChoicePanel(
        f"{verb} {target_name}?",
        [Choice(f"{verb} {target_name}", {"type": "accuse", "target": target}),
         Choice("Back", None)],
        question="Your choice stays secret until both accusers have chosen.", esc="Back",
    )

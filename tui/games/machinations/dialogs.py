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


def vote_panel(proposal: str, streak: int, players: int) -> ChoicePanel:
    """Approve or Object, each with what it does: a failed proposal adds to the streak that
    ends the game for the Cops (MM-14, MM-23)."""
    left = players - streak - 1
    fails = ("and the game ends: the Cops win" if left <= 0 else
             f"{streak + 1} of {players} failed in a row")
    return ChoicePanel(
        "Your vote (secret until all have voted)",
        [Choice("Approve: more than half approving sends the crew on the heist",
                {"type": "vote", "approve": True}),
         Choice(f"Object: if it fails, the next player proposes ({fails})",
                {"type": "vote", "approve": False})],
        question=f"{proposal}.", esc="Later",
    )


CARD_EFFECTS = {
    "abet": "helps the heist: with no Foil it scores for the Robbers",
    "foil": "the heist goes to the Cops, whoever plays it",
    "take_the_fall": "cancels one Foil; with none it counts as Abet (Brutus, once)",
}
"""What each heist card does (MM-20, MM-21)."""


def card_panel(legal_cards: tuple[str, ...]) -> ChoicePanel:
    """All three cards for every crew member (MM-20): the ones not legal are shown, not
    offered."""
    first = next((n for n, card in enumerate(CARDS) if card in legal_cards), 0)
    return ChoicePanel(
        "Play one heist card, face down",
        [Choice(f"{CARD_NAMES[card]}: {CARD_EFFECTS[card]}"
                + ("" if card in legal_cards else " (not on this heist)"),
                {"type": "play", "card": card}, enabled=card in legal_cards)
         for card in CARDS],
        question="Nobody will ever know it was yours.", esc="Later", initial=first,
    )


def propose_panel(crew: list[int], crew_text: str) -> ChoicePanel:
    """Name the heist (optional) and confirm the crew: the one dialog that asks for words, so
    what is typed while it is open goes into its name line. Its one choice is the crew picked
    on the board, as its question says."""
    name = Input(placeholder="Name the heist (optional)", max_length=MAX_NAME, id="heist-name",
                 select_on_focus=False)
    return ChoicePanel(
        "Propose the crew",
        [Choice("Propose this crew: everyone votes on it",
                {"type": "propose", "crew": list(crew)})],
        question=f"{crew_text}: the crew you picked (Esc goes back to change it). Name the "
                 "heist if you like:", field=name, esc="Back",
        hint="Enter: propose · Esc: back",
    )


def named_proposal(panel: ChoicePanel, answer: dict[str, Any] | None) -> dict[str, Any] | None:
    """The proposal as sent: with the name typed into the dialog's line."""
    if answer is None or panel.field is None:
        return answer
    return {**answer, "name": panel.field.value}


ACCUSATIONS = {
    "Arrest": "if they are Moriarty, the Cops win, unless Jack murders Sherlock",
    "Murder": "if they are Sherlock, the Robbers win, unless Lestrade arrests Moriarty",
    "Name": "only Lestrade's and Jack's choices count; yours is never shown",
}
"""What each accusation does (MM-32 to MM-34), by its verb."""


def accuse_panel(target: int, target_name: str, verb: str) -> ChoicePanel:
    return ChoicePanel(
        f"{verb} {target_name}?",
        [Choice(f"{verb} {target_name}: {ACCUSATIONS[verb]}", {"type": "accuse", "target": target}),
         Choice("Back", None)],
        question=f"You picked {target_name}; your choice stays secret until every accuser "
                 "has chosen.", esc="Back",
    )

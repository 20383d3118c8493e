"""A table driver for Moriarty's Machinations tests: rigged deals and one-line heists.

Seats in the rules' scenarios are S1..SN; here they are 0..N-1, so S1 is seat 0.
"""

from __future__ import annotations

from typing import Any, Iterable

import pytest

import engine
from engine.machinations.cards import ABET
from engine.machinations.game import Machinations
from engine.machinations.roles import COMPOSITIONS


class Rigged(Machinations):
    """A game dealt a chosen seat order of roles; the rng is drawn from exactly as in a deal,
    so the same seed gives the same first Proposer and everything after."""

    rigged_roles: tuple[str, ...] = ()

    def deal_roles(self) -> list[str]:
        super().deal_roles()
        return list(self.rigged_roles)


def rigged_game(
    roles: Iterable[str], options: dict[str, Any] | None = None, seed: int = 0
) -> Machinations:
    roles = tuple(roles)
    assert sorted(roles) == sorted(COMPOSITIONS[len(roles)]), "not the composition for N"
    cls = type("RiggedMachinations", (Rigged,), {"rigged_roles": roles})
    return cls(len(roles), options, seed)


class Table:
    """Drives a game through whole steps: a proposal, a vote, a heist, the accusations."""

    def __init__(self, game: Machinations):
        self.game = game

    @property
    def n(self) -> int:
        return self.game.players

    def seat(self, role: str) -> int:
        return self.game.roles.index(role)

    def propose(self, crew: Iterable[int], name: str = "", by: int | None = None) -> None:
        by = self.game.proposer if by is None else by
        self.game.apply(by, {"type": "propose", "name": name, "crew": list(crew)})

    def vote(self, approvers: Iterable[int]) -> None:
        approvers = set(approvers)
        for seat in range(self.n):
            self.game.apply(seat, {"type": "vote", "approve": seat in approvers})

    def play(self, cards: dict[int, str]) -> None:
        for seat, card in cards.items():
            self.game.apply(seat, {"type": "play", "card": card})

    def fail(self, crew: Iterable[int] | None = None) -> None:
        """A proposal everybody objects to; by default the first legal crew."""
        if crew is None:
            crew = self.game.legal_actions(self.game.proposer)[0]["crew"]
        self.propose(crew)
        self.vote(())

    def heist(self, crew: Iterable[int], cards: dict[int, str] | Iterable[str] | None = None,
              name: str = "") -> None:
        """An approved crew playing `cards` (by seat, or in crew order; Abet by default)."""
        crew = list(crew)
        self.propose(crew, name)
        self.vote(range(self.n))
        if cards is None:
            cards = {s: ABET for s in crew}
        elif not isinstance(cards, dict):
            cards = dict(zip(crew, cards))
        self.play(cards)

    def heist_to(self, team: str, crew: Iterable[int] | None = None) -> None:
        """A heist the team wins: one Foil for the Cops, all Abets for the Robbers."""
        if crew is None:
            crew = self.game.legal_actions(self.game.proposer)[0]["crew"]
        crew = list(crew)
        cards = {s: ABET for s in crew}
        if team == "cops":
            cards[crew[0]] = "foil"
        self.heist(crew, cards)

    def accuse(self, seat: int, target: int) -> None:
        self.game.apply(seat, {"type": "accuse", "target": target})


@pytest.fixture
def rig():
    """`rig(roles, options, seed)`: a Table over a game dealt exactly `roles`, seat by seat."""

    def make(roles, options=None, seed=0) -> Table:
        return Table(rigged_game(roles, options, seed))

    return make


@pytest.fixture
def new_table():
    """`new_table(players, options, seed)`: a Table over an ordinary random deal."""

    def make(players, options=None, seed=0) -> Table:
        return Table(engine.new_game("machinations", players, options, seed))

    return make

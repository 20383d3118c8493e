"""Helpers to arrange an Évolution game directly, then drive it through `apply`."""

from __future__ import annotations

import itertools
import random

import pytest

import engine
from engine.timebomb_evolution.game import TimeBombEvolution

SEATS = "ABCDEF"


class Table:
    """Arranges a game's state by hand: hands, revealed counts, wires on colours, round."""

    @staticmethod
    def new(players: int, variante: bool = True, colours=None, first: int = 0, seed: int = 0,
            **options) -> TimeBombEvolution:
        if colours is None:
            colours = list(("yellow", "blue", "red", "pink", "green", "orange")[:players])
        return engine.new_game(
            "timebomb_evolution",
            players,
            {"variante": variante, "colours": list(colours), "first_player": first, **options},
            seed,
        )

    @staticmethod
    def hold(game: TimeBombEvolution, seat: int, **counts: int) -> None:
        """Give `seat` exactly these face-down wires (by kind name), nothing else."""
        hand = [0] * len(game.kinds)
        for kind, count in counts.items():
            hand[game.kinds.index(kind)] = count
        game.hands[seat] = hand

    @staticmethod
    def reveal(game: TimeBombEvolution, **counts: int) -> None:
        """Set revealed(C) for these kinds, as if cut earlier."""
        for kind, count in counts.items():
            game.revealed_counts[game.kinds.index(kind)] = count

    @staticmethod
    def lay(game: TimeBombEvolution, colour: str, moved_apart: bool = False) -> int:
        """Add a revealed Defusing wire, on `colour` (or apart when None); return its number."""
        game.revealed_counts[game.defusing_index] += 1
        number = game.revealed_counts[game.defusing_index]
        game.defusing_wires.append(
            {"number": number, "round": game.round, "cut": 0, "cutter": 0, "target": 1,
             "on": colour, "moved_apart": moved_apart, "set_apart": colour is None and not moved_apart}
        )
        return number

    @staticmethod
    def cut(game: TimeBombEvolution, cutter: int, target: int, kind: str | None = None) -> None:
        """`cutter` cuts `target`; with `kind`, that target's hand is first made to hold it
        (the cut then draws it when the hand holds nothing else)."""
        assert game.to_act() == frozenset((cutter,)), (game.to_act(), cutter)
        if kind is not None:
            hand = game.hands[target]
            assert hand[game.kinds.index(kind)], f"seat {target} holds no {kind}"
            # Which of the target's wires a cut takes is random: rig it for this cut only.
            original = game.draw_wire

            def draw(t: int) -> int:
                game.draw_wire = original
                index = game.kinds.index(kind)
                game.hands[t][index] -= 1
                return index

            game.draw_wire = draw
        game.apply(cutter, {"type": "cut", "target": target})


    @staticmethod
    def next_number(game: TimeBombEvolution, number: int) -> None:
        """Arrange the state's rng so that the next Number card drawn is `number`."""
        for seed in itertools.count():
            rng = random.Random(seed)
            if int(rng.random() * game.players) == number:
                game.rng = random.Random(seed)
                return

    @staticmethod
    def act(game: TimeBombEvolution, seat: int, kind: str, **fields) -> None:
        assert game.to_act() == frozenset((seat,)), (game.to_act(), seat)
        game.apply(seat, {"type": kind, **fields})


@pytest.fixture
def table() -> type[Table]:
    return Table


def decisions(game: TimeBombEvolution, seat: int) -> list[dict]:
    """`seat`'s legal actions but claims, which are legal at any time (RULES.md, "Talk and claims")."""
    return [a for a in game.legal_actions(seat) if a["type"] != "claim"]

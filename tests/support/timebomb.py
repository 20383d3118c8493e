"""Helpers for Time Bomb tests: arrange a game's state, then drive it only through `apply`.

Hands are counts per kind in the engine's order (Safe, Defusing, Bomb). A test may set
`game.hands`, `game.cutter`, `game.round`, `game.cuts` and `game.revealed_counts` to reach a
position, then plays on through the public contract.
"""

from __future__ import annotations

import random

import engine
from engine.timebomb.game import TimeBomb

SAFE_I, DEFUSING_I, BOMB_I = 0, 1, 2


def new(players: int = 5, seed: int = 0, **options) -> TimeBomb:
    return engine.new_game("timebomb", players, options, seed)


def arrange(
    game: TimeBomb,
    hands: list[list[int]],
    *,
    cutter: int,
    round: int = 1,
    cuts: int = 0,
    revealed: list[int] | None = None,
) -> TimeBomb:
    """Put the game in a position. `revealed` defaults to whatever keeps wires conserved."""
    assert len(hands) == game.players
    game.hands = [list(hand) for hand in hands]
    game.cutter = cutter
    game.round = round
    game.cuts = cuts
    pool = game.build_wire_pool()
    if revealed is None:
        revealed = [pool[k] - sum(h[k] for h in hands) for k in range(len(pool))]
    game.revealed_counts = list(revealed)
    assert_conserved(game)
    return game


def assert_conserved(game: TimeBomb) -> None:
    pool = game.build_wire_pool()
    for kind in range(len(pool)):
        held = sum(hand[kind] for hand in game.hands)
        assert held + game.revealed_counts[kind] == pool[kind], (kind, game.hands, game)


def cut(game: TimeBomb, target: int) -> str:
    """The cutter cuts `target`; returns the revealed wire's kind."""
    game.apply(game.cutter, {"type": "cut", "target": target})
    return last_cut(game)


def last_cut(game: TimeBomb) -> str:
    return [e for e in game.events if e.type == "cut"][-1].data["wire"]


def cut_targets(game: TimeBomb, seat: int | None = None) -> list[int]:
    seat = game.cutter if seat is None else seat
    return [a["target"] for a in game.legal_actions(seat) if a["type"] == "cut"]


def snapshot(game: TimeBomb) -> tuple:
    """Everything an illegal action must leave alone."""
    return (game.view(engine.REFEREE), game.rng.getstate(), len(game.history))


class FirstKindFirst(random.Random):
    """A rigged generator whose `random()` is always 0: a cut then reveals the first kind the
    target holds, in the order Safe, Defusing, Bomb, so a scenario can name each reveal. Deals
    stay valid (every wire still lands in a free place), just not shuffled."""

    def random(self) -> float:
        return 0.0


def play_random(game: TimeBomb, rng: random.Random) -> None:
    bot = engine.GAMES["timebomb"].BOTS["random"]
    while game.outcome is None:
        seat = game.cutter
        game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))

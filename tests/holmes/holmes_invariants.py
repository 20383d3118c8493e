"""Random playouts that check the shared invariants at every step, and the information-set
perturbation. Used by tests/holmes/test_playouts.py and benchmarks/holmes_playouts.py."""

from __future__ import annotations

import copy
import itertools
import random

import msgpack

import engine
from engine.core import REFEREE, SPECTATOR
from engine.holmes.catalogue import DAYS, FIRST, SECOND, VILLAINS, WILDCARD
from holmes_support import check_conservation

OPTION_COMBOS = [
    {"alternative_start": a, "reserve_card": r, "villains": v, "first_player": f}
    for a, r, v, f in itertools.product(
        (False, True), (False, True), ("none", "moriarty", "moran", "both", "random_one"),
        ("random", "chosen"),
    )
]


def combo_id(options: dict) -> str:
    return "-".join(str(v) for v in options.values())


def snapshot(game) -> tuple:
    return msgpack.packb(game.view(REFEREE)), game.rng.getstate()


def illegal_variants(game, seat: int, legal: list[dict]) -> list[tuple[int, dict]]:
    """A few actions that must be refused: out of turn, malformed, or against the rules."""
    other = 1 - seat
    variants = [
        (seat, {"type": "teleport"}),
        (seat, {"type": "take", "slot": "0"}),
        (seat, {"type": "take", "slot": 9}),
        (seat, {"type": "move", "from": "moriarty", "to": "watson"}),
        (seat, {"type": "assign", "clue": "map"}),
        (seat, {"type": "steal", "card": WILDCARD}),
        (seat, {"type": "draw", "count": 4}),
        (seat, {**legal[0], "extra": 1}),
    ]
    if other not in game.to_act():
        variants.append((other, legal[0]))
    return [(s, a) for s, a in variants if s not in game.to_act() or a not in
            game.legal_actions(s)]


def run_playout(options: dict, seed: int, *, illegal_every: int = 7, branch_every: int = 0,
                replay: bool = True) -> engine.Game:
    """One random game from `seed`, checking every invariant; returns the finished game."""
    game = engine.new_game("holmes", 2, options, seed)
    rng = random.Random(seed * 7919 + 1)
    step = 0
    where = lambda: f"seed={seed} options={options} actions={game.history!r}"  # noqa: E731
    while game.outcome is None:
        waiting = sorted(game.to_act())
        assert waiting, "nobody to act: " + where()
        for seat in waiting:
            assert game.legal_actions(seat), "no legal action: " + where()
        seat = rng.choice(waiting)
        legal = game.legal_actions(seat)
        if illegal_every and step % illegal_every == 0:
            before = snapshot(game)
            for bad_seat, bad in illegal_variants(game, seat, legal):
                try:
                    game.apply(bad_seat, bad)
                except engine.IllegalAction:
                    pass
                else:
                    raise AssertionError(f"accepted illegal {bad!r} by {bad_seat}: " + where())
            # One comparison after all the refusals: the state only ever grows, so any change
            # by one of them would still show.
            assert snapshot(game) == before, "a refused action changed the state: " + where()
        if branch_every and step % branch_every == 0:
            for action in legal:
                copy.deepcopy(game).apply(seat, action)
        game.apply(seat, rng.choice(legal))
        check_conservation(game)
        step += 1
    assert game.day == DAYS
    assert [e.data["day"] for e in game.events if e.type == "day"] == list(range(1, DAYS + 1))
    outcome = game.outcome
    assert len(outcome.winners) <= 1 and outcome.winners <= {0, 1}
    assert outcome.teams == game.seat_teams() and sorted(outcome.teams) == [FIRST, SECOND]
    assert outcome.reason in ("score", "investigation_markers", "draw")
    assert not set(game.board) & set(VILLAINS)
    assert game.to_act() == frozenset() and game.legal_actions(0) == []
    if replay:
        again = engine.replay("holmes", 2, options, seed, game.history)
        assert snapshot(again) == snapshot(game), "replay differs: " + where()
    return game


def perturb_secrets(game, viewer: int, rng: random.Random) -> None:
    """Change everything `viewer` may not see, keeping every count and every public fact."""
    hidden_from = [s for s in (0, 1) if s != viewer]
    pool = game.deck + game.discard
    rng.shuffle(pool)
    game.deck, game.discard = pool[: len(game.deck)], pool[len(game.deck):]
    for seat in hidden_from:
        area = game.areas[seat]
        for i, card in enumerate(area.hidden):
            swap_with = [j for j, c in enumerate(game.deck) if c != WILDCARD and c != card]
            if swap_with:
                j = rng.choice(swap_with)
                area.hidden[i], game.deck[j] = game.deck[j], card
        for pending in game.queue:
            if pending.seat == seat and pending.drawn and game.deck:
                for i in range(len(pending.drawn)):
                    j = rng.randrange(len(game.deck))
                    pending.drawn[i], game.deck[j] = game.deck[j], pending.drawn[i]
            if pending.kind == "pick_start" and seat in pending.offers and game.char_deck:
                offer = pending.offers[seat]
                swappable = [j for j, c in enumerate(game.char_deck) if c not in VILLAINS]
                if swappable:
                    j = rng.choice(swappable)
                    old = offer[0]
                    offer[0], game.char_deck[j] = game.char_deck[j], old
                    if pending.picks.get(seat) == old:
                        pending.picks[seat] = offer[0]
    rng.shuffle(game.char_deck)
    if game.options["villains"] == "random_one" and not game.villains_drawn:
        game.char_deck = [
            (VILLAINS[1] if c == VILLAINS[0] else VILLAINS[0]) if c in VILLAINS else c
            for c in game.char_deck
        ]
    game.rng = random.Random(rng.random())


def check_information_sets(game, rng: random.Random) -> int:
    """Check every viewer; returns how many perturbations really changed a secret."""
    changed = 0
    for viewer in (0, 1, SPECTATOR):
        before = msgpack.packb(game.view(viewer))
        twin = copy.deepcopy(game)
        perturb_secrets(twin, viewer, rng)
        assert msgpack.packb(twin.view(viewer)) == before, (
            f"view({viewer}) depends on a secret: {game!r}"
        )
        changed += msgpack.packb(twin.view(REFEREE)) != msgpack.packb(game.view(REFEREE))
    return changed

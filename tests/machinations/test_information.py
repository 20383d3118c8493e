"""Who learns what in the Information Exchange (MM-9), per player count, and the
information-set invariance of every seat's view."""

from __future__ import annotations

import random

import msgpack
import pytest

import engine
from engine.machinations.cards import TAKE_THE_FALL
from engine.machinations.roles import (
    BRUTUS,
    IRENE,
    JACK,
    JUDGE,
    LESTRADE,
    MORAN,
    MORIARTY,
    MYCROFT,
    SHERLOCK,
    WATSON,
)

from support.random_sim import indistinguishable_roles

from .conftest import rigged_game

PAIR_LW = ("pair", LESTRADE, WATSON)

# What each role is shown at each count: ("id", role) or ("pair", role, role). Written out
# from the rules' MM-9 table, not computed, so the engine is checked against the text.
LEARNS = {
    5: {MORIARTY: [PAIR_LW], JUDGE: [], JACK: [], LESTRADE: [], WATSON: []},
    6: {MORIARTY: [("id", LESTRADE)], MORAN: [("id", MORIARTY)], JACK: [],
        SHERLOCK: [("id", LESTRADE)], LESTRADE: [], IRENE: [("id", SHERLOCK)]},
    7: {MORIARTY: [PAIR_LW], MORAN: [("id", MORIARTY)], JACK: [], BRUTUS: [],
        SHERLOCK: [("id", LESTRADE), ("id", WATSON), ("id", BRUTUS)], LESTRADE: [],
        WATSON: [("id", SHERLOCK)]},
    8: {MORIARTY: [PAIR_LW], MORAN: [("id", MORIARTY)], JACK: [], BRUTUS: [],
        SHERLOCK: [("id", LESTRADE), ("id", WATSON), ("id", BRUTUS)], LESTRADE: [],
        WATSON: [("id", SHERLOCK)], IRENE: [("id", SHERLOCK)]},
    9: {MORIARTY: [PAIR_LW], MORAN: [("id", MORIARTY)], JUDGE: [("id", BRUTUS)], JACK: [],
        BRUTUS: [], SHERLOCK: [("id", LESTRADE), ("id", WATSON), ("id", BRUTUS)],
        LESTRADE: [], WATSON: [("id", SHERLOCK)], MYCROFT: [("id", BRUTUS)]},
    10: {MORIARTY: [PAIR_LW], MORAN: [("id", MORIARTY)], JUDGE: [("id", BRUTUS)], JACK: [],
         BRUTUS: [], SHERLOCK: [("id", LESTRADE), ("id", WATSON), ("id", BRUTUS)],
         LESTRADE: [], WATSON: [("id", SHERLOCK)], MYCROFT: [("id", BRUTUS)],
         IRENE: [("id", SHERLOCK)]},
}


def _expected(game, role):
    seat_of = {r: s for s, r in enumerate(game.roles)}
    entries = []
    for form, *roles in LEARNS[game.players][role]:
        seats = sorted(seat_of[r] for r in roles)
        entries.append({"form": form, "seats": seats, "roles": roles})
    return entries


@pytest.mark.parametrize("n", range(5, 11))
def test_information_exchange_for_every_role(n):
    for seed in range(12):
        game = engine.new_game("machinations", n, {}, seed)
        assert set(LEARNS[n]) == set(game.roles)
        for seat, role in enumerate(game.roles):
            view = game.view(seat)
            assert view["knowledge"] == _expected(game, role), (n, seed, role)
            private = [e for e in view["events"] if e["type"] == "knowledge"]
            assert [e["knowledge"] for e in private] == [view["knowledge"]]
        # Nobody else, spectators included, sees another seat's Information Exchange.
        spectator = game.view(engine.SPECTATOR)
        assert "knowledge" not in spectator
        assert not [e for e in spectator["events"] if e["type"] in ("knowledge", "role")]
        for seat in range(n):
            mine = [e for e in game.view(seat)["events"] if e["type"] in ("knowledge", "role")]
            assert len(mine) == 2


def _pack(view):
    return msgpack.packb(view)


@pytest.mark.parametrize("n", range(5, 11))
@pytest.mark.parametrize("reveals", [True, False])
def test_view_is_identical_under_every_deal_the_seat_cannot_tell_apart(n, reveals):
    options = {"lestrade_reveals": reveals}
    for seat in range(n):
        seed = n * 100 + seat
        rng = random.Random(seed)
        original = engine.new_game("machinations", n, options, seed)
        # Roles revealed in the accusation phase are public then, so they stay in place.
        public = [original.roles.index(JACK)] if n >= 6 else []
        if reveals:
            public.append(original.roles.index(LESTRADE))
        other = rigged_game(indistinguishable_roles(original, seat, rng, public), options, seed)
        assert _pack(original.view(seat)) == _pack(other.view(seat))
        while original.outcome is None:
            actor = rng.choice(sorted(original.to_act()))
            legal = original.legal_actions(actor)
            if actor != seat:
                # Take the Fall is only legal for Brutus, who may sit elsewhere in `other`.
                legal = [a for a in legal if a.get("card") != TAKE_THE_FALL]
            action = rng.choice(legal)
            original.apply(actor, action)
            other.apply(actor, action)
            if original.outcome is None:
                assert _pack(original.view(seat)) == _pack(other.view(seat)), (
                    f"seat {seat} tells the deals apart: {original!r}")
                assert original.legal_actions(seat) == other.legal_actions(seat)

"""Secret-leak tests: votes, heist cards and accusation targets (MM-38, MM-39)."""

from __future__ import annotations

import random

import msgpack
import pytest

import engine
from engine.core import REFEREE_ONLY
from engine.machinations.cards import ABET, CARDS, FOIL
from engine.machinations.roles import COMPOSITIONS, COPS, JACK, LESTRADE

FIRST = {"first_proposer": 0, "accusation_trigger": "combined"}
"""Seat 0 proposes first, and the accusations come after few heists (the combined trigger)."""


def clone(game):
    """The same game rebuilt from its history (keeping a rigged deal's class)."""
    copy = type(game)(game.players, game.options, game.seed)
    for seat, action in game.history:
        copy.apply(seat, dict(action))
    return copy


def views(game, viewers):
    return {v: msgpack.packb(game.view(v)) for v in viewers}


def _random_prefix(n, seed, stop):
    """A random game run until `stop(game)` holds; None if it ended first."""
    rng = random.Random(seed)
    game = engine.new_game("machinations", n, {}, seed)
    while game.outcome is None and not stop(game):
        seat = rng.choice(sorted(game.to_act()))
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return None if game.outcome is not None else game


@pytest.mark.parametrize("n", range(5, 11))
def test_a_vote_is_invisible_to_others_until_every_vote_is_in(n):
    for seed in range(10):
        game = _random_prefix(n, seed, lambda g: g.phase == "vote" and len(g.votes) >= seed % n)
        if game is None:
            continue
        rng = random.Random(seed)
        # Every seat but the last voter: its vote must not change anyone else's view.
        while len(game.to_act()) > 1:
            voter = rng.choice(sorted(game.to_act()))
            approve, object_ = clone(game), clone(game)
            approve.apply(voter, {"type": "vote", "approve": True})
            object_.apply(voter, {"type": "vote", "approve": False})
            others = [engine.SPECTATOR, *(s for s in range(n) if s != voter)]
            assert views(approve, others) == views(object_, others), repr(approve)
            game.apply(voter, {"type": "vote", "approve": rng.random() < 0.5})
        last = next(iter(game.to_act()))
        game.apply(last, {"type": "vote", "approve": True})
        assert game.view(engine.SPECTATOR)["vote_history"][-1]["votes"][last] is True


@pytest.mark.parametrize("n", range(5, 11))
def test_a_heist_card_is_never_attributable_to_its_player(n):
    """Two members swapping the cards they played leaves every view and every event list the
    same, play order included, for everyone but the two; the two differ only in their own card,
    and the referee only in its lines of who played which (MM-38)."""
    for seed in range(10):
        rng = random.Random(seed)
        game = _random_prefix(n, seed, lambda g: g.phase == "heist" and not g.cards_in)
        if game is None:
            continue
        crew = list(game.proposal["crew"])
        order = rng.sample(crew, len(crew))
        a, b = order[0], order[-1]
        cards = {s: rng.choice((ABET, FOIL)) for s in crew}
        cards[a], cards[b] = FOIL, ABET
        swapped = {**cards, a: ABET, b: FOIL}
        first, second = clone(game), clone(game)
        for seat in order:
            first.apply(seat, {"type": "play", "card": cards[seat]})
            second.apply(seat, {"type": "play", "card": swapped[seat]})
        others = [engine.SPECTATOR, *(s for s in range(n) if s not in (a, b))]
        assert views(first, others) == views(second, others), repr(first)
        heist = [played.events[len(game.events):] for played in (first, second)]
        assert [{e.seats[0]: e.data["card"] for e in events if e.type == "played_card"}
                for events in heist] == [cards, swapped]
        unattributed = [[e.as_dict() for e in events if e.type != "played_card"]
                        for events in heist]
        assert unattributed[0] == unattributed[1]
        for seat in (a, b):
            mine_first, mine_second = first.view(seat), second.view(seat)
            assert mine_first["my_cards"] != mine_second["my_cards"]
            for key in ("my_cards", "my_card"):
                mine_first.pop(key), mine_second.pop(key)
            assert msgpack.packb(mine_first) == msgpack.packb(mine_second)


def test_no_event_ever_names_a_card_with_a_player():
    for n in range(5, 11):
        for seed in range(30):
            rng = random.Random(seed)
            game = engine.new_game("machinations", n, {}, seed)
            while game.outcome is None:
                seat = rng.choice(sorted(game.to_act()))
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            for event in game.events:
                if event.audience == REFEREE_ONLY:
                    continue  # the referee's eyes: who played which (MM-38)
                if event.type == "heist":
                    assert set(event.data["cards"]) == set(CARDS)  # counts only
                    continue
                text = event.text.lower()
                assert not any(word in text for word in ("abet", "foil", "take the fall")), event
                assert "card" not in event.data, event


@pytest.mark.parametrize("n", [5, 6, 8, 10])
@pytest.mark.parametrize("reveals", [True, False])
def test_an_accusers_target_stays_invisible_until_both_have_chosen(rig, n, reveals):
    table = rig(COMPOSITIONS[n], {**FIRST, "lestrade_reveals": reveals})
    heists = {5: 2, 6: 3, 8: 4, 10: 5}[n]
    for i in range(heists):
        table.heist_to(COPS if i % 2 else "robbers")
    game = table.game
    assert game.phase == "accusation"
    choosers = sorted(game.to_act())
    *early, last = choosers
    for chooser in early:
        targets = [t for t in range(n) if t != chooser][:2]
        one, two = clone(game), clone(game)
        one.apply(chooser, {"type": "accuse", "target": targets[0]})
        two.apply(chooser, {"type": "accuse", "target": targets[1]})
        others = [engine.SPECTATOR, *(s for s in range(n) if s != chooser)]
        assert views(one, others) == views(two, others)
        assert one.view(chooser)["my_target"] == targets[0]
        game.apply(chooser, {"type": "accuse", "target": targets[0]})
    game.apply(last, {"type": "accuse", "target": 0 if last else 1})
    view = game.view(engine.SPECTATOR)
    assert view["arrest"] is not None and (view["murder"] is not None) is (n >= 6)
    lestrade, jack = table.seat(LESTRADE), table.seat(JACK)
    assert view["arrest"] == game.targets[lestrade]
    if n >= 6:
        assert view["murder"] == game.targets[jack]


def test_with_lestrade_hidden_nobody_can_tell_lestrade_from_the_waiting_list(rig):
    table = rig(COMPOSITIONS[7], {**FIRST, "lestrade_reveals": False})
    for team in ("cops", "robbers", "cops"):
        table.heist_to(team)
    game = table.game
    assert game.phase == "accusation"
    assert game.to_act() == set(range(7))
    assert all(game.legal_actions(s) for s in range(7))


def test_the_referee_sees_each_vote_and_heist_card_as_it_is_made():
    """Issue 35: a replay through everything shows who played which heist card and every vote
    before the reveal, in lines no seat or spectator is sent (MM-38)."""
    rng = random.Random(3)
    game = engine.new_game("machinations", 7, {}, 3)
    votes = cards = 0
    while game.outcome is None:
        seat = rng.choice(sorted(game.to_act()))
        action = rng.choice(game.legal_actions(seat))
        before = len(game.events)
        game.apply(seat, action)
        said = [e for e in game.events[before:] if e.audience == REFEREE_ONLY]
        if action["type"] == "vote":
            votes += 1
            assert [(e.seats, e.data["approve"]) for e in said] == [((seat,), action["approve"])]
        elif action["type"] == "play":
            cards += 1
            assert [(e.seats, e.data["card"]) for e in said] == [((seat,), action["card"])]
        else:
            assert said == []
    assert votes and cards
    shown = [e for e in game.view(engine.REFEREE)["events"] if e["type"] in ("vote", "played_card")]
    assert len(shown) == votes + cards
    for viewer in (engine.SPECTATOR, *range(7)):
        assert not any(e["type"] in ("vote", "played_card") for e in game.view(viewer)["events"])

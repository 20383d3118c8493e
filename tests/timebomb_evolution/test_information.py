"""Information-set invariance: what a seat cannot see never shows in its view.

For many games stopped at random points, build a second state that differs only in what the
viewer cannot know: the other players' roles and the set-aside card permuted, and the other
players' face-down wires and the removed pile re-dealt (Defusing wires never removed, every
hand keeping its size). The viewer's msgpack-encoded view must be byte-identical, and a bot
given that view must choose the same action. The removed pile itself never shows in a view
before the end.
"""

from __future__ import annotations

import copy
import random

import msgpack
import pytest

import engine
from engine.timebomb_evolution.bots import BOTS

from support.random_sim import redeal_wires

GAME = "timebomb_evolution"


def copy_game(game):
    # Time Bomb's shared cache of event wording is not state: keep it out of the copy.
    cache = getattr(game, "_count_texts", None)
    return copy.deepcopy(game, {} if cache is None else {id(cache): cache})


def resample_hidden(game, viewer: int, rng: random.Random):
    """A copy of `game` with everything `viewer` cannot see dealt again, consistently."""
    other = copy_game(game)
    redeal_wires(other, viewer, rng)
    return other


def play_to(players: int, variante: bool, seed: int, stop: int):
    game = engine.new_game(GAME, players, {"variante": variante}, seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if game.outcome is not None:
            break
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        if rng.random() < 0.2 and game.pending is None:
            claimer = rng.randrange(players)
            claims = [a for a in game.legal_actions(claimer) if a["type"] == "claim"]
            if claims:
                game.apply(claimer, rng.choice(claims))
        game.apply(seat, rng.choice([a for a in legal if a["type"] != "claim"]))
    return game


@pytest.mark.parametrize("variante", [False, True], ids=["base", "variante"])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_views_are_invariant_under_what_the_viewer_cannot_see(players, variante):
    differed = 0
    for seed in range(120):
        rng = random.Random(seed)
        game = play_to(players, variante, seed, rng.randrange(40))
        if game.outcome is not None:
            continue
        for viewer in (engine.SPECTATOR, *range(players)):
            other = resample_hidden(game, viewer, rng)
            view = game.view(viewer)
            assert "removed" not in view
            assert msgpack.packb(view) == msgpack.packb(other.view(viewer)), (seed, viewer)
            if other.removed != game.removed or other.hands != game.hands:
                differed += 1
            if viewer >= 0 and viewer in game.to_act():
                legal = game.legal_actions(viewer)
                for name, bot in BOTS.items():
                    mine = bot(game.view(viewer), legal, random.Random(seed))
                    theirs = bot(other.view(viewer), other.legal_actions(viewer), random.Random(seed))
                    assert mine == theirs, (name, seed)
    assert differed > 100  # the resampling really changed hidden things


def test_the_removed_pile_shows_only_once_the_game_is_over_but_always_to_the_referee():
    for seed in range(40):
        game = engine.new_game(GAME, 5, {"variante": True}, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            for viewer in (engine.SPECTATOR, *range(5)):
                assert "removed" not in game.view(viewer)
            assert sum(game.view(engine.REFEREE)["removed"].values()) == 5
            (seat,) = game.to_act()
            game.apply(seat, rng.choice([a for a in game.legal_actions(seat) if a["type"] != "claim"]))
        for viewer in (engine.SPECTATOR, *range(5)):
            assert sum(game.view(viewer)["removed"].values()) == 5


def test_set_apart_lists_only_the_wires_that_lie_apart(table):
    game = table.new(5)
    # A Defusing wire that waits for its colour does not lie apart.
    table.reveal(game, red=1)
    table.hold(game, 1, defusing=2)
    table.cut(game, 0, 1)
    assert game.pending is not None and game.view(engine.SPECTATOR)["set_apart"] == []
    table.act(game, 0, "defuse", colour="red")
    assert game.view(engine.SPECTATOR)["set_apart"] == []
    # One that no colour can take does.
    table.hold(game, 2, defusing=1)
    table.cut(game, 1, 2)
    assert game.pending is None and game.view(engine.SPECTATOR)["set_apart"] == [2]
    # The last one wins the game; it lies nowhere apart.
    game.revealed_counts[game.defusing_index] = game.defusing_total - 1
    table.hold(game, 3, defusing=1)
    table.cut(game, 2, 3)
    view = game.view(engine.SPECTATOR)
    assert view["outcome"]["reason"] == "defused" and view["set_apart"] == [2]

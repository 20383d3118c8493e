"""The 'Test scenarios' of engine/timebomb/RULES.md, one test each.

Seats A, B, C... are 0, 1, 2... Positions are arranged directly, then played through `apply`.
"""

from __future__ import annotations

import random

import pytest
from support.timebomb import (
    FirstKindFirst,
    arrange,
    assert_conserved,
    cut,
    cut_targets,
    new,
    snapshot,
)

import engine
from engine.timebomb.game import MORIARTY, SHERLOCK

A, B, C, D, E = range(5)


def test_scenario_1_setup_at_4_and_7_players():
    four = new(4, seed=11)
    assert four.ROLE_DECKS[4] == (3, 2)
    assert len(four.roles) == 4 and four.set_aside is not None
    assert four.build_wire_pool() == [15, 4, 1]
    assert [sum(h) for h in four.hands] == [5] * 4
    view = four.view(engine.SPECTATOR)
    assert view["round_length"] == 4 and view["rounds"] == 4
    assert view["set_aside_count"] == 1
    assert all("set_aside" not in four.view(s) for s in range(4))
    # At most 16 cuts: every random game ends by then.
    bot = engine.GAMES["timebomb"].BOTS["random"]
    for seed in range(100):
        game = new(4, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            game.apply(game.cutter, bot(None, game.legal_actions(game.cutter), rng))
        assert len(game.view(engine.REFEREE)["revealed"]) <= 16
    seven = new(7, seed=11)
    assert seven.ROLE_DECKS[7] == (5, 3)
    assert len(seven.roles) == 7 and seven.set_aside is not None
    assert sum(seven.build_wire_pool()) == 35
    assert sum(map(sum, seven.hands)) == 35


def test_scenario_2_round_end_redeal_and_first_player():
    game = arrange(new(5, seed=4), [[0, 5, 0], [5, 0, 0], [5, 0, 0], [5, 0, 0], [4, 0, 1]],
                   cutter=A)
    game.rng = FirstKindFirst()  # each cut reveals the wire the scenario names
    assert cut(game, B) == "safe"
    assert cut(game, C) == "safe"
    assert cut(game, A) == "defusing"
    assert game.view(A)["defusing_found"] == 1
    assert cut(game, D) == "safe"
    assert game.round == 1
    assert cut(game, E) == "safe"
    # The round ended after the 5th cut with E holding the Wire Cutter.
    assert game.round == 2 and game.cuts == 0
    assert game.cutter == E and game.to_act() == {E}
    # The 20 face-down wires were dealt 4 each, and every player sees their new multiset.
    assert [sum(h) for h in game.hands] == [4] * 5
    assert sum(map(sum, game.hands)) == 20
    assert_conserved(game)
    for seat in range(5):
        view = game.view(seat)
        assert view["hand"] == dict(zip(("safe", "defusing", "bomb"), game.hands[seat]))
        assert [e for e in view["events"] if e["type"] == "hand"][-1]["hand"] == view["hand"]
    # The Defusing wire stays revealed.
    view = game.view(engine.SPECTATOR)
    assert view["defusing_found"] == 1
    assert [w["wire"] for w in view["revealed"]] == ["safe", "safe", "defusing", "safe", "safe"]


def test_scenario_3_cut_back_and_illegal_cuts():
    game = arrange(new(4, seed=2), [[5, 0, 0], [5, 0, 0], [3, 2, 0], [2, 2, 1]], cutter=A)
    cut(game, B)
    assert game.cutter == B
    before = snapshot(game)
    with pytest.raises(engine.IllegalAction, match="own wire"):
        game.apply(B, {"type": "cut", "target": B})
    assert snapshot(game) == before
    cut(game, A)  # B cuts A back
    assert game.cutter == A
    assert [(w["cutter"], w["target"]) for w in game.view(C)["revealed"]] == [(A, B), (B, A)]


def test_scenario_4_player_with_no_wires_round_4():
    game = arrange(new(5, seed=6), [[2, 0, 0], [2, 0, 0], [1, 1, 0], [1, 1, 0], [1, 0, 1]],
                   cutter=A, round=4)
    assert cut(game, B) == "safe"
    assert cut(game, A) == "safe"
    assert cut(game, B) == "safe"
    assert game.cutter == B and game.hands[B] == [0, 0, 0]
    assert game.to_act() == {B}
    assert cut_targets(game) == [A, C, D, E]
    cut(game, C)
    rng = random.Random(6)
    while game.outcome is None:
        targets = cut_targets(game)
        assert B not in targets
        with pytest.raises(engine.IllegalAction):
            game.apply(game.cutter, {"type": "cut", "target": B})
        cut(game, rng.choice(targets))


def test_scenario_4_player_with_no_wires_round_3():
    game = arrange(new(5, seed=6), [[3, 0, 0], [3, 0, 0], [1, 2, 0], [2, 1, 0], [2, 0, 1]],
                   cutter=A, round=3)
    for target in (B, A, B, A, B):
        assert cut(game, target) == "safe"
    # Round 3 ended with B at 0 wires holding the Wire Cutter.
    assert game.round == 4
    assert game.cutter == B
    assert [sum(h) for h in game.hands] == [2] * 5  # B too gets 2 wires at the redeal
    assert game.to_act() == {B}
    cut(game, A)
    assert game.view(C)["revealed"][-1] == {
        "round": 4, "cut": 1, "cutter": B, "target": A, "wire": game.view(C)["revealed"][-1]["wire"]
    }


@pytest.mark.parametrize(
    "last_wire, reason, team",
    [("defusing", "defused", SHERLOCK), ("safe", "time", MORIARTY), ("bomb", "bomb", MORIARTY)],
)
def test_scenario_5_last_defusing_wire_on_the_final_cut(last_wire, reason, team):
    b_hand = {"defusing": [0, 1, 0], "safe": [1, 0, 0], "bomb": [0, 0, 1]}[last_wire]
    # After 15 cuts: 5 wires face down, 3 of 4 Defusing wires found, the Bomb still hidden.
    rest = {"defusing": [[1, 0, 1], [2, 0, 0]], "safe": [[0, 1, 1], [2, 0, 0]],
            "bomb": [[1, 1, 0], [2, 0, 0]]}[last_wire]
    game = arrange(new(4, seed=1), [[0, 0, 0], b_hand, *rest], cutter=A, round=4, cuts=3)
    view = game.view(engine.SPECTATOR)
    assert view["defusing_found"] == 3 and view["revealed_counts"]["bomb"] == 0
    assert sum(view["revealed_counts"].values()) == 15
    assert cut(game, B) == last_wire
    assert game.outcome.reason == reason
    assert game.outcome.winning_team == team
    assert game.outcome.winners == {s for s, r in enumerate(game.roles) if r == team}


def test_scenario_6_bomb_mid_round():
    hands = [[3, 0, 0], [0, 0, 1], [4, 0, 0], [4, 0, 0], [3, 1, 0], [4, 0, 0]]
    game = arrange(new(6, seed=3), hands, cutter=A, round=2, cuts=1,
                   revealed=[23 - 18, 5, 0])
    assert game.view(A)["defusing_found"] == 5
    assert cut(game, B) == "bomb"
    assert game.outcome.reason == "bomb" and game.outcome.winning_team == MORIARTY
    assert game.to_act() == frozenset()
    for seat in range(6):
        assert game.legal_actions(seat) == []
    with pytest.raises(engine.IllegalAction, match="over"):
        game.apply(B, {"type": "cut", "target": A})


def test_scenario_7_end_reveal_at_7_players():
    # 27 cuts made (3 rounds of 7, then 6), none the Bomb, 5 of 7 Defusing wires found.
    hands = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 0, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0]]
    game = arrange(new(7, seed=8), hands, cutter=A, round=4, cuts=6)
    assert sum(game.revealed_counts) == 27
    assert cut(game, B) == "safe"
    assert game.outcome.reason == "time" and game.outcome.winning_team == MORIARTY
    for viewer in (*range(7), engine.SPECTATOR):
        view = game.view(viewer)
        assert len(view["roles"]) == 7 and view["roles"] == game.roles
        assert view["set_aside"] in (SHERLOCK, MORIARTY)
        face_down = view["hands"]
        assert sum(sum(h.values()) for h in face_down) == 7
        assert sum(h["bomb"] for h in face_down) == 1
        assert sum(h["defusing"] for h in face_down) >= 1
        assert face_down[C] == {"safe": 1, "defusing": 1, "bomb": 0}


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_scenario_8_always_a_target(players):
    rng = random.Random(players)
    for seed in range(300):
        game = new(players, seed)
        while game.outcome is None:
            targets = cut_targets(game)
            assert targets, game
            cut(game, rng.choice(targets))

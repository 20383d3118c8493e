"""One test per numbered rule of engine/timebomb/RULES.md (TB-1 to TB-17)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.timebomb import (
    BOMB_I,
    DEFUSING_I,
    SAFE_I,
    FirstKindFirst,
    arrange,
    assert_conserved,
    cut,
    cut_targets,
    new,
    play_random,
    snapshot,
)

import engine
from engine.timebomb.game import MORIARTY, SHERLOCK

ALL_N = [4, 5, 6, 7, 8]


def test_tb1_the_box_holds_8_roles_and_40_wires():
    game = new(8)
    sherlocks, moriartys = game.ROLE_DECKS[8]
    assert (sherlocks, moriartys) == (5, 3)
    assert game.build_wire_pool() == [31, 8, 1]
    view = game.view(engine.SPECTATOR)
    assert view["role_deck"] == {SHERLOCK: 5, MORIARTY: 3}
    assert view["wire_deck"] == {"safe": 31, "defusing": 8, "bomb": 1}
    # No player count uses more than the box holds.
    for n in ALL_N:
        assert sum(new(n).ROLE_DECKS[n]) <= 8
        assert sum(new(n).build_wire_pool()) <= 40


@pytest.mark.parametrize(
    "players, sherlocks, moriartys, set_aside",
    [(4, 3, 2, 1), (5, 3, 2, 0), (6, 4, 2, 0), (7, 5, 3, 1), (8, 5, 3, 0)],
)
def test_tb2_role_deck_deal_and_set_aside(players, sherlocks, moriartys, set_aside):
    for seed in range(30):
        game = new(players, seed)
        dealt = Counter(game.roles)
        assert len(game.roles) == players
        aside = [] if game.set_aside is None else [game.set_aside]
        assert len(aside) == set_aside
        assert dealt + Counter(aside) == Counter({SHERLOCK: sherlocks, MORIARTY: moriartys})
        # Each player sees their own role alone; Moriarty is never told its partners.
        for seat in range(players):
            view = game.view(seat)
            assert view["role"] == game.roles[seat]
            assert "roles" not in view and "set_aside" not in view
            roles_seen = [e for e in view["events"] if e["type"] == "role"]
            assert roles_seen == [
                {"type": "role", "text": roles_seen[0]["text"], "seats": [], "private": True,
                 "role": game.roles[seat]}
            ]
        assert game.view(engine.SPECTATOR)["set_aside_count"] == set_aside


@pytest.mark.parametrize("players", [4, 7])
def test_tb2_role_split_matches_the_rules_probabilities(players):
    # TB-2 table: at 4 players 2 Moriarty in play with p 3/5; at 7 players 3 with p 5/8.
    expected_full = {4: 3 / 5, 7: 5 / 8}[players]
    full_team = {4: 2, 7: 3}[players]
    deals = 20_000
    full = sum(
        Counter(new(players, seed).roles)[MORIARTY] == full_team for seed in range(deals)
    )
    assert abs(full / deals - expected_full) < 0.02
    # And every seat is equally likely to be Moriarty.
    per_seat = Counter()
    for seed in range(4000):
        for seat, role in enumerate(new(players, seed).roles):
            per_seat[seat] += role == MORIARTY
    mean = sum(per_seat.values()) / players
    assert all(abs(c - mean) / 4000 < 0.03 for c in per_seat.values())


@pytest.mark.parametrize("players", ALL_N)
def test_tb3_wire_deck_is_4n_minus_1_safe_n_defusing_1_bomb(players):
    game = new(players)
    assert game.build_wire_pool() == [4 * players - 1, players, 1]
    totals = [sum(hand[k] for hand in game.hands) for k in range(3)]
    assert totals == [4 * players - 1, players, 1]
    assert game.view(0)["defusing_total"] == players


@pytest.mark.parametrize("players", ALL_N)
def test_tb4_five_wires_each_the_whole_deck(players):
    for seed in range(20):
        game = new(players, seed)
        assert [sum(hand) for hand in game.hands] == [5] * players
        assert game.view(engine.SPECTATOR)["face_down"] == [5] * players


def test_tb4_deal_is_a_uniform_shuffle():
    # The Bomb lands in each of the 25 places equally often (a shuffled deck dealt out).
    holders = Counter()
    for seed in range(5000):
        game = new(5, seed)
        holders[next(s for s, h in enumerate(game.hands) if h[BOMB_I])] += 1
    assert all(abs(c / 5000 - 0.2) < 0.025 for c in holders.values())
    defusing = Counter(new(5, seed).hands[0][DEFUSING_I] for seed in range(5000))
    # Hypergeometric: P(no Defusing wire in 5 of 25 with 5 Defusing) = C(20,5)/C(25,5).
    assert abs(defusing[0] / 5000 - 15504 / 53130) < 0.025


def test_tb5_each_player_sees_their_hand_as_a_multiset_never_positions():
    game = new(5, seed=3)
    for seat in range(5):
        view = game.view(seat)
        hand = dict(zip(("safe", "defusing", "bomb"), game.hands[seat]))
        assert view["hand"] == hand
        seen = [e for e in view["events"] if e["type"] == "hand"]
        assert [e["hand"] for e in seen] == [hand]
        # Nothing position-like is ever in a view: hands are counts only.
        assert all(type(v) is int for v in view["hand"].values())
    # Another player's hand is never in a view, as a field or an event.
    for viewer in range(5):
        view = game.view(viewer)
        assert "hands" not in view
        assert all(e["type"] != "hand" or e["hand"] == view["hand"] for e in view["events"])


def test_tb6_first_player_random_by_default_or_chosen_by_the_host():
    firsts = Counter(new(5, seed).cutter for seed in range(2000))
    assert sorted(firsts) == [0, 1, 2, 3, 4]
    assert all(abs(c / 2000 - 0.2) < 0.04 for c in firsts.values())
    for seat in range(5):
        game = new(5, seed=9, first_player=seat)
        assert game.cutter == seat
        assert game.to_act() == {seat}
    with pytest.raises(engine.InvalidSetup):
        new(5, first_player=7)


def test_tb7_never_your_own_wire_and_cutting_back_is_legal():
    game = arrange(new(4), [[5, 0, 0], [5, 0, 0], [3, 2, 0], [2, 2, 1]], cutter=0)
    assert cut_targets(game) == [1, 2, 3]
    before = snapshot(game)
    with pytest.raises(engine.IllegalAction, match="own wire"):
        game.apply(0, {"type": "cut", "target": 0})
    assert snapshot(game) == before
    cut(game, 1)
    assert game.cutter == 1 and 0 in cut_targets(game)
    cut(game, 0)  # B cuts A back
    assert game.cutter == 0


def test_tb8_resolution_order():
    game = arrange(new(5), [[4, 0, 1], [0, 5, 0], [5, 0, 0], [5, 0, 0], [5, 0, 0]], cutter=0)
    # Step 1: anything but another player's face-down wire is refused and changes nothing.
    before = snapshot(game)
    for bad in (0, 5, -1, 99):
        with pytest.raises(engine.IllegalAction):
            game.apply(0, {"type": "cut", "target": bad})
        assert snapshot(game) == before
    # Step 2: reveal, log publicly, count the cut.
    assert cut(game, 1) == "defusing"
    log = game.view(engine.SPECTATOR)["revealed"]
    assert log == [{"round": 1, "cut": 1, "cutter": 0, "target": 1, "wire": "defusing"}]
    assert game.cuts == 1
    # Step 3: the defused count goes up; step 6: the target takes the Wire Cutter.
    assert game.view(engine.SPECTATOR)["defusing_found"] == 1
    assert game.cutter == 1
    # Step 5: a Safe wire has no effect but passing the cutter.
    assert cut(game, 2) == "safe"
    assert game.cutter == 2 and game.outcome is None
    # Step 7: the N-th cut of the round ends it.
    cut(game, 3)
    cut(game, 4)
    assert game.round == 1
    cut(game, 1)
    assert game.round == 2 and game.cuts == 0


def test_tb8_step3_the_last_defusing_wire_wins_at_once():
    game = arrange(new(4), [[5, 0, 0], [0, 1, 0], [5, 0, 0], [4, 0, 1]], cutter=0,
                   revealed=[1, 3, 0], cuts=1)
    cut(game, 1)
    assert game.outcome.reason == "defused"
    assert game.outcome.winning_team == SHERLOCK
    assert game.cutter == 0  # no pass after a winning cut


def test_tb8_step4_the_bomb_wins_for_moriarty():
    game = arrange(new(4), [[5, 0, 0], [0, 0, 1], [5, 0, 0], [4, 4, 0]], cutter=0,
                   revealed=[1, 0, 0], cuts=1)
    cut(game, 1)
    assert game.outcome.reason == "bomb"
    assert game.outcome.winners == {s for s, r in enumerate(game.roles) if r == MORIARTY}


def test_tb9_a_round_is_n_cuts_and_the_cutter_follows_the_cut():
    for players in ALL_N:
        game = new(players, seed=players)
        rng = random.Random(players)
        while game.round == 1 and game.outcome is None:
            target = rng.choice(cut_targets(game))
            cut(game, target)
            if game.outcome is None and game.round == 1:
                assert game.cutter == target
        if game.outcome is None:
            assert len(game.view(engine.SPECTATOR)["revealed"]) == players
    assert new(6).view(engine.SPECTATOR)["round_length"] == 6


@pytest.mark.parametrize("players", ALL_N)
def test_tb10_hand_sizes_by_round(players):
    seen = set()
    for seed in range(200):
        game = new(players, seed)
        rng = random.Random(seed)
        bot = engine.GAMES["timebomb"].BOTS["random"]
        rounds_seen = {1}
        assert sum(map(sum, game.hands)) == 5 * players
        while game.outcome is None:
            game.apply(game.cutter, bot(None, game.legal_actions(game.cutter), rng))
            if game.outcome is None and game.round not in rounds_seen:
                rounds_seen.add(game.round)
                size = 6 - game.round
                assert [sum(h) for h in game.hands] == [size] * players
                assert sum(map(sum, game.hands)) == size * players
                seen.add(game.round)
        if game.outcome.reason == "time":
            assert sum(map(sum, game.hands)) == players
    assert seen == {2, 3, 4}


def test_tb11_between_rounds_face_down_wires_are_gathered_and_dealt_again():
    game = arrange(new(5, seed=1), [[5, 0, 0], [4, 0, 1], [0, 5, 0], [5, 0, 0], [5, 0, 0]],
                   cutter=0)
    for target in (3, 4, 2, 0, 3):
        cut(game, target)
    assert game.round == 2
    view = game.view(engine.SPECTATOR)
    assert view["face_down"] == [4] * 5
    assert view["revealed_counts"] == {"safe": 4, "defusing": 1, "bomb": 0}
    assert len(view["revealed"]) == 5  # revealed wires stay in the centre
    assert_conserved(game)
    # Each player is shown their new hand, privately.
    for seat in range(5):
        hands = [e["hand"] for e in game.view(seat)["events"] if e["type"] == "hand"]
        assert len(hands) == 2 and hands[-1] == game.view(seat)["hand"]
    # The redeal mixes wires between players: over many seeds, seat 2's 4 Defusing wires
    # are spread out again.
    spread = Counter()
    for seed in range(300):
        g = arrange(new(5, seed), [[5, 0, 0], [4, 0, 1], [0, 5, 0], [5, 0, 0], [5, 0, 0]],
                    cutter=0)
        for target in (3, 4, 2, 0, 3):
            cut(g, target)
        spread[g.hands[2][DEFUSING_I]] += 1
    assert spread[4] < 30


def test_tb12_the_cutter_at_the_round_end_starts_the_next_round():
    game = arrange(new(5), [[5, 0, 0], [5, 0, 0], [5, 0, 0], [4, 0, 1], [0, 5, 0]], cutter=0)
    for target in (1, 2, 0, 2, 1):
        cut(game, target)
    assert game.round == 2
    assert game.cutter == 1 and game.to_act() == {1}
    deal = [e for e in game.view(engine.SPECTATOR)["events"] if e["type"] == "deal"][-1]
    assert deal["seats"] == [1] and deal["round"] == 2


def test_tb13_win_checks_defused_bomb_and_time():
    # (a) and (b) are covered by the TB-8 tests; (c): the 4N-th cut ends round 4.
    game = arrange(new(4), [[1, 0, 0], [2, 0, 0], [0, 1, 1], [1, 0, 0]], cutter=0, round=4,
                   cuts=2)
    assert game.view(0)["defusing_found"] == 3
    cut(game, 1)
    assert game.outcome is None
    cut(game, 0)
    assert game.outcome.reason == "time"
    assert game.outcome.winning_team == MORIARTY
    assert sum(map(sum, game.hands)) == 4
    assert game.hands[2] == [0, 1, 1]


def test_tb14_the_last_defusing_wire_on_the_final_cut_wins_for_sherlock():
    game = arrange(new(4), [[0, 0, 0], [0, 1, 0], [1, 0, 1], [2, 0, 0]], cutter=0, round=4,
                   cuts=3)
    assert cut(game, 1) == "defusing"
    assert game.outcome.reason == "defused"
    assert game.outcome.winning_team == SHERLOCK


def test_tb15_the_end_reveals_roles_set_aside_and_face_down_wires():
    game = new(7, seed=5)
    assert all("roles" not in game.view(s) for s in range(7))
    play_random(game, random.Random(5))
    for viewer in (*range(7), engine.SPECTATOR):
        view = game.view(viewer)
        assert view["roles"] == game.roles
        assert view["set_aside"] == game.set_aside in (SHERLOCK, MORIARTY)
        assert view["hands"] == [dict(zip(("safe", "defusing", "bomb"), h)) for h in game.hands]
        assert view["outcome"]["teams"] == game.roles


def test_tb16_a_player_with_no_wires_still_cuts_and_cannot_be_targeted():
    game = arrange(new(5), [[2, 0, 0], [2, 0, 0], [1, 1, 0], [1, 1, 0], [1, 0, 1]], cutter=0,
                   round=4)
    cut(game, 1)
    cut(game, 0)
    cut(game, 1)
    assert game.hands[1] == [0, 0, 0] and game.to_act() == {1}
    assert cut_targets(game) == [0, 2, 3, 4]
    cut(game, 2)
    assert 1 not in cut_targets(game)
    before = snapshot(game)
    with pytest.raises(engine.IllegalAction, match="no face-down wire"):
        game.apply(game.cutter, {"type": "cut", "target": 1})
    assert snapshot(game) == before


@pytest.mark.parametrize("players", ALL_N)
def test_tb17_a_legal_target_always_exists(players):
    bot = engine.GAMES["timebomb"].BOTS["random"]
    for seed in range(150):
        game = new(players, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            k = 6 - game.round
            others = sum(map(sum, game.hands)) - sum(game.hands[game.cutter])
            assert others >= (players - 1) * (k - 1) >= players - 1
            assert cut_targets(game)
            game.apply(game.cutter, bot(None, game.legal_actions(game.cutter), rng))


# -- claims (RULES.md, Talk and claims) -----------------------------------------------------------------------


def test_claims_are_public_free_and_never_change_the_game():
    game = arrange(new(5, seed=2), [[5, 0, 0], [3, 2, 0], [5, 0, 0], [4, 0, 1], [2, 3, 0]],
                   cutter=0)
    claim = {"type": "claim", "defusing": 2, "bomb": 0}
    assert claim in game.legal_actions(1)  # any seat, not only the cutter
    before = game.view(engine.REFEREE)
    rng_before = game.rng.getstate()
    game.apply(1, claim)
    after = game.view(engine.REFEREE)
    assert game.rng.getstate() == rng_before
    assert after["claims"][1] == {"defusing": 2, "bomb": 0}
    for key in ("cutter", "hands", "round", "cuts", "face_down", "revealed", "to_act"):
        assert after[key] == before[key]
    shown = game.view(engine.SPECTATOR)
    assert shown["claims"][1] == {"defusing": 2, "bomb": 0}
    assert shown["events"][-1]["text"] == "{0} claims 2 Defusing wires and no Bomb."
    # A claim need not be true, may be changed, and is reset by the next deal.
    game.apply(1, {"type": "claim", "defusing": 0, "bomb": 1})
    assert game.view(3)["claims"][1] == {"defusing": 0, "bomb": 1}
    for target in (3, 4, 2, 0, 3):
        cut(game, target)
    assert game.view(3)["claims"] == [None] * 5


def test_claims_must_fit_the_hand_and_can_be_switched_off():
    game = new(5)
    before = snapshot(game)
    for bad in ({"defusing": 6, "bomb": 0}, {"defusing": 5, "bomb": 1}, {"defusing": 0, "bomb": 2},
                {"defusing": -1, "bomb": 0}):
        with pytest.raises(engine.IllegalAction):
            game.apply(0, {"type": "claim", **bad})
        assert snapshot(game) == before
    quiet = new(5, claims=False)
    assert all(a["type"] == "cut" for a in quiet.legal_actions(quiet.cutter))
    assert quiet.legal_actions((quiet.cutter + 1) % 5) == []
    with pytest.raises(engine.IllegalAction, match="switched off"):
        quiet.apply(0, {"type": "claim", "defusing": 0, "bomb": 0})


def test_rigged_draws_follow_the_kind_order():
    # The scenario tests rely on this helper: it reveals the first kind a hand holds.
    game = arrange(new(5), [[5, 0, 0], [0, 4, 1], [5, 0, 0], [5, 0, 0], [4, 1, 0]], cutter=0)
    game.rng = FirstKindFirst()
    assert cut(game, 1) == "defusing"
    assert cut(game, 4) == "safe"
    assert game.hands[4][SAFE_I] == 3

"""The 'Test scenarios' of engine/timebomb_evolution/RULES.md.

Each sets up its state directly, then drives the game through `apply`. Seats A, B, C... are
0, 1, 2...; "A->B" is A cutting a wire of B.
"""

import pytest

import engine

from .conftest import decisions

A, B, C, D, E, F = range(6)


def test_scenario_1_setup_at_four_players(table):
    game = table.new(4, colours=["yellow", "blue", "red", "green"], seed=5)
    assert sorted(game.roles + [game.set_aside]) == ["moriarty"] * 2 + ["sherlock"] * 3
    assert len(game.colours) == 4
    assert sum(game.removed) == 4
    pool = [sum(h[k] for h in game.hands) for k in range(len(game.kinds))]
    assert pool[0] == 4 and sum(pool[1:]) == 16 and sum(pool) == 20
    assert [sum(h) for h in game.hands] == [5, 5, 5, 5]
    view = game.view(engine.SPECTATOR)
    assert view["number_cards"] == [0, 1, 2, 3]
    assert view["set_aside_count"] == 1 and view["removed_count"] == 4
    assert "removed" not in view and "set_aside" not in view


@pytest.mark.parametrize("variante", [False, True])
def test_scenario_2_fourth_card_of_a_colour(table, variante):
    game = table.new(5, variante=variante)
    table.reveal(game, red=3)
    for _ in range(2):
        table.lay(game, None)
    if variante:
        game.defusing_wires[0]["on"] = "red"
    table.hold(game, B, red=2)
    table.cut(game, A, B)
    if variante:
        assert game.outcome is None  # Red is defused: nothing explodes (the Red still draws)
        assert game.pending["kind"] == "draw_number"
    else:
        assert game.outcome.reason == "bomb" and game.outcome.winning_team == "moriarty"


def test_scenario_3_assignment(table):
    game = table.new(5, colours=["yellow", "blue", "red", "pink", "green"])
    table.hold(game, B, defusing=5)
    table.cut(game, A, B)
    assert game.pending is None
    view = game.view(C)
    assert view["set_apart"] == [1] and view["defusing_found"] == 1 and view["defusing_total"] == 5
    table.reveal(game, yellow=1, green=2)
    table.hold(game, C, defusing=3)
    table.cut(game, B, C)
    assert decisions(game, B) == [{"type": "defuse", "colour": "green"}]
    table.act(game, B, "defuse", colour="green")
    assert game.view(A)["defused"] == {"green": 2}
    table.hold(game, D, green=3)
    table.cut(game, C, D)
    assert game.revealed("green") == 3 and game.outcome is None


def test_scenario_4_pink_pair_across_rounds(table):
    game = table.new(4, colours=["yellow", "red", "pink", "green"])
    table.reveal(game, pink=1, yellow=2)
    table.lay(game, "pink")
    game.cuts, game.last_reveal = 3, "yellow"  # round 1's last cut comes next
    for seat, size in enumerate((4, 5, 4, 4)):
        table.hold(game, seat, red=size)
    table.hold(game, B, pink=2, red=3)
    table.cut(game, A, B, "pink")
    assert game.round == 2 and game.outcome is None and game.last_reveal == "pink"
    table.hold(game, C, pink=1, red=3)  # the redeal is random: C holds a Pink
    table.cut(game, B, C, "pink")
    assert game.outcome.reason == "pink" and game.outcome.winning_team == "moriarty"
    assert game.wire_on == {"pink": 1}


@pytest.mark.parametrize("moved,explodes", [("orange", True), ("green", False)])
def test_scenario_5_blue_re_arms(table, moved, explodes):
    game = table.new(6, first=C)
    table.reveal(game, orange=4, green=1)
    table.lay(game, "orange")
    table.lay(game, "green")
    table.hold(game, D, blue=5)
    table.cut(game, C, D)
    assert game.to_act() == frozenset({C})
    table.act(game, C, "move_apart", colour=moved)
    if explodes:
        assert game.outcome.reason == "bomb" and "Orange" in game.outcome.text
        return
    assert game.outcome is None and game.cutter == D
    assert game.view(A)["moved_apart"] == [2] and game.view(A)["defused"] == {"orange": 1}
    table.hold(game, E, defusing=1)
    table.cut(game, D, E)
    table.act(game, D, "defuse", colour="green")
    assert game.wire_on == {"orange": 1, "green": 3}


def test_scenario_5_a_fifth_blue_moving_blues_own_wire_explodes_it(table):
    game = table.new(6, first=C)
    table.reveal(game, blue=4, green=1)
    table.lay(game, "blue")
    table.lay(game, "green")
    table.hold(game, D, blue=1)
    table.cut(game, C, D)
    assert game.outcome is None and game.revealed("blue") == 5
    table.act(game, C, "move_apart", colour="blue")
    assert game.outcome.reason == "bomb" and "Blue" in game.outcome.text


def test_scenario_6_red_zero_cuts_your_own_wire(table):
    game = table.new(5)
    table.hold(game, C, red=1, yellow=2, blue=1)
    table.cut(game, A, C, "red")
    table.next_number(game, 0)
    table.act(game, C, "draw_number")
    view = game.view(B)
    assert view["designated"] == C and view["draws"][-1]["number"] == 0
    assert game.legal_actions(C)[:1] == [{"type": "cut", "target": C}]
    assert [a for a in game.legal_actions(C) if a["type"] == "cut"] == [{"type": "cut", "target": C}]
    with pytest.raises(engine.IllegalAction, match="designates seat 2"):
        game.apply(C, {"type": "cut", "target": D})
    table.cut(game, C, C, "yellow")
    assert game.cutter == C and game.designated is None
    with pytest.raises(engine.IllegalAction, match="own wire"):
        game.apply(C, {"type": "cut", "target": C})
    table.hold(game, D, blue=5)
    table.cut(game, C, D)
    assert game.cutter == D


def test_scenario_6_a_draw_of_two_designates_e(table):
    game = table.new(5)
    table.hold(game, C, red=2)
    table.cut(game, A, C)
    table.next_number(game, 2)
    table.act(game, C, "draw_number")
    assert game.designated == E
    assert [a["target"] for a in game.legal_actions(C) if a["type"] == "cut"] == [E]


def test_scenario_6_a_zero_with_no_wires_left_cuts_freely(table):
    game = table.new(5)
    table.hold(game, C, red=1)
    table.cut(game, A, C)
    table.next_number(game, 0)
    table.act(game, C, "draw_number")
    assert game.designated is None and game.cutter == C
    assert {a["target"] for a in game.legal_actions(C) if a["type"] == "cut"} == {A, B, D, E}


def test_scenario_7_red_on_an_empty_row(table):
    game = table.new(5)
    game.round, game.round4_length = 4, 5
    for seat in range(5):
        table.hold(game, seat, yellow=1, blue=1)
    table.hold(game, A, green=1, red=1)
    table.hold(game, B, yellow=2)
    table.cut(game, A, B)
    table.cut(game, B, A, "green")
    table.cut(game, A, B)
    table.cut(game, B, A, "red")
    assert sum(game.hands[A]) == sum(game.hands[B]) == 0
    table.next_number(game, 1)
    table.act(game, A, "draw_number")
    assert game.cutter == B and game.designated is None
    assert {a["target"] for a in game.legal_actions(B) if a["type"] == "cut"} == {C, D, E}
    table.cut(game, B, C, "blue")
    assert game.view(A)["revealed"][-1]["cut"] == 5
    assert game.outcome.reason == "time"


def test_scenario_8_red_on_a_rounds_last_cut(table):
    game = table.new(4, first=D, colours=["yellow", "blue", "red", "green"])
    game.round, game.cuts = 2, 3
    for seat, size in enumerate((3, 3, 3, 4)):
        table.hold(game, seat, yellow=size)
    table.hold(game, A, red=1, blue=2)
    table.cut(game, D, A, "red")
    table.next_number(game, 2)
    table.act(game, A, "draw_number")
    assert game.round == 3 and [sum(h) for h in game.hands] == [3, 3, 3, 3]
    assert game.cutter == A and game.designated == C
    assert game.view(engine.SPECTATOR)["designated"] == C
    assert [a["target"] for a in game.legal_actions(A) if a["type"] == "cut"] == [C]
    with pytest.raises(engine.IllegalAction, match="designates seat 2"):
        game.apply(A, {"type": "cut", "target": B})
    table.cut(game, A, C)
    assert game.view(A)["revealed"][-1] == {
        "round": 3, "cut": 1, "cutter": A, "target": C, "wire": game.last_reveal}


def test_scenario_9_orange_ends_round_four_at_once(table):
    game = table.new(4, colours=["yellow", "blue", "green", "orange"])
    table.reveal(game, orange=3)
    table.lay(game, "orange")
    game.round, game.cuts = 3, 3
    for seat, size in enumerate((2, 3, 2, 2)):
        table.hold(game, seat, yellow=size)
    table.hold(game, B, orange=1, yellow=2)
    table.cut(game, A, B, "orange")
    assert game.revealed("orange") == 4
    assert game.outcome.reason == "orange" and game.outcome.winning_team == "moriarty"
    assert game.round == 4 and game.cuts == 0
    assert game.view(A)["round4_length"] == 0


def test_scenario_10_shortened_round_four(table):
    game = table.new(5, colours=["yellow", "blue", "red", "green", "orange"])
    table.reveal(game, orange=2)
    for _ in range(4):
        table.lay(game, None)
    game.round, game.cuts = 3, 4
    for seat, size in enumerate((2, 3, 2, 2, 2)):
        table.hold(game, seat, yellow=size)
    table.cut(game, A, B)
    assert game.round == 4 and game.round_length() == 3
    assert game.view(C)["round4_length"] == 3
    for seat in range(5):
        table.hold(game, seat, blue=2)
    table.hold(game, C, orange=2)
    table.hold(game, D, defusing=1, blue=1)
    table.cut(game, B, C)
    assert game.round_length() == 3 and game.revealed("orange") == 3
    table.cut(game, C, A)
    table.cut(game, A, D, "defusing")
    assert game.cuts == 3
    assert game.outcome.reason == "defused" and game.outcome.winning_team == "sherlock"

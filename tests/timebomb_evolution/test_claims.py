"""Claims (engine/timebomb_evolution/RULES.md, "Talk and claims"): a Defusing count and an optional colour, free, public, never checked."""

import pytest

import engine


def test_a_claim_is_a_defusing_count_and_an_optional_colour_any_seat_any_time(table):
    game = table.new(5)
    legal = game.legal_actions(3)
    assert {"type": "claim", "defusing": 5, "colour": ""} in legal
    assert {"type": "claim", "defusing": 4, "colour": "green"} in legal
    assert {"type": "claim", "defusing": 5, "colour": "green"} not in legal  # 6 wires
    assert len(legal) == 6 + 5 * 5  # small, not every hand
    game.apply(3, {"type": "claim", "defusing": 1, "colour": "red"})
    view = game.view(engine.SPECTATOR)
    assert view["claims"][3] == {"defusing": 1, "colour": "red", "held": 5}
    assert view["events"][-1]["text"] == "{0} claims 1 Defusing wire and some Red."
    assert game.to_act() == frozenset({0}) and game.cuts == 0


@pytest.mark.parametrize("claim,message", [
    ({"defusing": 6, "colour": ""}, "must fit"),
    ({"defusing": -1, "colour": ""}, "must fit"),
    ({"defusing": 5, "colour": "red"}, "must fit"),
    ({"defusing": 1, "colour": "orange"}, "not a colour of this game"),
])
def test_a_claim_that_cannot_be_true_of_any_hand_is_refused(table, claim, message):
    game = table.new(5)
    with pytest.raises(engine.IllegalAction, match=message):
        game.apply(2, {"type": "claim", **claim})
    assert game.claims[2] is None


def test_claims_at_any_time_a_decision_pending_too_but_not_when_switched_off(table):
    game = table.new(5)
    table.reveal(game, red=1)
    table.hold(game, 1, defusing=2)
    table.cut(game, 0, 1)
    assert game.pending is not None and game.pending["seat"] == 0
    # Section 9: a claim may be made or changed at any time; the decision stays pending.
    assert {a["type"] for a in game.legal_actions(3)} == {"claim"}
    game.apply(3, {"type": "claim", "defusing": 0, "colour": ""})
    assert game.claims[3]["defusing"] == 0 and game.pending is not None
    assert "claim" in {a["type"] for a in game.legal_actions(0)}
    game.apply(0, {"type": "claim", "defusing": 1, "colour": ""})
    assert game.to_act() == {0} and game.pending is not None
    with pytest.raises(engine.IllegalAction, match="waiting for seat 0"):
        game.apply(3, {"type": "cut", "target": 1})
    off = table.new(5, claims=False)
    assert all(a["type"] == "cut" for a in off.legal_actions(0))
    with pytest.raises(engine.IllegalAction, match="switched off"):
        off.apply(0, {"type": "claim", "defusing": 0, "colour": ""})


def test_claims_are_cleared_at_each_deal(table):
    game = table.new(4, colours=["yellow", "blue", "red", "green"])
    game.apply(2, {"type": "claim", "defusing": 0, "colour": ""})
    game.cuts = 3
    for seat, size in enumerate((4, 4, 4, 5)):
        table.hold(game, seat, yellow=size)
    table.hold(game, 3, blue=5)
    table.cut(game, 0, 3)
    assert game.round == 2 and game.claims == [None] * 4

"""HO-40 to HO-47: the optional modules and the table options."""

import pytest

import engine
from engine.core import IllegalAction
from engine.holmes.catalogue import (
    BULLET, BUTTON, CIGARETTE, FOOTPRINT, GREGSON, HUDSON, IRENE,
    LESTRADE, MAP, MORAN, MORIARTY, TOBY, VILLAINS, VIOLET, VON_KRAMM, WATSON, WIGGINS,
)
from support.holmes import (
    M, S, act, arrange, check_conservation, new_game, playout, set_area, types_of,
    visit,
)

LINE = [BULLET, BUTTON, CIGARETTE, FOOTPRINT]


def test_ho40_alternative_start_secret_simultaneous_picks():
    game = engine.new_game("holmes", 2, {"alternative_start": True, "first_player": "chosen"}, 40)
    assert game.to_act() == {S, M}
    offer_s = game.view(S)["pending"]["offer"]
    offer_m = game.view(M)["pending"]["offer"]
    assert "offer" not in game.view(engine.SPECTATOR)["pending"]
    assert len(set(offer_s + offer_m)) == 4
    act(game, M, "pick_start", character=offer_m[1])
    assert game.to_act() == {S} and game.view(S)["pending"]["pick"] is None
    assert game.view(M)["pending"]["pick"] == offer_m[1]
    assert offer_m[1] not in str(game.view(S)["pending"])
    assert game.view(S)["pending"]["picked"] == [M]
    with pytest.raises(IllegalAction):
        act(game, S, "pick_start", character=offer_m[0])
    act(game, S, "pick_start", character=offer_s[0])
    assert game.board[3:] == [offer_s[0], offer_m[1]]
    assert len(game.char_deck) == 7 and offer_s[1] in game.char_deck
    assert game.to_act() == {S} and types_of(game.legal_actions(S)) == {"choose_side"}


def reserve_game():
    game = new_game({"reserve_card": True})
    arrange(game, line=list(LINE), deck_top=[MAP, MAP, MAP])
    return game


def test_ho41_the_reserve_card_starts_with_the_second_player_and_passes():
    game = reserve_game()
    assert game.reserve_holder == M
    assert "reserve" not in types_of(game.legal_actions(S))
    act(game, S, "place", character=HUDSON)
    act(game, S, "decline")
    # Reserving is allowed on Day 1, before the move.
    act(game, M, "reserve", slot=0)
    assert game.areas[M].reserved == BULLET and game.line[0] == MAP
    assert game.reserve_holder == S and game.view(S)["reserve_card"] == S
    act(game, M, "place", character=WATSON)
    # Not in the action that reserved it (HO-41: "in a later action").
    assert "take_reserved" not in types_of(game.legal_actions(M))
    check_conservation(game)


def test_ho41_a_reserved_clue_is_claimed_in_a_later_action_at_the_normal_cost():
    game = reserve_game()
    visit(game, M, WATSON)
    act(game, M, "reserve", slot=0)
    assert game.areas[M].reserved == BULLET
    # Reserving refilled the line, but this action may take only line cards.
    assert "take_reserved" not in types_of(game.legal_actions(M))
    visit(game, M, WATSON)  # a later action
    assert {"type": "take_reserved"} in game.legal_actions(M)
    im = game.areas[M].im
    act(game, M, "take_reserved")
    assert game.areas[M].reserved is None and game.areas[M].clues[BULLET] == 1
    assert game.areas[M].im == im - 1  # Watson's Advice: pay 1 IM, take 1 clue
    check_conservation(game)


def test_ho41_the_issues_repro_reserving_then_taking_at_once_is_refused():
    game = engine.new_game("holmes", 2, {"reserve_card": True, "first_player": "chosen"}, 0)
    act(game, 0, "choose_side", side="sherlock")
    act(game, 0, "place", character=HUDSON)
    while 0 in game.to_act():
        legal = game.legal_actions(0)
        game.apply(0, next(a for a in legal if a["type"] in ("use", "take", "end_action",
                                                              "decline")))
    act(game, 1, "place", character="lestrade")
    act(game, 1, "reserve", slot=0)
    assert {"type": "take_reserved"} not in game.legal_actions(1)
    with pytest.raises(engine.IllegalAction):
        act(game, 1, "take_reserved")


def test_ho41_reserving_after_the_skill_at_the_end_of_the_action():
    game = reserve_game()
    visit(game, M, WATSON)
    act(game, M, "take", slot=0)
    assert {"type": "end_action"} in game.legal_actions(M)
    assert {"type": "reserve", "slot": 0} in game.legal_actions(M)  # the refilled card
    act(game, M, "reserve", slot=0)
    assert game.areas[M].reserved == MAP
    # One reserved clue at a time: even holding the card again, no second reserve.
    game.reserve_holder = M
    visit(game, M, HUDSON)
    assert "reserve" not in types_of(game.legal_actions(M))


def test_ho41_the_reserved_clue_is_immune_and_unclaimed_costs_3():
    game = reserve_game()
    set_area(game, M, reserved=BULLET)
    visit(game, S, IRENE)
    assert game.to_act() == {M}  # no target: the reserved clue is not one
    game = reserve_game()
    set_area(game, S, clues={BULLET: 1}, reserved=BUTTON)
    visit(game, S, VIOLET)
    assert "take_reserved" not in types_of(game.legal_actions(S))
    assert all(a["give"] != BUTTON for a in game.legal_actions(S) if a["type"] == "swap")
    game = reserve_game()
    set_area(game, S, reserved=BUTTON)
    game.day, game.queue = 7, []
    game.begin_final()
    game.settle()
    assert game.scores[S].penalties == 3 and game.scores[S].total == -3


def test_ho41_no_reserving_during_the_opponents_von_kramm_draw():
    game = reserve_game()
    visit(game, S, VON_KRAMM)
    act(game, S, "take", slot=0)
    assert game.to_act() == {M} and game.reserve_holder == M
    assert types_of(game.legal_actions(M)) == {"buy", "decline"}


def test_ho42_villains_appear_on_days_2_to_7_and_are_replaced():
    for seed in range(30):
        game = playout({"villains": "both"}, seed)
        assert not set(game.board) & set(VILLAINS)
        assert sorted(game.villains_drawn) == sorted(VILLAINS) or len(game.char_deck) >= 1
        assert len(game.board) == 11
    game = new_game({"villains": "both"})
    assert len(game.char_deck) == 9 and not set(game.board) & set(VILLAINS)


def test_ho43_moran_on_a_spent_character_spends_it_again():
    game = new_game({"villains": "moran"})
    game.board = [WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY]
    game.day_of = {IRENE: 1, WIGGINS: 1, TOBY: 2}
    game.markers = [{TOBY: False, HUDSON: False, WATSON: False},
                    {TOBY: False, LESTRADE: False, IRENE: False}]
    game.char_deck = [GREGSON, MORAN]
    game.day, game.stage, game.actions_done, game.queue = 2, "action", 5, []
    game.settle()
    assert game.spent == {TOBY} and game.to_act() == {S}
    act(game, S, "lay_down", character=TOBY)
    assert game.markers[S][TOBY] is False and game.queue[0].kind == "moran"
    act(game, M, "lay_down", character=LESTRADE)
    assert game.actions_each == 2 and game.board[-1] == GREGSON


def test_ho44_moriarty_may_take_wildcards_and_maps():
    game = new_game({"villains": "moriarty"})
    set_area(game, S, clues={MAP: 1}, wild_on=[], free_wild=1, im=5)
    game.markers = [{WATSON: False}, {WATSON: False}]
    game.char_deck = [GREGSON, MORIARTY]
    game.day, game.stage, game.actions_done, game.queue = 2, "action", 5, []
    game.settle()
    assert game.legal_actions(S) == [
        {"type": "discard", "card": MAP}, {"type": "discard", "card": "wildcard"},
        {"type": "return_im"},
    ]
    act(game, S, "discard", card=MAP)
    assert game.discard[-1] == MAP


def test_ho45_table_options():
    described = {o["name"]: o for o in engine.GAMES["holmes"].describe_options(2)}
    assert described["villains"]["choices"] == ["none", "moriarty", "moran", "both", "random_one"]
    assert described["first_player"]["choices"] == ["random", "chosen"]
    with pytest.raises(engine.InvalidSetup, match="villains"):
        engine.new_game("holmes", 2, {"villains": "sherlock"})
    with pytest.raises(engine.InvalidSetup, match="reserve_card"):
        engine.new_game("holmes", 2, {"reserve_card": 1})


def test_ho46_defaults():
    game = engine.new_game("holmes", 2)
    assert game.options == {"alternative_start": False, "reserve_card": False,
                            "villains": "none", "first_player": "random"}
    assert game.reserve_holder is None and len(game.char_deck) == 7


def test_ho47_random_one_villain_stays_secret():
    chosen = set()
    for seed in range(12):
        game = engine.new_game("holmes", 2, {"villains": "random_one"}, seed)
        villain = next(c for c in game.char_deck if c in VILLAINS)
        chosen.add(villain)
        for viewer in (S, M, engine.SPECTATOR):
            view = game.view(viewer)
            assert view["character_deck_count"] == 8
            text = str(view).replace("moran_today", "")
            assert MORIARTY not in text and MORAN not in text
    assert chosen == set(VILLAINS)

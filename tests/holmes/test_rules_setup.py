"""HO-1 to HO-8: components, constants, characters and setup."""

import pytest

import engine
from engine.holmes.catalogue import (
    CHARACTER_NAMES, COPIES, DECK_CHARACTERS, INITIAL, MAP, SKILLS, VALUE, VALUED, WILDCARD,
)
from support.holmes import M, S, act, check_conservation, new_game, playout, set_area, visit


def test_ho1_two_players_with_identical_rules():
    with pytest.raises(engine.InvalidSetup, match="2-2 players"):
        engine.new_game("holmes", 3)
    game = new_game(side=False)
    assert game.legal_actions(S) == [{"type": "choose_side", "side": "sherlock"},
                                     {"type": "choose_side", "side": "mycroft"}]
    act(game, S, "choose_side", side="mycroft")
    assert game.sides == ["mycroft", "sherlock"] and game.seat_teams() == ("first", "second")
    # Mycroft (seat 0 here) moves first: the side changes nothing in the rules.
    assert game.to_act() == {S} and len(game.legal_actions(S)) == 5


def test_ho2_markers_and_investigation_markers():
    game = new_game()
    view = game.view(S)
    assert view["unplaced_markers"] == [3, 3]
    assert [a["im"] for a in view["areas"]] == [5, 5] and view["reserve"] == 14


def test_ho3_twelve_characters_three_initial():
    assert len(CHARACTER_NAMES) == 14  # 12 characters and the 2 villains
    assert len(INITIAL) == 3 and len(DECK_CHARACTERS) == 9
    game = new_game()
    assert game.board[:3] == list(INITIAL) and len(game.board) == 5
    assert len(game.char_deck) == 7


def test_ho4_seven_days_eight_deck_characters_one_unused():
    game = playout({}, seed=4)
    assert game.day == 7 and len(game.board) == 3 + 8 and len(game.char_deck) == 1


def test_ho5_the_clue_deck():
    assert sum(COPIES.values()) == 52
    assert [VALUE[t] for t in VALUED] == [3, 4, 5, 6, 7, 8, 9]
    assert all(COPIES[t] == VALUE[t] for t in VALUED)
    assert COPIES[WILDCARD] == COPIES[MAP] == 5
    game = new_game()
    assert len(game.deck) == 48
    check_conservation(game)


def test_ho6_the_line_holds_four_face_up_clues():
    game = new_game()
    assert len([c for c in game.view(M)["line"] if c]) == 4


def test_ho7_d_is_the_current_day():
    assert len(SKILLS) == 14
    for day in (2, 5):
        game = new_game()
        set_area(game, M, clues={"bullet": 1})
        set_area(game, S, im=10)
        visit(game, S, "irene", day=day)
        act(game, S, "steal", card="bullet")
        assert game.areas[S].im == 10 - day


def test_ho8_setup():
    game = engine.new_game("holmes", 2, {}, seed=8)
    assert len(game.board) == 5  # Day 1 always offers 5 characters
    assert game.to_act() == {game.first}
    assert [a["type"] for a in game.legal_actions(game.first)] == ["choose_side"] * 2
    assert game.legal_actions(1 - game.first) == []
    assert len([c for c in game.line if c]) == 4 and game.reserve == 14
    firsts = {engine.new_game("holmes", 2, {}, seed=s).first for s in range(20)}
    assert firsts == {0, 1}

"""The test scenarios HO-T1 to HO-T9 of engine/holmes/RULES.md, and the rulebook's own examples."""

import pytest

from engine.holmes.catalogue import (
    BILLY, BULLET, GREGSON, SHINWELL, VIOLET, VON_KRAMM, BUTTON, CIGARETTE, EXPLOSIVE, FALSE_PASS, FINGERPRINT, FOOTPRINT, HUDSON,
    IRENE, LANGDALE, LESTRADE, MAP, MORAN, MORIARTY, TOBY, WATSON, WIGGINS, WILDCARD,
)
from engine.holmes.scoring import Holding, score, winner
from support.holmes import (
    M, S, act, arrange, check_conservation, jump_to_day, new_game, set_area, set_im, types_of,
)
from engine.core import IllegalAction


def markers(game):
    return [{c: ("standing" if up else "lying") for c, up in m.items()} for m in game.markers]


def im(game):
    return game.areas[S].im, game.areas[M].im, game.reserve


def test_t1_rulebook_example_days_1_and_2():
    game = new_game(side=False)
    arrange(game, day_one=(WIGGINS, IRENE), line=[CIGARETTE, EXPLOSIVE, BULLET, FOOTPRINT],
            deck_top=[FINGERPRINT, MAP, EXPLOSIVE, BUTTON, FOOTPRINT], char_top=[LANGDALE])
    act(game, S, "choose_side", side="sherlock")
    assert game.sides == ["sherlock", "mycroft"]

    # Day 1: every skill declined; Irene has no target for Mycroft, so she offers nothing.
    for seat, character in [(S, WIGGINS), (M, WIGGINS), (S, WATSON), (M, IRENE), (S, LESTRADE),
                            (M, LESTRADE)]:
        act(game, seat, "place", character=character)
        if game.to_act() == {seat}:
            act(game, seat, "decline")
    assert game.day == 2
    assert game.spent == {WIGGINS}  # Lestrade holds both colours but is initial
    assert im(game) == (5, 5, 14)
    assert game.board[-1] == LANGDALE
    assert markers(game) == [
        {WIGGINS: "standing", WATSON: "standing", LESTRADE: "standing"},
        {WIGGINS: "standing", IRENE: "standing", LESTRADE: "standing"},
    ]
    # Before move 1 Sherlock may go only to Hudson, Irene or Langdale.
    assert {a["to"] for a in game.legal_actions(S)} == {HUDSON, IRENE, LANGDALE}

    # 1. S Lestrade -> Hudson, +3.
    act(game, S, "move", **{"from": LESTRADE, "to": HUDSON})
    act(game, S, "use")
    assert im(game) == (8, 5, 11)
    assert markers(game)[S] == {WIGGINS: "standing", WATSON: "standing", HUDSON: "lying"}

    # 2. M Irene -> Langdale: pays 2, draws Fingerprint and Map, hides the Fingerprint.
    act(game, M, "move", **{"from": IRENE, "to": LANGDALE})
    act(game, M, "draw", count=2)
    assert game.view(M)["pending"]["drawn"] == [FINGERPRINT, MAP]
    assert "drawn" not in game.view(S)["pending"]
    act(game, M, "keep", index=0)
    assert im(game) == (8, 3, 13)
    assert game.areas[M].hidden == [FINGERPRINT] and game.discard == [MAP]
    assert markers(game)[M] == {WIGGINS: "standing", LESTRADE: "standing", LANGDALE: "lying"}

    # 3. S Watson -> Lestrade: pays 3, takes Cigarette and Explosive; the line refills once.
    act(game, S, "move", **{"from": WATSON, "to": LESTRADE})
    act(game, S, "take", slot=0)
    act(game, S, "take", slot=1)
    assert im(game) == (5, 3, 16)
    assert sorted(game.line) == sorted([BULLET, FOOTPRINT, EXPLOSIVE, BUTTON])
    assert game.areas[S].clues[CIGARETTE] == 1 and game.areas[S].clues[EXPLOSIVE] == 1

    # 4. M Lestrade -> Watson: pays 1 for the new Explosive; a Footprint refills.
    act(game, M, "move", **{"from": LESTRADE, "to": WATSON})
    act(game, M, "take", slot=game.line.index(EXPLOSIVE))
    assert im(game) == (5, 2, 17)
    assert sorted(game.line) == sorted([BULLET, FOOTPRINT, BUTTON, FOOTPRINT])
    assert game.areas[M].clues[EXPLOSIVE] == 1

    # 5. S from the spent Wiggins to Irene: pays 2 (Day 2), steals Mycroft's Explosive.
    act(game, S, "move", **{"from": WIGGINS, "to": IRENE})
    act(game, S, "steal", card=EXPLOSIVE)
    assert im(game) == (3, 2, 19)
    assert game.areas[S].hidden == [EXPLOSIVE] and game.areas[M].clues[EXPLOSIVE] == 0

    # 6. M from Wiggins to Irene: legal because he left her in move 2; steals the Cigarette.
    assert {"type": "move", "from": WIGGINS, "to": IRENE} in game.legal_actions(M)
    act(game, M, "move", **{"from": WIGGINS, "to": IRENE})
    act(game, M, "steal", card=CIGARETTE)

    # End of Day 2: Irene spent for Day 3, Wiggins available again.
    assert im(game) == (3, 0, 21)
    assert game.day == 3
    assert set(game.markers[S]) == {HUDSON, LESTRADE, IRENE}
    assert set(game.markers[M]) == {LANGDALE, WATSON, IRENE}
    assert game.spent == {IRENE}
    assert WIGGINS in game.destinations(S)
    s_area, m_area = game.areas
    assert s_area.visible_cards() == [EXPLOSIVE] and len(s_area.hidden) == 1
    assert m_area.visible_cards() == [] and sorted(m_area.hidden) == [CIGARETTE, FINGERPRINT]
    assert len(game.deck) == 43 and len(game.discard) == 1
    check_conservation(game)


def test_t2_toby_counts_types_not_wildcards_or_hidden():
    game = new_game()
    set_area(game, S, clues={EXPLOSIVE: 3, MAP: 1, CIGARETTE: 2}, free_wild=1,
             hidden=[BULLET, BULLET])
    jump_to_day(game, 3, [{WATSON: True}, {HUDSON: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY])
    before = game.areas[S].im
    act(game, S, "move", **{"from": WATSON, "to": TOBY})
    act(game, S, "use")
    assert game.areas[S].im == before + 3


def test_t3_scoring_examples_and_full_case():
    # Rulebook: 3 Cigarettes against 1 score 4; all 7 Buttons score 7 + 3.
    a, b = score([Holding({CIGARETTE: 3}), Holding({CIGARETTE: 1})])
    assert a.majorities == {CIGARETTE: 4} and b.total == 0
    a, _ = score([Holding({BUTTON: 7}), Holding({})])
    assert a.total == 10
    # A Wildcard put aside and later covered by a Button counts as 2 Buttons.
    a, b = score([Holding({BUTTON: 1}, frozenset({BUTTON})), Holding({BUTTON: 1})])
    assert a.majorities == {BUTTON: 6}
    # The full case.
    sherlock = Holding({FINGERPRINT: 6, FOOTPRINT: 2, BUTTON: 7, EXPLOSIVE: 1, MAP: 1},
                       frozenset({FOOTPRINT}))
    mycroft = Holding({FINGERPRINT: 3, FOOTPRINT: 5, CIGARETTE: 5, FALSE_PASS: 1, MAP: 3},
                      frozenset({FINGERPRINT}))
    s, m = score([sherlock, mycroft])
    assert (s.total, m.total) == (18, 19)
    assert s.majorities == {FINGERPRINT: 5, BUTTON: 7, EXPLOSIVE: 4}
    assert m.majorities == {FOOTPRINT: 5, CIGARETTE: 5, FALSE_PASS: 3}
    assert winner([s.total, m.total], [0, 0]) == 1
    # Tie-breaks at 19-19.
    assert winner([19, 19], [3, 1]) == 0
    assert winner([19, 19], [1, 3]) == 1
    assert winner([19, 19], [2, 2]) is None


def test_t3_penalty_two_wildcards_only_bullets_through_the_game():
    game = new_game()
    set_area(game, S, clues={BULLET: 2}, free_wild=2)
    set_area(game, M, clues={})
    game.day, game.queue = 7, []
    game.begin_final()
    game.settle()
    assert game.legal_actions(S) == [{"type": "assign", "clue": BULLET}, {"type": "keep_aside"}]
    act(game, S, "assign", clue=BULLET)
    assert game.outcome is not None
    s, m = game.scores
    assert s.majorities == {BULLET: 6} and s.penalties == 3 and s.total == 3


def test_t4_billy_value_minus_day_and_forbidden_cards():
    game = new_game()
    set_area(game, S, clues={FALSE_PASS: 1, FINGERPRINT: 1, MAP: 1}, free_wild=1,
             hidden=[BUTTON])
    jump_to_day(game, 5, [{WATSON: True}, {HUDSON: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY, BILLY])
    act(game, S, "move", **{"from": WATSON, "to": BILLY})
    choices = {a["card"] for a in game.legal_actions(S) if a["type"] == "discard"}
    assert choices == {FALSE_PASS, FINGERPRINT}  # no Map, no Wildcard, no hidden card
    before = game.areas[S].im
    act(game, S, "discard", card=FALSE_PASS)
    assert game.areas[S].im == before and game.areas[S].clues[FALSE_PASS] == 0
    assert game.discard[-1] == FALSE_PASS

    game = new_game()
    set_area(game, S, clues={FINGERPRINT: 1})
    jump_to_day(game, 2, [{WATSON: True}, {HUDSON: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, BILLY])
    act(game, S, "move", **{"from": WATSON, "to": BILLY})
    before = game.areas[S].im
    act(game, S, "discard", card=FINGERPRINT)
    assert game.areas[S].im == before + 7


def test_t5_irene_unaffordable_or_without_target():
    game = new_game()
    set_area(game, S, clues={BUTTON: 2})
    set_area(game, M, im=5)
    jump_to_day(game, 6, [{WATSON: True}, {HUDSON: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY, BILLY, LANGDALE])
    act(game, S, "move", **{"from": WATSON, "to": LESTRADE})
    act(game, S, "decline")
    act(game, M, "move", **{"from": HUDSON, "to": IRENE})
    assert game.areas[M].im == 5 and game.to_act() == {S}  # skill skipped, turn passed

    game = new_game()
    set_area(game, S, free_wild=1, wild_on=[])
    jump_to_day(game, 3, [{WATSON: True}, {HUDSON: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY])
    act(game, S, "move", **{"from": WATSON, "to": LESTRADE})
    act(game, S, "decline")
    before = game.areas[M].im
    act(game, M, "move", **{"from": HUDSON, "to": IRENE})
    assert game.areas[M].im == before and game.to_act() == {S}


def test_t6_wildcard_loses_its_type():
    game = new_game()
    set_area(game, M, clues={BULLET: 1, CIGARETTE: 2}, wild_on=[BULLET])
    set_area(game, S, im=10)
    jump_to_day(game, 4, [{WATSON: True}, {HUDSON: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY, BILLY])
    arrange(game, line=[FOOTPRINT, BUTTON, BUTTON, BUTTON])
    act(game, S, "move", **{"from": WATSON, "to": IRENE})
    act(game, S, "steal", card=BULLET)
    assert game.areas[S].im == 6
    m_area = game.areas[M]
    assert m_area.wild_on == set() and m_area.free_wild == 1
    assert m_area.toby_count() == 1
    act(game, M, "move", **{"from": HUDSON, "to": WATSON})
    act(game, M, "take", slot=0)
    assert game.legal_actions(M) == [{"type": "assign", "clue": FOOTPRINT},
                                     {"type": "keep_aside"}]
    act(game, M, "assign", clue=FOOTPRINT)
    assert m_area.wild_on == {FOOTPRINT} and m_area.free_wild == 0


def test_t7_reserve_caps_gains():
    game = new_game()
    jump_to_day(game, 3, [{WATSON: True}, {LESTRADE: True}],
                board=[WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY])
    set_im(game, (12, 10), 2)
    act(game, S, "move", **{"from": WATSON, "to": WIGGINS})
    act(game, S, "use")
    assert im(game) == (14, 10, 0)
    act(game, M, "move", **{"from": LESTRADE, "to": HUDSON})
    assert im(game) == (14, 10, 0) and game.to_act() == {S}


def moran_game(lay_on_hudson=False):
    game = new_game({"villains": "moran"})
    board = [WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY, LANGDALE]
    game.day = 3
    game.board = board
    game.day_of = {IRENE: 1, WIGGINS: 1, TOBY: 2, LANGDALE: 3}
    game.markers = [{TOBY: False, HUDSON: False, WATSON: False},
                    {TOBY: False, LESTRADE: False, IRENE: False}]
    game.char_deck = [c for c in game.char_deck if c not in board and c not in (MORAN, BILLY)]
    game.char_deck += [BILLY, MORAN]
    game.stage = "action"
    game.actions_each = 3
    game.actions_done = 5
    game.queue = []
    game.settle()
    return game


def test_t8_moran():
    game = moran_game()
    assert game.day == 4 and game.spent == {TOBY}
    assert game.villains_drawn == [MORAN] and game.to_act() == {S}
    assert types_of(game.legal_actions(S)) == {"lay_down"}
    act(game, S, "lay_down", character=TOBY)
    act(game, M, "lay_down", character=TOBY)
    assert game.board[-1] == BILLY and MORAN not in game.board
    seats = []
    while game.day == 4:
        seat = min(game.to_act())
        legal = game.legal_actions(seat)
        move = next(a for a in legal if a["type"] == "move")
        assert move["from"] != TOBY
        seats.append(seat)
        act(game, seat, "move", **{"from": move["from"], "to": move["to"]})
        if game.to_act() == {seat}:
            act(game, seat, "decline")
    assert seats == [S, M, S, M]
    assert TOBY in game.spent  # both markers lay there: spent again for Day 5


def test_t8_moran_variant_laid_on_hudson_blocks_hudson():
    game = moran_game()
    act(game, S, "lay_down", character=HUDSON)
    act(game, M, "lay_down", character=TOBY)
    assert all(a["to"] != HUDSON for a in game.legal_actions(S))


def test_t8_moran_on_day_7_ends_after_two_actions_each():
    game = new_game({"villains": "moran"})
    board = [WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY, LANGDALE, BILLY, GREGSON, SHINWELL]
    game.day = 6
    game.board = board
    game.day_of = {c: 1 for c in board[3:]}
    game.markers = [{WATSON: False, HUDSON: False, LESTRADE: False},
                    {WATSON: False, HUDSON: False, LESTRADE: False}]
    game.char_deck = [VIOLET, VON_KRAMM, MORAN]  # Moran on top, then Von Kramm
    game.stage, game.actions_each, game.actions_done, game.queue = "action", 3, 5, []
    game.settle()
    assert game.day == 7
    act(game, S, "lay_down", character=WATSON)
    act(game, M, "lay_down", character=WATSON)
    count = 0
    while game.outcome is None:
        seat = min(game.to_act())
        legal = game.legal_actions(seat)
        move = [a for a in legal if a["type"] == "move"]
        if move:
            count += 1
            game.apply(seat, move[0])
        else:
            game.apply(seat, legal[-1])
    assert count == 4 and game.day == 7


def test_t9_moriarty():
    game = new_game({"villains": "moriarty"})
    set_area(game, S, clues={BUTTON: 2}, free_wild=1, im=4)
    set_area(game, M, hidden=[BULLET, FOOTPRINT], im=1)
    game.day = 3
    game.markers = [{WATSON: False, HUDSON: False, LESTRADE: False},
                    {WATSON: False, HUDSON: False, LESTRADE: False}]
    game.char_deck = [c for c in game.char_deck if c != MORIARTY] + [MORIARTY]
    game.stage, game.actions_each, game.actions_done, game.queue = "action", 3, 5, []
    game.settle()
    assert game.day == 4 and game.to_act() == {S}
    assert {"type": "return_im"} in game.legal_actions(S)
    act(game, S, "return_im")
    # Mycroft has no visible clue: his two steps resolve alone, 1 IM then 0.
    assert game.areas[M].im == 0 and game.areas[S].im == 2
    assert game.to_act() == {S}
    act(game, S, "discard", card=WILDCARD)
    assert game.areas[S].free_wild == 0 and game.areas[S].clues[BUTTON] == 2
    assert sorted(game.areas[M].hidden) == [BULLET, FOOTPRINT]
    assert MORIARTY in game.villains_drawn and game.queue[0].kind == "move"
    check_conservation(game)


def test_t9_moriarty_with_one_im_must_discard():
    game = new_game({"villains": "moriarty"})
    set_area(game, S, clues={BUTTON: 2}, im=1)
    game.day = 3
    game.markers = [{WATSON: False}, {WATSON: False}]
    game.char_deck = [c for c in game.char_deck if c != MORIARTY] + [MORIARTY]
    game.stage, game.actions_each, game.actions_done, game.queue = "action", 3, 5, []
    game.settle()
    assert types_of(game.legal_actions(S)) == {"discard"}
    with pytest.raises(IllegalAction):
        act(game, S, "return_im")

"""HO-30 to HO-37: the skills' details, each a pending decision answered through apply."""

import pytest

import engine

from engine.core import IllegalAction
from engine.holmes.catalogue import (
    BULLET, BUTTON, CIGARETTE, EXPLOSIVE, FALSE_PASS, FINGERPRINT, FOOTPRINT, GREGSON, IRENE,
    LANGDALE, LESTRADE, MAP, SHINWELL, TOBY, VALUED, VIOLET, VON_KRAMM, WATSON, WILDCARD,
    BILLY,
)
from support.holmes import (
    M, S, act, arrange, check_conservation, new_game, set_area, types_of, visit,
)

LINE = [BULLET, BUTTON, CIGARETTE, FOOTPRINT]


def test_ho30_watson_lestrade_gregson_take_from_the_current_line():
    game = new_game()
    arrange(game, line=list(LINE), deck_top=[MAP, EXPLOSIVE, FALSE_PASS])
    set_area(game, S, im=1)
    visit(game, S, GREGSON)
    assert game.to_act() == {M}  # Gregson needs 2 IM
    game = new_game()
    arrange(game, line=list(LINE), deck_top=[MAP, EXPLOSIVE, FALSE_PASS])
    set_area(game, S, im=6)
    visit(game, S, GREGSON)
    act(game, S, "take", slot=0)
    act(game, S, "take", slot=1)
    assert game.line == [None, None, CIGARETTE, FOOTPRINT]  # no refill between picks
    act(game, S, "take", slot=2)
    assert game.areas[S].im == 0 and game.line == [MAP, EXPLOSIVE, FALSE_PASS, FOOTPRINT]
    game = new_game()
    arrange(game, line=list(LINE))
    visit(game, S, WATSON)
    act(game, S, "take", slot=3)
    assert game.areas[S].im == 4 and game.areas[S].clues[FOOTPRINT] == 1


def test_ho31_irene_targets():
    game = new_game()
    set_area(game, M, clues={MAP: 1, BULLET: 1}, wild_on=[BULLET], free_wild=1,
             hidden=[BUTTON], reserved=None)
    visit(game, S, IRENE)
    assert {a["card"] for a in game.legal_actions(S) if a["type"] == "steal"} == {MAP, BULLET}
    with pytest.raises(IllegalAction):
        act(game, S, "steal", card=WILDCARD)
    act(game, S, "steal", card=BULLET)
    assert game.areas[M].free_wild == 2 and game.areas[S].hidden == [BULLET]
    assert game.areas[S].im == 2


def test_ho32_langdale_keeps_one_and_discards_the_rest():
    game = new_game()
    arrange(game, deck_top=[BUTTON, WILDCARD, MAP])
    visit(game, S, LANGDALE)
    assert [a["count"] for a in game.legal_actions(S) if a["type"] == "draw"] == [1, 2, 3]
    act(game, S, "draw", count=3)
    assert game.areas[S].im == 2
    assert types_of(game.legal_actions(S)) == {"keep"}  # no decline once drawn
    act(game, S, "keep", index=0)
    assert game.areas[S].hidden == [BUTTON] and sorted(game.discard) == [MAP, WILDCARD]
    assert game.view(M)["discard_count"] == 2
    check_conservation(game)


def test_ho32_a_wildcard_drawn_at_langdale_is_shown_to_both_players_even_when_not_kept():
    game = new_game()
    arrange(game, deck_top=[BUTTON, WILDCARD, MAP])
    visit(game, S, LANGDALE)
    act(game, S, "draw", count=3)
    act(game, S, "keep", index=0)  # the Button, hidden; the Wildcard and the Map discarded
    for viewer in (M, engine.SPECTATOR):
        keep = [e for e in game.view(viewer)["events"] if e["type"] == "keep"][-1]
        assert keep["wildcards_discarded"] == 1
        assert "discards 2, one of them a Wildcard (face up)" in keep["text"]
        assert "Map" not in keep["text"]  # the other discarded card stays face down


def test_ho32_a_discard_without_a_wildcard_stays_face_down():
    game = new_game()
    arrange(game, deck_top=[BUTTON, FOOTPRINT, MAP])
    visit(game, S, LANGDALE)
    act(game, S, "draw", count=2)
    act(game, S, "keep", index=1)
    keep = [e for e in game.view(M)["events"] if e["type"] == "keep"][-1]
    assert keep["wildcards_discarded"] == 0 and keep["text"].endswith("discards 1 face down.")


def test_ho32_langdale_limited_by_im():
    game = new_game()
    set_area(game, S, im=2)
    visit(game, S, LANGDALE)
    assert [a["count"] for a in game.legal_actions(S) if a["type"] == "draw"] == [1, 2]


def test_ho33_toby_is_at_most_eight():
    game = new_game()
    set_area(game, S, clues={**{t: 1 for t in VALUED}, MAP: 2}, free_wild=1, im=0)
    visit(game, S, TOBY)
    act(game, S, "use")
    assert game.areas[S].im == 8


def test_ho34_shinwell_discards_one_to_three_then_refills():
    game = new_game()
    arrange(game, line=list(LINE), deck_top=[MAP, EXPLOSIVE])
    visit(game, S, SHINWELL)
    act(game, S, "discard_line", slot=0)
    assert types_of(game.legal_actions(S)) == {"discard_line", "done"}
    act(game, S, "discard_line", slot=2)
    act(game, S, "done")
    assert game.line == [MAP, BUTTON, EXPLOSIVE, FOOTPRINT]
    assert sorted(game.discard) == [BULLET, CIGARETTE] and game.areas[S].im == 5


def test_ho35_billy_never_costs():
    game = new_game()
    set_area(game, S, clues={FALSE_PASS: 1}, im=0)
    visit(game, S, BILLY, day=6)
    act(game, S, "discard", card=FALSE_PASS)
    assert game.areas[S].im == 0 and game.reserve == 19


def test_ho36_von_kramm_free_take_then_the_opponents_optional_buy():
    game = new_game()
    arrange(game, line=list(LINE), deck_top=[MAP, WILDCARD])
    visit(game, S, VON_KRAMM)
    act(game, S, "take", slot=1)
    assert game.areas[S].im == 5 and game.line[1] == MAP
    assert game.to_act() == {M}
    assert game.legal_actions(M) == [{"type": "buy"}, {"type": "decline"}]
    act(game, M, "buy")
    assert game.areas[M].im == 4 and game.areas[M].free_wild == 1  # a Wildcard goes face up
    assert game.to_act() == {M} and game.queue[0].kind == "move"
    # Declining the skill gives the opponent no draw.
    game = new_game()
    visit(game, S, VON_KRAMM)
    act(game, S, "decline")
    assert game.queue[0].kind == "move" and game.queue[0].seat == M


def test_ho36_von_kramm_buy_is_hidden():
    game = new_game()
    arrange(game, line=list(LINE), deck_top=[MAP, FINGERPRINT])
    visit(game, S, VON_KRAMM)
    act(game, S, "take", slot=0)
    act(game, M, "buy")
    assert game.areas[M].hidden == [FINGERPRINT]
    assert FINGERPRINT not in str(game.view(S)["events"][-3:])


def test_ho37_violet_hunter_swaps_without_refill():
    game = new_game()
    arrange(game, line=[WILDCARD, BUTTON, MAP, BULLET])
    set_area(game, S, clues={BULLET: 1, CIGARETTE: 1}, wild_on=[BULLET])
    deck = len(game.deck)
    visit(game, S, VIOLET)
    swaps = [a for a in game.legal_actions(S) if a["type"] == "swap"]
    assert {"type": "swap", "give": BULLET, "slot": 3} not in swaps  # a swap that changes nothing
    assert {"type": "swap", "give": "wildcard:bullet", "slot": 0} not in swaps
    act(game, S, "swap", give=BULLET, slot=0)
    area = game.areas[S]
    assert game.line == [BULLET, BUTTON, MAP, BULLET] and len(game.deck) == deck
    # The last Bullet left, so its Wildcard is free, and the taken Wildcard too.
    assert area.free_wild == 2 and area.wild_on == set()
    assert game.legal_actions(S) == [{"type": "assign", "clue": CIGARETTE},
                                     {"type": "keep_aside"}]
    act(game, S, "assign", clue=CIGARETTE)
    assert area.wild_on == {CIGARETTE} and area.free_wild == 1
    check_conservation(game)


def test_ho37_violet_gives_a_wildcard():
    game = new_game()
    arrange(game, line=[EXPLOSIVE, BUTTON, MAP, BULLET])
    set_area(game, S, clues={BULLET: 1}, wild_on=[BULLET])
    visit(game, S, VIOLET)
    act(game, S, "swap", give="wildcard:bullet", slot=0)
    assert game.line[0] == WILDCARD and game.areas[S].clues[EXPLOSIVE] == 1
    assert game.areas[S].wild_on == set()


def test_ho31_lestrade_cannot_be_declined_once_started():
    game = new_game()
    arrange(game, line=list(LINE))
    visit(game, S, LESTRADE)
    act(game, S, "take", slot=0)
    assert types_of(game.legal_actions(S)) == {"take"}
    with pytest.raises(IllegalAction):
        act(game, S, "decline")

"""HO-24 to HO-29: the line, the deck and discard pile, and the play area."""

import pytest

from engine.core import IllegalAction
from engine.holmes.catalogue import (
    BILLY, BULLET, BUTTON, CIGARETTE, EXPLOSIVE, FOOTPRINT, IRENE, LANGDALE, LESTRADE, MAP,
    TOBY, VIOLET, WATSON, WILDCARD,
)
from support.holmes import (
    M, S, act, arrange, check_conservation, new_game, set_area, visit,
)


def test_ho24_the_line_refills_once_after_the_whole_skill():
    game = new_game()
    arrange(game, line=[BULLET, BUTTON, CIGARETTE, FOOTPRINT], deck_top=[MAP, EXPLOSIVE])
    visit(game, S, LESTRADE)
    act(game, S, "take", slot=1)
    assert game.line == [BULLET, None, CIGARETTE, FOOTPRINT]
    assert {"type": "take", "slot": 1} not in game.legal_actions(S)
    act(game, S, "take", slot=3)
    assert game.line == [BULLET, MAP, CIGARETTE, EXPLOSIVE]


def test_ho25_discards_face_down_reshuffle_and_a_short_line():
    game = new_game()
    arrange(game, line=[BULLET, BUTTON, CIGARETTE, FOOTPRINT])
    # Move the whole deck to the discard pile: the next draw reshuffles it.
    game.discard, game.deck = game.deck, []
    visit(game, S, WATSON)
    act(game, S, "take", slot=0)
    assert any(e.type == "reshuffle" for e in game.events)
    assert game.line[0] is not None and len(game.deck) == 47 and not game.discard
    assert "discard" not in game.view(S) and game.view(S)["discard_count"] == 0
    check_conservation(game)

    game = new_game()
    # Deck and discard pile both empty: Lestrade takes the one card there is and pays 3.
    arrange(game, line=[BULLET, None, None, None])
    game.discard += game.deck
    game.deck = []
    set_area(game, M, hidden=game.discard)
    game.discard = []
    visit(game, S, LESTRADE)
    act(game, S, "take", slot=0)
    assert game.areas[S].im == 2 and game.line == [None] * 4 and game.to_act() == {M}
    check_conservation(game)


def test_ho26_visible_clues_are_grouped_by_type():
    game = new_game()
    set_area(game, S, clues={BULLET: 2, MAP: 1}, wild_on=[BULLET], free_wild=1)
    area = game.view(M)["areas"][S]
    assert area["clues"] == {BULLET: 2, MAP: 1}
    assert area["wildcards"] == [BULLET] and area["free_wildcards"] == 1


def test_ho27_hidden_clues_are_private_and_immune():
    game = new_game()
    set_area(game, M, hidden=[BUTTON, MAP], clues={})
    set_area(game, S, hidden=[BULLET])
    assert game.view(M)["areas"][M]["hidden"] == [BUTTON, MAP]
    assert "hidden" not in game.view(S)["areas"][M]
    assert game.view(S)["areas"][M]["hidden_count"] == 2
    visit(game, S, IRENE)  # Mycroft shows nothing: his hidden clues are no target
    assert game.to_act() == {M}
    game = new_game()
    set_area(game, S, hidden=[BULLET], clues={})
    visit(game, S, BILLY)  # Billy cannot discard a hidden clue
    assert game.to_act() == {M}
    game = new_game()
    set_area(game, S, hidden=[BULLET], clues={})
    visit(game, S, TOBY)  # hidden clues give Toby nothing
    assert game.to_act() == {M}


def test_ho28_wildcards_are_never_hidden():
    game = new_game()
    arrange(game, deck_top=[WILDCARD])
    set_area(game, S, clues={BULLET: 1})
    visit(game, S, LANGDALE)
    act(game, S, "draw", count=1)
    assert game.areas[S].hidden == [] and game.areas[S].free_wild == 1
    assert game.legal_actions(S) == [{"type": "assign", "clue": BULLET}, {"type": "keep_aside"}]


def test_ho28_wildcard_assignment_moments_and_limits():
    game = new_game()
    arrange(game, line=[WILDCARD, BUTTON, MAP, CIGARETTE])
    set_area(game, S, clues={BULLET: 1, MAP: 2}, wild_on=[BULLET])
    visit(game, S, WATSON)
    act(game, S, "take", slot=0)
    # (a) when gained: only types with a real card and no Wildcard; never Map Fragments.
    # No eligible type here, so no decision: the Wildcard waits unassigned.
    assert game.to_act() == {M} and game.areas[S].free_wild == 1
    # (b) later, gaining a Button offers that type only.
    set_area(game, S, clues={BULLET: 1, MAP: 2, CIGARETTE: 1}, wild_on=[BULLET], free_wild=1)
    visit(game, S, WATSON, day=4)
    act(game, S, "take", slot=game.line.index(BUTTON))
    assert game.legal_actions(S) == [{"type": "assign", "clue": BUTTON}, {"type": "keep_aside"}]
    act(game, S, "assign", clue=BUTTON)
    assert game.areas[S].wild_on == {BULLET, BUTTON}
    with pytest.raises(IllegalAction):
        act(game, S, "assign", clue=CIGARETTE)


def test_ho28_wildcard_unassigned_when_the_last_real_card_goes():
    game = new_game()
    set_area(game, S, clues={FOOTPRINT: 1}, wild_on=[FOOTPRINT])
    visit(game, S, BILLY, day=2)
    act(game, S, "discard", card=FOOTPRINT)
    assert game.areas[S].wild_on == set() and game.areas[S].free_wild == 1
    assert game.areas[S].im == 5 + 6


def test_ho29_map_fragments_are_ordinary_cards():
    game = new_game()
    set_area(game, M, clues={MAP: 1})
    visit(game, S, IRENE)
    assert {"type": "steal", "card": MAP} in game.legal_actions(S)
    game = new_game()
    arrange(game, line=[MAP, BULLET, BUTTON, CIGARETTE])
    set_area(game, S, clues={BULLET: 1})
    visit(game, S, VIOLET)
    assert {"type": "swap", "give": BULLET, "slot": 0} in game.legal_actions(S)
    act(game, S, "swap", give=BULLET, slot=0)
    assert game.areas[S].clues[MAP] == 1 and game.areas[S].toby_count() == 1

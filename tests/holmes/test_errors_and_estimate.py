"""Clear refusals that change nothing, and the live score estimate from a view."""

import pytest

import engine
from engine.holmes.catalogue import BULLET, BUTTON, CIGARETTE, MAP
from engine.holmes.scoring import estimate
from support.holmes import M, S, act, new_game, set_area


@pytest.mark.parametrize(
    "seat, action, message",
    [
        (M, {"type": "place", "character": "watson"}, "not your turn"),
        (S, {"type": "place", "character": "moriarty"}, "not a character in play"),
        (S, {"type": "take", "slot": 7}, "cannot 'take' now: place a marker"),
        (S, {"type": "place"}, "needs the field 'character'"),
        (S, {"type": "place", "character": 3}, "must be a string"),
        (S, {"type": "reserve", "slot": 0}, "cannot 'reserve' now"),
        (S, {"type": "dance"}, "unknown action type"),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(seat, action, message):
    game = new_game()
    before = repr(game), game.view(engine.REFEREE), game.rng.getstate()
    with pytest.raises(engine.IllegalAction, match=message):
        game.apply(seat, action)
    assert (repr(game), game.view(engine.REFEREE), game.rng.getstate()) == before


def test_the_reserve_card_refusals_say_why():
    game = new_game({"reserve_card": True})
    with pytest.raises(engine.IllegalAction, match="do not hold the Sherlock/Mycroft"):
        act(game, S, "reserve", slot=0)


def test_estimate_counts_visible_cards_only():
    game = new_game()
    set_area(game, S, clues={CIGARETTE: 3, MAP: 2}, hidden=[BUTTON])
    set_area(game, M, clues={CIGARETTE: 1, BULLET: 1}, free_wild=1)
    for viewer in (S, M, engine.SPECTATOR):
        assert estimate(game.view(viewer)) == (4 + 1, 6 - 3)

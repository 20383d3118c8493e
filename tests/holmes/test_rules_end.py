"""HO-38 and HO-39: the end-of-game reveal, the last Wildcard choices and scoring."""

from engine.holmes.catalogue import BULLET, BUTTON, CIGARETTE, FINGERPRINT, MAP
from support.holmes import M, S, act, new_game, set_area


def end_now(game, day=7):
    game.day, game.queue = day, []
    game.begin_final()
    game.settle()


def test_ho38_hidden_clues_join_their_types_then_wildcards_are_assigned():
    game = new_game()
    set_area(game, S, clues={BULLET: 1}, hidden=[BUTTON, BUTTON], free_wild=1)
    set_area(game, M, clues={BUTTON: 2}, hidden=[CIGARETTE])
    end_now(game)
    assert game.areas[S].clues[BUTTON] == 2 and game.areas[M].clues[CIGARETTE] == 1
    # The revealed Buttons make Button eligible: the player chooses.
    assert game.legal_actions(S) == [
        {"type": "assign", "clue": BULLET}, {"type": "assign", "clue": BUTTON},
        {"type": "keep_aside"},
    ]
    assert game.view(M)["areas"][S]["revealed"] == [BUTTON, BUTTON]
    act(game, S, "assign", clue=BUTTON)
    assert game.outcome is not None
    s, m = game.scores
    assert s.majorities == {BULLET: 6, BUTTON: 5} and m.majorities == {CIGARETTE: 5}


def test_ho39_five_map_fragments_score_ten_by_the_map_table_and_no_complete_set_bonus():
    game = new_game()
    set_area(game, S, clues={MAP: 5}, im=0)
    set_area(game, M, clues={BULLET: 1}, im=0)
    end_now(game)
    s, m = game.scores
    assert s.total == 10  # the map table's 10 for all five, without HO-39's +3
    assert m.total == 6  # the Bullet's majority: its value 6 minus S's count 0


def test_ho39_scoring_through_the_engine_with_the_im_tie_break():
    game = new_game()
    set_area(game, S, clues={FINGERPRINT: 2}, im=4)
    set_area(game, M, clues={MAP: 5, BULLET: 1}, im=3)
    # S: 9 - 0 = 9; M: 6 + 10 - 0 = 16... make it a tie: S adds the complete Fingerprints.
    set_area(game, S, clues={FINGERPRINT: 9, MAP: 1}, im=4)
    end_now(game)
    s, m = game.scores
    assert (s.total, m.total) == (9 + 3 - 1, 6 + 10)
    assert game.outcome.winners == {M} and game.outcome.reason == "score"

    game = new_game()
    set_area(game, S, clues={BUTTON: 2}, im=4)
    set_area(game, M, clues={BUTTON: 2}, im=4)
    end_now(game)
    assert game.outcome.winners == frozenset() and game.outcome.reason == "draw"

    game = new_game()
    set_area(game, S, clues={BUTTON: 2}, im=5)
    set_area(game, M, clues={BUTTON: 2}, im=4)
    end_now(game)
    assert game.outcome.winners == {S} and game.outcome.reason == "investigation_markers"
    assert game.outcome.winning_team == "first" and game.outcome.teams == ("first", "second")
    assert game.outcome.text.startswith("Sherlock wins")

"""HO-9 to HO-23: the day, actions, marker legality and spent characters."""

import pytest

from engine.core import IllegalAction
from engine.holmes.catalogue import (
    BUTTON, GREGSON, HUDSON, IRENE, LESTRADE, TOBY, WATSON, WIGGINS,
)
from support.holmes import (
    M, S, act, check_conservation, jump_to_day, new_game, playout, set_area, set_im, types_of,
    visit,
)

BOARD = [WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY]


def day_moves(game):
    """(day, seat) of every marker move or placement, from the public events."""
    out, day = [], 1
    for e in game.events:
        if e.type == "day":
            day = e.data["day"]
        elif e.type in ("move", "place"):
            out.append((day, e.seats[0]))
    return out


def test_ho9_day_one_has_no_start_and_day_seven_no_end():
    game = new_game()
    assert len(game.board) == 5 and game.day == 1
    game = playout({"first_player": "chosen"}, seed=9)
    assert [e.data["day"] for e in game.events if e.type == "day"] == list(range(1, 8))
    assert len(game.board) == 11  # one character per day from Day 2
    assert not [e for e in game.events if e.type == "spent" and "Day 7" in e.text]


def test_ho10_the_same_first_player_starts_every_day():
    for seed in range(5):
        game = playout({}, seed)
        moves = day_moves(game)
        for day in range(1, 8):
            seats = [s for d, s in moves if d == day]
            assert seats == [game.first, 1 - game.first] * 3


def test_ho11_markers_stand_up_then_the_character_is_drawn():
    game = new_game()
    for seat, c in [(S, WATSON), (M, HUDSON), (S, HUDSON), (M, WATSON), (S, LESTRADE),
                    (M, LESTRADE)]:
        act(game, seat, "place", character=c)
        if game.to_act() == {seat}:
            act(game, seat, "decline")
    assert game.day == 2 and len(game.board) == 6
    assert all(all(m.values()) for m in game.markers)
    types = [e.type for e in game.events]
    assert types.index("day", types.index("place")) < types.index("character")


def test_ho12_investigation_alternates_three_actions_each():
    assert day_moves(playout({"first_player": "chosen"}, 12))[:6] == [(1, 0), (1, 1)] * 3


def test_ho13_the_game_ends_after_the_second_players_last_action_on_day_7():
    game = playout({}, seed=13)
    last = [e for e in game.events if e.type in ("move", "place")][-1]
    assert last.seats == (1 - game.first,) and game.day == 7
    assert game.outcome is not None and game.to_act() == frozenset()


def test_ho14_day_one_places_lying_markers():
    game = new_game()
    act(game, S, "place", character=WATSON)
    assert game.markers[S] == {WATSON: False}
    assert types_of(game.legal_actions(S)) == {"take", "decline"}  # Watson: the skill follows


def test_ho15_days_2_to_7_move_a_standing_marker():
    game = new_game()
    jump_to_day(game, 2, [{WATSON: True, HUDSON: True}, {WATSON: True}], board=BOARD)
    act(game, S, "move", **{"from": WATSON, "to": TOBY})
    act(game, S, "decline") if game.to_act() == {S} else None
    act(game, M, "move", **{"from": WATSON, "to": HUDSON})
    act(game, M, "decline")
    with pytest.raises(IllegalAction, match="no standing marker on 'toby'"):
        act(game, S, "move", **{"from": TOBY, "to": IRENE})
    assert all(a["from"] == HUDSON for a in game.legal_actions(S))


def test_ho16_destination_legality():
    game = new_game()
    jump_to_day(game, 3, [{WATSON: True, HUDSON: True}, {LESTRADE: True, IRENE: True}],
                board=BOARD, spent=[WIGGINS])
    with pytest.raises(IllegalAction, match="not a character in play"):
        act(game, S, "move", **{"from": WATSON, "to": GREGSON})
    with pytest.raises(IllegalAction, match="spent"):
        act(game, S, "move", **{"from": WATSON, "to": WIGGINS})
    with pytest.raises(IllegalAction, match="already holds one of your markers"):
        act(game, S, "move", **{"from": WATSON, "to": HUDSON})
    # The opponent's markers never matter.
    assert {a["to"] for a in game.legal_actions(S)} == {LESTRADE, IRENE, TOBY}


def test_ho17_vacated_character_is_legal_again_and_holds_at_most_two():
    game = new_game()
    jump_to_day(game, 2, [{WATSON: True, HUDSON: True}, {WATSON: True, HUDSON: True}],
                board=BOARD)
    act(game, S, "move", **{"from": WATSON, "to": LESTRADE})
    act(game, S, "decline")
    act(game, M, "move", **{"from": WATSON, "to": LESTRADE})
    act(game, M, "decline")
    assert {"type": "move", "from": HUDSON, "to": WATSON} in game.legal_actions(S)
    for seat in (S, M):
        assert all(a["to"] != LESTRADE for a in game.legal_actions(S) if a["type"] == "move")


def test_ho18_every_marker_moves_once_and_all_end_the_day_lying():
    game = playout({}, seed=18)
    # Sum over days: 3 markers per player per day moved or placed.
    assert len(day_moves(game)) == 7 * 6
    game = new_game()
    jump_to_day(game, 3, [{WIGGINS: True, WATSON: True, HUDSON: True},
                          {WIGGINS: True, LESTRADE: True, IRENE: True}],
                board=BOARD, spent=[WIGGINS])
    for _ in range(6):
        seat = min(game.to_act())
        move = next(a for a in game.legal_actions(seat) if a["type"] == "move")
        game.apply(seat, move)
        while game.to_act() == {seat} and game.queue[0].kind != "move":
            game.apply(seat, game.legal_actions(seat)[-1])
    assert game.day == 4 and WIGGINS not in game.markers[S] and WIGGINS not in game.markers[M]


def test_ho19_the_move_is_mandatory_and_the_skill_optional():
    game = new_game()
    assert types_of(game.legal_actions(S)) == {"place"}
    set_area(game, S, im=8)
    visit(game, S, GREGSON)
    assert {"type": "decline"} in game.legal_actions(S)
    act(game, S, "take", slot=0)
    assert {"type": "done"} in game.legal_actions(S)
    act(game, S, "done")
    assert game.areas[S].im == 6 and game.to_act() == {M}


def test_ho20_a_legal_move_always_exists():
    for seed in range(10):
        game = playout({"villains": "both", "reserve_card": True}, seed)
        assert game.outcome is not None


def test_ho21_skill_after_the_marker_cost_paid_in_full_or_not_at_all():
    game = new_game()
    set_area(game, S, im=2)
    visit(game, S, LESTRADE)
    assert game.to_act() == {M} and game.areas[S].im == 2 and game.markers[S][LESTRADE] is False
    game = new_game()
    visit(game, S, HUDSON)
    assert game.markers[S] == {HUDSON: False}  # the marker lands before the skill
    set_im(game, (game.areas[S].im, game.areas[M].im + game.reserve - 1), 1)
    act(game, S, "use")
    assert game.areas[S].im == 6 and game.reserve == 0


def test_ho22_spent_at_the_end_of_the_day_never_initial():
    game = new_game()
    jump_to_day(game, 2, [{WATSON: True, HUDSON: True, LESTRADE: True},
                          {WATSON: True, HUDSON: True, LESTRADE: True}], board=BOARD,
                spent=[TOBY])
    for target in (IRENE, IRENE, WIGGINS, WATSON, HUDSON, WIGGINS):
        seat = min(game.to_act())
        source = next(c for c, up in game.markers[seat].items() if up and c != target)
        act(game, seat, "move", **{"from": source, "to": target})
        while game.to_act() == {seat} and game.queue[0].kind != "move":
            game.apply(seat, game.legal_actions(seat)[-1])
    assert game.spent == {IRENE, WIGGINS}  # Toby is face up again; Watson is initial
    assert game.view(S)["characters"][3]["spent"] is True


def test_ho23_a_spent_character_takes_no_marker_but_markers_leave_it():
    game = new_game()
    jump_to_day(game, 3, [{TOBY: True}, {TOBY: True}], board=BOARD, spent=[TOBY])
    assert all(a["from"] == TOBY for a in game.legal_actions(S))
    assert all(a["to"] != TOBY for a in game.legal_actions(S))
    act(game, S, "move", **{"from": TOBY, "to": HUDSON})
    check_conservation(game)


def test_ho19_range_skill_any_amount():
    game = new_game()
    set_area(game, S, im=10, clues={BUTTON: 1})
    visit(game, S, GREGSON)
    for slot in range(3):
        act(game, S, "take", slot=slot)
    assert game.areas[S].im == 4 and game.to_act() == {M}

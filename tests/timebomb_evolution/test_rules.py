"""One test per numbered rule of engine/timebomb_evolution/RULES.md (EV-n)."""

from collections import Counter

import pytest

import engine
from engine.timebomb_evolution.game import COLOURS

from .conftest import decisions

GAME = "timebomb_evolution"


def play_random(game, rng_seed=0):
    import random

    rng = random.Random(rng_seed)
    while game.outcome is None:
        (seat,) = game.to_act()
        moves = [a for a in game.legal_actions(seat) if a["type"] != "claim"]
        game.apply(seat, rng.choice(moves))
    return game


def test_ev1_components_six_colours_of_five_six_number_cards_no_safe_wire(table):
    assert COLOURS == ("yellow", "blue", "red", "pink", "green", "orange")
    game = table.new(6)
    view = game.view(engine.SPECTATOR)
    assert view["wire_deck"] == {"defusing": 6, **{c: 5 for c in COLOURS}}
    assert view["number_cards"] == [0, 1, 2, 3, 4, 5]
    assert "safe" not in game.kinds and "bomb" not in game.kinds
    assert view["role_deck"] == {"sherlock": 4, "moriarty": 2}


@pytest.mark.parametrize("players", [3, 7, 8])
def test_ev2_four_to_six_players_only(players):
    with pytest.raises(engine.InvalidSetup, match="4-6 players"):
        engine.new_game(GAME, players)


@pytest.mark.parametrize("players,sherlock,moriarty,aside", [(4, 3, 2, 1), (5, 3, 2, 0), (6, 4, 2, 0)])
def test_ev3_role_deck_and_each_player_sees_only_their_role(players, sherlock, moriarty, aside):
    moriartys_in_play = Counter()
    for seed in range(200):
        game = engine.new_game(GAME, players, seed=seed)
        assert Counter(game.roles + ([game.set_aside] if game.set_aside else [])) == {
            "sherlock": sherlock, "moriarty": moriarty}
        moriartys_in_play[game.roles.count("moriarty")] += 1
        for seat in range(players):
            view = game.view(seat)
            assert view["role"] == game.roles[seat]
            assert "roles" not in view and "set_aside" not in view
        assert game.view(0)["set_aside_count"] == aside
    expected = {1, 2} if players == 4 else {2}
    assert set(moriartys_in_play) == expected


def test_ev4_colours_random_by_default_or_picked_by_the_host_in_any_order(table):
    seen = {tuple(engine.new_game(GAME, 4, seed=s).colours) for s in range(60)}
    assert len(seen) > 5 and all(len(c) == 4 for c in seen)
    game = engine.new_game(GAME, 4, {"colours": ["orange", "pink", "yellow", "green"]})
    assert game.colours == ("yellow", "pink", "green", "orange")
    assert game.options["colours"] == ["yellow", "pink", "green", "orange"]
    for bad in (["yellow", "yellow", "pink", "green"], ["yellow", "pink", "green"],
                ["yellow", "pink", "green", "purple"], "yellow"):
        with pytest.raises(engine.InvalidSetup, match="colours"):
            engine.new_game(GAME, 4, {"colours": bad})


@pytest.mark.parametrize("players", [4, 5, 6])
def test_ev5_wire_deck_removes_n_bombs_unseen_and_adds_n_defusing(players):
    for seed in range(30):
        game = engine.new_game(GAME, players, seed=seed)
        in_hands = [sum(h[k] for h in game.hands) for k in range(len(game.kinds))]
        assert in_hands[0] == players
        assert sum(in_hands[1:]) == 4 * players
        assert sum(game.removed) == players
        assert all(in_hands[k] + game.removed[k] == 5 for k in range(1, len(game.kinds)))
        assert all(sum(h) == 5 for h in game.hands)
        for viewer in (engine.SPECTATOR, *range(players)):
            assert "removed" not in game.view(viewer)
        assert sum(game.view(engine.REFEREE)["removed"].values()) == players
        assert game.view(0)["removed_count"] == players


def test_ev6_a_hand_is_seen_as_a_multiset_never_by_position(table):
    game = engine.new_game(GAME, 5, seed=4)
    view = game.view(2)
    assert view["hand"] == dict(zip(game.kinds, game.hands[2]))
    deal = [e for e in view["events"] if e["type"] == "hand"]
    assert len(deal) == 1 and deal[0]["hand"] == view["hand"]
    assert "hands" not in view and "hand" not in game.view(engine.SPECTATOR)


def test_ev7_first_player_random_by_default_or_chosen():
    firsts = {engine.new_game(GAME, 5, seed=s).cutter for s in range(40)}
    assert firsts == set(range(5))
    assert engine.new_game(GAME, 5, {"first_player": 3}).cutter == 3
    with pytest.raises(engine.InvalidSetup, match="first_player"):
        engine.new_game(GAME, 5, {"first_player": 5})


def test_ev8_never_your_own_wire_but_cutting_back_is_legal(table):
    game = table.new(5)
    with pytest.raises(engine.IllegalAction, match="own wire"):
        game.apply(0, {"type": "cut", "target": 0})
    assert {a["target"] for a in game.legal_actions(0) if a["type"] == "cut"} == {1, 2, 3, 4}
    table.hold(game, 1, yellow=5)
    table.cut(game, 0, 1, "yellow")
    table.cut(game, 1, 0)  # cut back the player who just cut you


def test_ev9_the_owner_of_the_revealed_wire_takes_the_wire_cutter(table):
    game = table.new(5)
    table.hold(game, 3, yellow=5)
    table.cut(game, 0, 3)
    assert game.cutter == 3 and game.to_act() == frozenset({3})


@pytest.mark.parametrize("variante", [False, True])
def test_ev10_four_rounds_of_n_cuts_with_hands_5_4_3_2(table, variante):
    game = table.new(4, variante=variante, colours=["yellow", "blue", "pink", "green"])
    for round_, hand in zip((1, 2, 3, 4), (5, 4, 3, 2)):
        assert (game.round, game.round_length()) == (round_, 4)
        assert [sum(h) for h in game.hands] == [hand] * 4
        for cut in range(4):
            # Keep every colour and the Defusing count far from a win: only rounds matter here.
            game.revealed_counts[:] = [0] * len(game.kinds)
            game.last_reveal = None
            (seat,) = game.to_act()
            game.apply(seat, game.legal_actions(seat)[0])
            while game.pending is not None:
                (seat,) = game.to_act()
                game.apply(seat, game.legal_actions(seat)[0])
            assert game.cuts == (cut + 1) % 4 or game.outcome is not None
    assert game.outcome.reason == "time"


def test_ev11_redeal_keeps_revealed_cards_and_wires_on_colours(table):
    game = table.new(4, colours=["yellow", "blue", "red", "green"])
    table.reveal(game, green=1)
    table.lay(game, "green")
    game.cuts = 3  # three cuts made: 17 face-down wires left
    for seat, size in enumerate((4, 5, 4, 4)):
        table.hold(game, seat, blue=size)
    table.hold(game, 2, yellow=5)
    table.hold(game, 1, blue=4)
    table.cut(game, 0, 2)
    assert game.round == 2 and game.cuts == 0
    assert game.revealed_counts[game.kinds.index("yellow")] == 1
    assert game.wire_on == {"green": 1}
    assert game.cutter == 2
    assert [sum(h) for h in game.hands] == [4, 4, 4, 4]
    view = game.view(engine.SPECTATOR)
    assert (view["round"], view["cutter"], view["revealed_counts"]["yellow"]) == (2, 2, 1)


def test_ev12_an_empty_row_still_cuts_but_cannot_be_targeted(table):
    game = table.new(5, variante=False)
    table.hold(game, 1, yellow=1)
    table.cut(game, 0, 1)
    assert sum(game.hands[1]) == 0
    assert game.to_act() == frozenset({1})
    targets = {a["target"] for a in game.legal_actions(1) if a["type"] == "cut"}
    assert 1 not in targets and targets
    table.cut(game, 1, 2)
    with pytest.raises(engine.IllegalAction, match="no face-down wire"):
        game.apply(2, {"type": "cut", "target": 1})


def test_ev13_base_defusing_wire_only_counts_and_the_nth_wins(table):
    game = table.new(4, variante=False)
    table.reveal(game, red=1)
    table.hold(game, 1, defusing=2, red=1)
    table.cut(game, 0, 1, "defusing")
    assert game.pending is None and game.wire_on == {}
    assert game.view(0)["defusing_found"] == 1 and game.view(0)["set_apart"] == []
    for _ in range(2):
        table.lay(game, None)
    table.hold(game, 2, defusing=1)
    table.cut(game, 1, 2)
    assert game.outcome.reason == "defused" and game.outcome.winning_team == "sherlock"


@pytest.mark.parametrize("colour", COLOURS)
def test_ev14_base_threshold_is_four_for_every_colour_green_included(table, colour):
    colours = [c for c in COLOURS if c != colour][:3] + [colour]
    game = table.new(4, variante=False, colours=colours)
    table.reveal(game, **{colour: 2})
    table.hold(game, 1, **{colour: 5})
    table.hold(game, 2, **{colour: 5})
    table.cut(game, 0, 1)
    assert game.outcome is None
    table.cut(game, 1, 2)
    assert game.outcome.reason == "bomb" and game.outcome.winning_team == "moriarty"
    assert colour.capitalize() in game.outcome.text


def test_ev15_round_four_ends_without_a_win_moriarty_wins_on_time(table):
    game = table.new(4, variante=False, colours=["yellow", "blue", "red", "pink"])
    game.round, game.cuts = 4, 3
    table.hold(game, 1, blue=2)
    table.cut(game, 0, 1)
    assert game.outcome.reason == "time" and game.outcome.winning_team == "moriarty"


def test_ev16_defusing_wire_goes_on_an_eligible_colour_chosen_by_the_cutter(table):
    game = table.new(5)
    table.reveal(game, yellow=2, red=1, pink=1)
    table.lay(game, "pink")
    table.hold(game, 3, defusing=3)
    table.cut(game, 0, 3)
    # Yellow can never be defused, Pink has a wire, Blue and Green have no revealed card.
    assert game.to_act() == frozenset({0})
    assert decisions(game, 0) == [{"type": "defuse", "colour": "red"}]
    assert decisions(game, 3) == []
    with pytest.raises(engine.IllegalAction, match="not a choice"):
        game.apply(0, {"type": "defuse", "colour": "yellow"})
    with pytest.raises(engine.IllegalAction, match="waiting for seat 0"):
        game.apply(0, {"type": "cut", "target": 1})
    game.apply(0, {"type": "defuse", "colour": "red"})
    assert game.wire_on == {"pink": 1, "red": 2} and game.cutter == 3
    # No eligible colour: set apart at once, and it stays apart when a colour turns up later.
    game.revealed_counts[game.kinds.index("red")] = 1
    table.hold(game, 1, defusing=1, blue=1)
    table.cut(game, 3, 1, "defusing")
    assert game.pending is None and game.view(0)["set_apart"] == [3]
    table.hold(game, 2, blue=3)
    table.cut(game, 1, 2)  # the first Blue: Blue is now eligible, the wire apart stays apart
    assert game.defusing_wires[2]["on"] is None and "blue" not in game.wire_on


def test_ev17_blue_moves_a_wire_apart_which_may_re_arm_its_colour(table):
    game = table.new(5)
    table.reveal(game, red=2, green=1, blue=1)
    table.lay(game, "red")
    table.lay(game, "green")
    table.hold(game, 1, blue=4)
    table.cut(game, 0, 1)
    assert decisions(game, 0) == [
        {"type": "move_apart", "colour": "red"}, {"type": "move_apart", "colour": "green"}]
    game.apply(0, {"type": "move_apart", "colour": "green"})
    assert game.outcome is None and game.wire_on == {"red": 1}
    view = game.view(4)
    assert view["moved_apart"] == [2] and view["defused"] == {"red": 1}
    assert view["defusing_found"] == 2  # a moved wire still counts (EV-20)
    # Green can be defused again by a later wire.
    table.hold(game, 2, defusing=1)
    table.cut(game, 1, 2)
    assert {"type": "defuse", "colour": "green"} in game.legal_actions(1)
    game.apply(1, {"type": "defuse", "colour": "green"})
    assert game.wire_on == {"red": 1, "green": 3}
    # With no wire on any colour, a Blue does nothing.
    game2 = table.new(5)
    table.hold(game2, 1, blue=2)
    table.cut(game2, 0, 1)
    assert game2.pending is None and game2.cutter == 1


def test_ev18_pink_after_pink_explodes_even_defused_and_a_wire_between_breaks_it(table):
    game = table.new(4, colours=["yellow", "red", "pink", "green"])
    table.reveal(game, pink=1)
    table.lay(game, "pink")
    table.hold(game, 1, pink=2, defusing=1)
    table.hold(game, 2, pink=3)
    table.hold(game, 3, defusing=1)
    table.cut(game, 0, 1, "pink")
    assert game.outcome is None  # Pink is defused and the previous reveal was not Pink
    table.cut(game, 1, 3)  # a Defusing wire (set apart: no colour is eligible)
    table.cut(game, 3, 2)
    assert game.outcome is None and game.last_reveal == "pink"
    assert game.view(engine.SPECTATOR)["last_reveal"] == "pink"
    table.cut(game, 2, 1, "pink")
    assert game.outcome.reason == "pink" and game.outcome.winning_team == "moriarty"
    # Without the Variante a Pink pair is just two cards.
    base = table.new(4, variante=False, colours=["yellow", "red", "pink", "green"])
    table.hold(base, 1, pink=5)
    table.hold(base, 2, pink=5)
    table.cut(base, 0, 1)
    table.cut(base, 1, 2)
    assert base.outcome is None


def test_ev19_red_draws_a_number_card_that_designates_the_next_target(table):
    numbers = Counter()
    for seed in range(300):
        game = table.new(5, seed=seed)
        table.hold(game, 2, red=5)
        table.cut(game, 0, 2)
        # The owner of the Red, the new cutter, draws.
        assert game.to_act() == frozenset({2})
        assert decisions(game, 2) == [{"type": "draw_number"}]
        game.apply(2, {"type": "draw_number"})
        number = game.draws[-1]["number"]
        numbers[number] += 1
        assert game.designated == (2 + number) % 5
        assert [a["target"] for a in game.legal_actions(2) if a["type"] == "cut"] == [
            game.designated]
    assert set(numbers) == set(range(5)) and min(numbers.values()) > 30
    # No Red power without the Variante.
    base = table.new(5, variante=False)
    table.hold(base, 2, red=5)
    table.cut(base, 0, 2)
    assert base.pending is None and base.designated is None


def test_ev20_every_revealed_defusing_wire_counts_for_sherlock(table):
    game = table.new(5)
    table.lay(game, None)                       # set apart
    table.lay(game, None, moved_apart=True)     # moved apart by Blue
    table.reveal(game, red=1, green=1)
    table.lay(game, "red")
    table.lay(game, "green")
    table.hold(game, 1, defusing=1)
    table.cut(game, 0, 1)
    assert game.outcome.reason == "defused" and game.outcome.winning_team == "sherlock"


def test_ev21_orange_shortens_round_four_frozen_at_its_start(table):
    for variante, length in ((True, 3), (False, 5)):
        game = table.new(5, variante=variante, colours=["yellow", "blue", "red", "green", "orange"])
        table.reveal(game, orange=2)
        game.round, game.cuts = 3, 4  # 11 face-down wires left
        for seat, size in enumerate((2, 3, 2, 2, 2)):
            table.hold(game, seat, blue=size)
        assert game.view(0)["round4_length"] == length
        assert game.view(0)["round4_length_final"] is not variante
        table.cut(game, 0, 1)
        assert game.round == 4 and game.round_length() == length
        view = game.view(engine.SPECTATOR)
        assert view["round4_length"] == view["round_length"] == length
        assert view["round4_length_final"]
        table.hold(game, 2, orange=2)
        table.cut(game, 1, 2)
        assert game.revealed("orange") == 3 and game.round_length() == length


def test_ev22_resolution_order(table):
    # Step 2 before the assignment: the N-th Defusing wire wins, no decision.
    game = table.new(4, colours=["yellow", "blue", "red", "green"])
    table.reveal(game, red=1)
    for _ in range(3):
        table.lay(game, None)
    table.hold(game, 1, defusing=1)
    table.cut(game, 0, 1)
    assert game.outcome.winning_team == "sherlock" and game.pending is None
    # 3b before 3d: a 4th Red explodes, and no Number card is drawn.
    game = table.new(4, colours=["yellow", "blue", "red", "green"])
    table.reveal(game, red=3)
    table.hold(game, 1, red=2)
    table.cut(game, 0, 1)
    assert game.outcome.reason == "bomb" and game.draws == []
    # 3b before 3c: an undefused 4th Blue explodes before any wire is moved.
    game = table.new(4, colours=["yellow", "blue", "red", "green"])
    table.reveal(game, blue=3, red=1)
    table.lay(game, "red")
    table.hold(game, 1, blue=2)
    table.cut(game, 0, 1)
    assert game.outcome.reason == "bomb" and game.wire_on == {"red": 1}
    # Step 4 waits for the decision: the cutter passes only once it is made.
    game = table.new(4, colours=["yellow", "blue", "red", "green"])
    table.reveal(game, red=1)
    table.hold(game, 1, defusing=1, yellow=1)
    table.cut(game, 0, 1, "defusing")
    assert game.cutter == 0 and game.to_act() == frozenset({0})
    game.apply(0, {"type": "defuse", "colour": "red"})
    assert game.cutter == 1


def test_ev23_the_last_defusing_wire_wins_on_round_fours_last_cut(table):
    game = table.new(5, colours=["yellow", "blue", "red", "green", "orange"])
    table.reveal(game, orange=2)
    game.round, game.round4_length, game.cuts = 4, 3, 2
    for _ in range(4):
        table.lay(game, None)
    table.hold(game, 1, defusing=1, yellow=1)
    table.cut(game, 0, 1, "defusing")
    assert game.outcome.reason == "defused"


def test_ev24_end_reveal_shows_roles_set_aside_hands_and_the_removed_pile():
    game = play_random(engine.new_game(GAME, 4, {"variante": True}, seed=11))
    for viewer in (engine.SPECTATOR, 0, 3):
        view = game.view(viewer)
        assert view["roles"] == game.roles
        assert view["set_aside"] == game.set_aside
        assert view["hands"] == [dict(zip(game.kinds, h)) for h in game.hands]
        assert view["removed"] == dict(zip(game.colours, game.removed[1:]))
        assert sum(view["removed"].values()) == 4


def test_ev19_a_red_on_the_games_last_cut_draws_nothing(table):
    game = table.new(5)
    game.round, game.round4_length, game.cuts = 4, 5, 4
    table.hold(game, 1, red=2)
    table.cut(game, 0, 1)
    assert game.outcome.reason == "time" and game.draws == [] and game.pending is None


def test_ev19_a_designated_player_without_wires_takes_the_wire_cutter(table):
    game = table.new(5)
    table.hold(game, 3, yellow=0)  # D has no wire left
    table.hold(game, 2, red=2)
    table.cut(game, 0, 2)
    table.next_number(game, 1)
    table.act(game, 2, "draw_number")
    assert game.designated is None and game.cutter == 3
    assert game.view(engine.SPECTATOR)["events"][-1]["type"] == "designation_lapsed"
    assert 3 not in {a["target"] for a in game.legal_actions(3) if a["type"] == "cut"}

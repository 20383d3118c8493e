"""One test per numbered rule of engine/machinations/RULES.md (MM-1 to MM-40).

Most tables are dealt the composition in the rules' order (`COMPOSITIONS[n]`), so at 7 players
seat 0 is Moriarty, 1 Moran, 2 Jack, 3 Brutus, 4 Sherlock, 5 Lestrade, 6 Watson.
"""

from __future__ import annotations

import itertools

import pytest

import engine
from engine.machinations.cards import ABET, FOIL, MAX_NAME, TAKE_THE_FALL
from engine.machinations.roles import (
    BRUTUS,
    COMPOSITIONS,
    COPS,
    IRENE,
    JACK,
    JUDGE,
    LESTRADE,
    MORAN,
    MORIARTY,
    MYCROFT,
    NEUTRAL,
    ROBBERS,
    ROLES,
    SHERLOCK,
    WATSON,
    team_of,
)

FIRST = {"first_proposer": 0, "accusation_trigger": "combined"}
"""Seat 0 proposes first, and the accusations come after few heists (the combined trigger)."""


def table_for(rig, n, **options):
    return rig(COMPOSITIONS[n], {**FIRST, **options})


def finish_heists(table, teams):
    for team in teams:
        table.heist_to(team)


# -- 1. Terms and components --------------------------------------------------------------


def test_mm1_teams_and_cops_are_the_minority_at_every_count():
    assert {r for r in ROLES if team_of(r) == ROBBERS} == {MORIARTY, MORAN, JUDGE, JACK, BRUTUS}
    assert {r for r in ROLES if team_of(r) == COPS} == {SHERLOCK, LESTRADE, WATSON, MYCROFT}
    assert team_of(IRENE) == NEUTRAL
    for roles in COMPOSITIONS.values():
        teams = [team_of(r) for r in roles]
        assert teams.count(COPS) < teams.count(ROBBERS)


def test_mm2_left_of_the_last_seat_is_the_first(rig):
    table = rig(COMPOSITIONS[5], {"first_proposer": 4})
    table.fail()
    assert table.game.proposer == 0


def test_mm3_each_player_votes_approve_or_object_and_each_crew_member_holds_three_cards(rig):
    table = table_for(rig, 7)
    game = table.game
    table.propose([2, 3])
    for seat in range(7):
        assert game.legal_actions(seat) == [
            {"type": "vote", "approve": True}, {"type": "vote", "approve": False}]
    table.vote(range(7))
    # Brutus (seat 3) may use all three cards; the other member Abet and Foil (MM-20).
    assert [a["card"] for a in game.legal_actions(3)] == [ABET, FOIL, TAKE_THE_FALL]
    assert [a["card"] for a in game.legal_actions(2)] == [ABET, FOIL]


def test_mm4_the_proposer_names_the_crew_and_the_accusers_are_lestrade_and_jack(rig):
    table = table_for(rig, 7)
    game = table.game
    assert game.to_act() == {0} and game.view(engine.SPECTATOR)["proposer"] == 0
    finish_heists(table, ["cops", "cops", "cops"])
    assert game.phase == "accusation"
    assert game.to_act() == {table.seat(LESTRADE), table.seat(JACK)}


# -- 2. Roles -----------------------------------------------------------------------------


def test_mm5_role_table_names_titles_and_teams():
    assert ROLES[SHERLOCK] == ("Sherlock Holmes", "The Great Detective", COPS)
    assert ROLES[MORIARTY] == ("Professor Moriarty", "The Criminal Mastermind", ROBBERS)
    assert ROLES[LESTRADE] == ("Inspector Lestrade", "The Policeman", COPS)
    assert ROLES[MORAN] == ("Colonel Sebastian Moran", "The Bodyguard", ROBBERS)
    assert ROLES[JUDGE] == ("Judge Grede", "The Corrupt Magistrate", ROBBERS)
    assert ROLES[JACK] == ("Jack the Ripper", "The Killer", ROBBERS)
    assert ROLES[IRENE] == ("Irene Adler", "The Love Interest", NEUTRAL)
    assert ROLES[WATSON] == ("Doctor Watson", "The Loyal Friend", COPS)
    assert ROLES[BRUTUS] == ("Brutus", "The Thug", ROBBERS)
    assert ROLES[MYCROFT] == ("Mycroft Holmes", "The Government Agent", COPS)
    # The "Players" column: which counts deal each role.
    present = {r: [n for n, roles in COMPOSITIONS.items() if r in roles] for r in ROLES}
    assert present[SHERLOCK] == [6, 7, 8, 9, 10]
    assert present[MORIARTY] == present[LESTRADE] == present[JACK] == [5, 6, 7, 8, 9, 10]
    assert present[MORAN] == [6, 7, 8, 9, 10]
    assert present[JUDGE] == [5, 9, 10]
    assert present[IRENE] == [6, 8, 10]
    assert present[WATSON] == [5, 7, 8, 9, 10]
    assert present[BRUTUS] == [7, 8, 9, 10]
    assert present[MYCROFT] == [9, 10]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (5, (3, 2, 0)),
        (6, (3, 2, 1)),
        (7, (4, 3, 0)),
        (8, (4, 3, 1)),
        (9, (5, 4, 0)),
        (10, (5, 4, 1)),
    ],
)
def test_mm6_composition_per_player_count(n, expected):
    teams = [team_of(r) for r in COMPOSITIONS[n]]
    assert (teams.count(ROBBERS), teams.count(COPS), teams.count(NEUTRAL)) == expected
    assert len(set(COMPOSITIONS[n])) == n
    game = engine.new_game("machinations", n, {}, 1)
    assert sorted(game.roles) == sorted(COMPOSITIONS[n])
    if n == 5:
        assert JUDGE in COMPOSITIONS[5]  # MM-6 Decision


def test_mm7_the_composition_is_public():
    game = engine.new_game("machinations", 8, {}, 3)
    for viewer in (engine.SPECTATOR, 0, 7):
        assert game.view(viewer)["composition"] == list(COMPOSITIONS[8])


# -- 3. Setup and Information Exchange ----------------------------------------------------


def test_mm8_roles_are_dealt_at_random_and_each_seat_sees_only_its_own():
    deals = {tuple(engine.new_game("machinations", 7, {}, seed).roles) for seed in range(30)}
    assert len(deals) > 20
    game = engine.new_game("machinations", 7, {}, 5)
    for seat in range(7):
        view = game.view(seat)
        assert view["role"] == game.roles[seat]
        assert view["roles"] is None
    assert "role" not in game.view(engine.SPECTATOR)


def test_mm9_each_role_learns_by_identity_or_as_an_unordered_pair(rig):
    game = table_for(rig, 7).game
    sherlock = game.view(4)["knowledge"]
    assert sherlock == [
        {"form": "id", "seats": [5], "roles": [LESTRADE]},
        {"form": "id", "seats": [6], "roles": [WATSON]},
        {"form": "id", "seats": [3], "roles": [BRUTUS]},
    ]
    assert game.view(0)["knowledge"] == [
        {"form": "pair", "seats": [5, 6], "roles": [LESTRADE, WATSON]}]


def test_mm10_every_look_goes_one_way_except_sherlock_and_watson(rig):
    game = table_for(rig, 10).game  # 0 Moriarty 1 Moran 2 Judge 3 Jack 4 Brutus 5 Sherlock
    seen_by = {s: {t for e in game.knowledge[s] for t in e["seats"]} for s in range(10)}
    mutual = {(a, b) for a in range(10) for b in seen_by[a] if a in seen_by[b]}
    assert mutual == {(5, 7), (7, 5)}  # Sherlock and Watson only
    assert 8 not in seen_by[2] and 2 not in seen_by[8]  # Judge and Mycroft
    assert 1 not in seen_by[0]  # Moriarty is not shown Moran
    assert seen_by[6] == set()  # Lestrade is told nothing, not even who has seen him


def test_mm11_first_proposer_is_the_option(rig):
    for seat in range(6):
        assert engine.new_game("machinations", 6, {"first_proposer": seat}).proposer == seat
    firsts = {engine.new_game("machinations", 6, {}, seed).proposer for seed in range(200)}
    assert firsts == set(range(6))


# -- 4. Proposal and vote -----------------------------------------------------------------


def test_mm12_a_crew_is_two_to_n_distinct_players_with_an_optional_free_text_name(rig):
    table = table_for(rig, 6)
    game = table.game
    crews = [a["crew"] for a in game.legal_actions(0)]
    assert len(crews) == 2**6 - 6 - 1 and all(a["name"] == "" for a in game.legal_actions(0))
    assert [0, 1] in crews and list(range(6)) in crews
    for bad, message in [([1], "2 to 6"), ([1, 1], "once"), ([1, 6], "no seat 6"),
                         (list(range(6)) + [0], "2 to 6")]:
        with pytest.raises(engine.IllegalAction, match=message):
            table.propose(bad)
    with pytest.raises(engine.IllegalAction, match=f"at most {MAX_NAME}"):
        table.propose([0, 1], name="x" * (MAX_NAME + 1))
    table.propose([3, 0], name="  The Crown\x07 {0}\u200b Jewels\n ")
    assert game.proposal == {"proposer": 0, "name": "The Crown {0} Jewels", "crew": [0, 3]}
    event = game.events[-1]
    assert event.text.format("Ann", "Ann", "Dan") == (
        "Ann proposes “The Crown {0} Jewels” with the crew Ann, Dan.")


def test_mm13_an_ineligible_crew_cannot_be_proposed(rig):
    table = table_for(rig, 6)
    table.heist([0, 1])
    assert [1, 2] not in [a["crew"] for a in table.game.legal_actions(1)]
    with pytest.raises(engine.IllegalAction, match="MM-22"):
        table.propose([1, 2])


def test_mm14_everyone_votes_in_secret_and_the_votes_are_revealed_with_names(rig):
    table = table_for(rig, 6)
    game = table.game
    table.propose([0, 1])
    assert game.to_act() == set(range(6))
    for seat in range(5):
        game.apply(seat, {"type": "vote", "approve": seat % 2 == 0})
        assert game.view(5)["voted"] == list(range(seat + 1))
        assert game.view(5)["vote_history"] == []
    game.apply(5, {"type": "vote", "approve": False})
    record = game.view(engine.SPECTATOR)["vote_history"][-1]
    assert record["votes"] == [True, False, True, False, True, False]
    assert game.events[-2].type == "votes" and game.events[-2].seats == (0, 2, 4, 1, 3, 5)


@pytest.mark.parametrize(("n", "ayes", "approved"),
                         [(6, 3, False), (6, 4, True), (7, 3, False), (7, 4, True), (5, 3, True)])
def test_mm15_a_strict_majority_approves_and_a_tie_fails(rig, n, ayes, approved):
    table = table_for(rig, n)
    table.propose([0, 1])
    table.vote(range(ayes))
    assert table.game.vote_history[-1]["approved"] is approved
    assert table.game.phase == ("heist" if approved else "proposal")


def test_mm16_a_failed_vote_grows_the_streak_and_passes_the_proposal_left(rig):
    table = table_for(rig, 7)
    for expected in range(1, 4):
        table.fail()
        assert table.game.streak == expected
        assert table.game.proposer == expected


def test_mm17_n_failures_in_a_row_end_the_game_for_the_cops(rig):
    table = table_for(rig, 6)
    for _ in range(6):
        table.fail()
    outcome = table.game.outcome
    assert outcome.reason == "streak" and outcome.winning_team == COPS
    assert outcome.winners == {3, 4}  # Sherlock and Lestrade; Irene (5) loses
    assert table.game.phase == "over" and not table.game.choosers


def test_mm18_a_heist_resets_the_streak(rig):
    table = table_for(rig, 7)
    table.fail()
    table.fail()
    table.heist_to("robbers")
    assert table.game.streak == 0


def test_mm19_after_a_heist_the_seat_left_of_its_proposer_proposes(rig):
    table = table_for(rig, 7)
    table.fail()
    table.heist_to("robbers")  # proposed by seat 1
    assert table.game.proposer == 2


# -- 5. Heist -----------------------------------------------------------------------------


def test_mm20_any_member_abets_or_foils_and_only_brutus_takes_the_fall_once(rig):
    table = table_for(rig, 7)
    game = table.game
    table.propose([3, 4])
    table.vote(range(7))
    with pytest.raises(engine.IllegalAction, match="only Brutus"):
        game.apply(4, {"type": "play", "card": TAKE_THE_FALL})
    with pytest.raises(engine.IllegalAction, match="'abet', 'foil'"):
        game.apply(4, {"type": "play", "card": "joker"})
    table.play({3: TAKE_THE_FALL, 4: FOIL})
    table.propose([3, 5, 6])
    table.vote(range(7))
    assert game.view(3)["can_take_the_fall"] is False
    assert [a["card"] for a in game.legal_actions(3)] == [ABET, FOIL]
    with pytest.raises(engine.IllegalAction, match="once per game"):
        game.apply(3, {"type": "play", "card": TAKE_THE_FALL})


@pytest.mark.parametrize(
    ("cards", "team"),
    [  # at 7 players seat 3 is Brutus
        ({4: ABET, 5: ABET}, ROBBERS),
        ({4: FOIL, 5: ABET}, COPS),
        ({4: FOIL, 3: TAKE_THE_FALL}, ROBBERS),
        ({4: ABET, 3: TAKE_THE_FALL}, ROBBERS),
        ({4: FOIL, 5: FOIL, 3: TAKE_THE_FALL}, COPS),
    ],
)
def test_mm21_effective_foils_decide_the_heist_and_points_are_1_then_2(rig, cards, team):
    table = table_for(rig, 7)
    table.heist(sorted(cards), cards)
    heist = table.game.heists[0]
    assert heist["team"] == team and heist["points"] == 1
    assert sum(heist["cards"].values()) == len(cards)
    assert table.game.fall_used is (TAKE_THE_FALL in cards.values())
    table.heist_to(COPS if team == ROBBERS else ROBBERS)
    assert table.game.heists[1]["points"] == 2
    scores = table.game.scores
    assert scores[COPS] + scores[ROBBERS] == 3 and scores[COPS] != scores[ROBBERS]


# -- 6. Eligibility -----------------------------------------------------------------------


def test_mm22_no_player_goes_on_two_heists_of_the_same_crew_size(rig):
    table = table_for(rig, 7)
    table.heist([0, 1])
    assert table.game.view(engine.SPECTATOR)["crew_sizes"] == [[2], [2], [], [], [], [], []]
    legal = [a["crew"] for a in table.game.legal_actions(1)]
    assert [2, 3] in legal and [1, 2, 3] in legal
    assert not any(len(c) == 2 and (0 in c or 1 in c) for c in legal)


def test_mm23_only_performed_heists_are_recorded(rig):
    table = table_for(rig, 7)
    table.fail([0, 1])
    assert table.game.sizes == [set()] * 7
    assert [0, 1] in [a["crew"] for a in table.game.legal_actions(1)]


def _most_heists_before_either_team_trigger(n: int) -> int:
    """The longest heist phase: every way of awarding heists until a team reaches N - 2."""
    most, frontier = 0, [(0, 0, 0)]
    while frontier:
        cops, robbers, heists = frontier.pop()
        if max(cops, robbers) >= n - 2:
            most = max(most, heists)
            continue
        points = 1 if heists == 0 else 2
        frontier += [(cops + points, robbers, heists + 1), (cops, robbers + points, heists + 1)]
    return most


@pytest.mark.parametrize("n", range(5, 11))
def test_mm24_a_legal_crew_always_exists_before_the_trigger(n):
    heists_to_block_all = sum(n // s for s in range(2, n + 1))
    assert heists_to_block_all == {5: 5, 10: 17}.get(n, heists_to_block_all)
    max_heists = _most_heists_before_either_team_trigger(n)
    assert max_heists == {5: 3, 10: 8}.get(n, max_heists)
    assert heists_to_block_all > max_heists
    # And at the table: the most sizes a heist phase can record still leaves crews to propose.
    game = engine.new_game("machinations", n, {"accusation_trigger": "either_team",
                                               "first_proposer": 0})
    table_heists = 0
    while game.phase != "accusation":
        legal = game.legal_actions(game.proposer)
        assert legal, "no legal crew"
        crew = legal[-1]["crew"] if table_heists % 2 else legal[0]["crew"]
        game.apply(game.proposer, {"type": "propose", "name": "", "crew": crew})
        for seat in range(n):
            game.apply(seat, {"type": "vote", "approve": True})
        for i, seat in enumerate(crew):
            card = FOIL if table_heists % 2 and i == 0 else ABET
            game.apply(seat, {"type": "play", "card": card})
        table_heists += 1
    assert table_heists <= max_heists


# -- 7. End of the heist phase ------------------------------------------------------------


@pytest.mark.parametrize(("n", "heists"), [(5, 2), (6, 3), (7, 3), (8, 4), (9, 4), (10, 5)])
def test_mm25_the_combined_trigger_fires_at_n_minus_2(rig, n, heists):
    table = table_for(rig, n)
    for i in range(heists):
        assert table.game.phase == "proposal"
        table.heist_to(ROBBERS if i % 2 else COPS)
    assert table.game.phase == "accusation"
    assert sum(table.game.scores.values()) == 2 * heists - 1 >= n - 2


# -- 8. Accusation phase ------------------------------------------------------------------


@pytest.mark.parametrize(("n", "reveals", "jack_shown"),
                         [(5, True, False), (5, False, False), (6, True, True), (6, False, True)])
def test_mm26_jack_reveals_at_six_or_more_and_lestrade_as_the_option_says(rig, n, reveals,
                                                                          jack_shown):
    table = table_for(rig, n, lestrade_reveals=reveals)
    finish_heists(table, [COPS] * (2 if n == 5 else 3))
    revealed = table.game.view(engine.SPECTATOR)["revealed"]
    assert (revealed[table.seat(JACK)] == JACK) is jack_shown
    assert (revealed[table.seat(LESTRADE)] == LESTRADE) is reveals
    assert sum(r is not None for r in revealed) == jack_shown + reveals


def test_mm27_the_accusation_phase_waits_for_the_accusers_without_a_clock(rig):
    table = table_for(rig, 7)
    finish_heists(table, [COPS] * 3)
    game = table.game
    for seat in set(range(7)) - game.to_act():
        assert game.legal_actions(seat) == []
        with pytest.raises(engine.IllegalAction, match="not your turn"):
            game.apply(seat, {"type": "accuse", "target": 0})
    assert game.to_act() == {2, 5} and game.outcome is None


def test_mm28_accusers_name_any_other_player_including_each_other(rig):
    table = table_for(rig, 7)
    finish_heists(table, [COPS] * 3)
    game = table.game
    assert [a["target"] for a in game.legal_actions(5)] == [0, 1, 2, 3, 4, 6]
    with pytest.raises(engine.IllegalAction, match="another player"):
        table.accuse(5, 5)
    with pytest.raises(engine.IllegalAction, match="no seat 9"):
        table.accuse(5, 9)
    table.accuse(5, 2)  # Lestrade arrests Jack
    table.accuse(2, 5)  # Jack murders Lestrade
    assert (game.arrest, game.murder) == (2, 5)


def test_mm29_both_targets_are_chosen_in_secret_and_revealed_together(rig):
    table = table_for(rig, 7)
    finish_heists(table, [COPS] * 3)
    game = table.game
    table.accuse(2, 4)
    for viewer in (engine.SPECTATOR, 0, 5):
        view = game.view(viewer)
        assert view["chosen"] == [2] and view["murder"] is None
    assert game.view(2)["my_target"] == 4
    table.accuse(5, 0)
    assert (game.arrest, game.murder) == (0, 4)
    assert game.outcome.reason == "points"


@pytest.mark.parametrize(("arrest", "murder", "reason"),
                         [(MORIARTY, WATSON, "arrest"), (JUDGE, SHERLOCK, "murder"),
                          (MORIARTY, SHERLOCK, "points"), (JUDGE, WATSON, "points")])
def test_mm30_a_is_arresting_moriarty_and_m_is_murdering_sherlock(rig, arrest, murder, reason):
    roles = (MORIARTY, MORAN, JUDGE, JACK, BRUTUS, SHERLOCK, LESTRADE, WATSON, MYCROFT)
    table = rig(roles, FIRST)
    finish_heists(table, [COPS, ROBBERS, COPS, ROBBERS])
    table.accuse(table.seat(LESTRADE), table.seat(arrest))
    table.accuse(table.seat(JACK), table.seat(murder))
    assert table.game.outcome.reason == reason
    # At 5 players there is no murder, so M is false.
    five = table_for(rig, 5)
    finish_heists(five, [COPS, ROBBERS])
    five.accuse(five.seat(LESTRADE), five.seat(JACK))
    assert five.game.murder is None and five.game.outcome.reason == "points"


def test_mm31_every_ending_reveals_every_role(rig):
    streak = table_for(rig, 5)
    for _ in range(5):
        streak.fail()
    accused = table_for(rig, 5)
    finish_heists(accused, [COPS, ROBBERS])
    accused.accuse(3, 0)
    for table in (streak, accused):
        game = table.game
        for viewer in (engine.SPECTATOR, *range(5)):
            assert game.view(viewer)["roles"] == list(COMPOSITIONS[5])
        assert game.events[-2].type == "roles"


# -- 9. Win conditions --------------------------------------------------------------------


def _eight_player_end(rig, heists, arrest, murder):
    table = table_for(rig, 8)  # 0 Moriarty 1 Moran 2 Jack 3 Brutus 4 Sherlock 5 Lestrade
    finish_heists(table, heists)  # 6 Watson 7 Irene
    table.accuse(5, table.seat(arrest))
    table.accuse(2, table.seat(murder))
    outcome = table.game.outcome
    return outcome.winning_team, 7 in outcome.winners


def test_mm32_accusers_tie_when_both_are_right_or_both_wrong(rig):
    cops_ahead = [COPS, ROBBERS, COPS, COPS]  # C = 5, R = 2
    assert _eight_player_end(rig, cops_ahead, MORIARTY, SHERLOCK) == (COPS, False)
    assert _eight_player_end(rig, cops_ahead, MORAN, WATSON) == (COPS, False)
    robbers_ahead = [ROBBERS, COPS, ROBBERS, ROBBERS]
    assert _eight_player_end(rig, robbers_ahead, MORIARTY, SHERLOCK) == (ROBBERS, False)


def test_mm33_irene_loses_when_either_leader_is_accused_even_wrongly(rig):
    robbers_ahead = [ROBBERS, COPS, ROBBERS, ROBBERS]
    # Neither accuser is right, the Robbers lead: Irene wins only if no leader was a target.
    assert _eight_player_end(rig, robbers_ahead, WATSON, MORAN) == (ROBBERS, True)
    assert _eight_player_end(rig, robbers_ahead, SHERLOCK, WATSON) == (ROBBERS, False)
    assert _eight_player_end(rig, robbers_ahead, WATSON, MORIARTY) == (ROBBERS, False)
    assert _eight_player_end(rig, robbers_ahead, SHERLOCK, MORIARTY) == (ROBBERS, False)


@pytest.mark.parametrize(
    ("heists", "arrest", "murder", "cops_win", "irene_wins"),
    [
        ([COPS, ROBBERS, ROBBERS, ROBBERS], MORIARTY, WATSON, True, True),  # A, not M
        ([COPS, COPS, COPS, COPS], MORAN, SHERLOCK, False, False),  # M, not A
        ([COPS, COPS, COPS, ROBBERS], MORIARTY, SHERLOCK, True, False),  # A and M, C > R
        ([ROBBERS, ROBBERS, ROBBERS, COPS], MORIARTY, SHERLOCK, False, False),  # A and M, R > C
        ([COPS, COPS, COPS, ROBBERS], MORAN, WATSON, True, False),  # neither, C > R
        ([ROBBERS, ROBBERS, ROBBERS, COPS], MORAN, WATSON, False, True),  # neither, R > C
        ([ROBBERS, ROBBERS, ROBBERS, COPS], SHERLOCK, WATSON, False, False),  # a leader accused
    ],
)
def test_mm34_win_matrix(rig, heists, arrest, murder, cops_win, irene_wins):
    team, irene = _eight_player_end(rig, heists, arrest, murder)
    assert team == (COPS if cops_win else ROBBERS)
    assert irene is irene_wins


def test_mm34_alternate_ending_row(rig):
    table = table_for(rig, 8)
    for _ in range(8):
        table.fail()
    assert table.game.outcome.winners == {4, 5, 6}


@pytest.mark.parametrize(("target", "team"), [(MORIARTY, COPS), (JUDGE, ROBBERS)])
def test_mm35_at_five_players_an_arrest_wins_and_a_miss_goes_to_points(rig, target, team):
    table = table_for(rig, 5)
    finish_heists(table, [COPS, ROBBERS])  # C = 1, R = 2
    table.accuse(table.seat(LESTRADE), table.seat(target))
    assert table.game.outcome.winning_team == team


def test_mm36_exactly_one_team_wins_and_equal_scores_would_go_to_the_cops(rig):
    table = table_for(rig, 7)
    finish_heists(table, [COPS, ROBBERS, ROBBERS])
    game = table.game
    game.scores = {COPS: 2, ROBBERS: 2}  # impossible in play (MM-21); the fallback still holds
    table.accuse(5, 1)
    table.accuse(2, 6)
    assert game.outcome.winning_team == COPS
    winners_teams = {team_of(game.roles[s]) for s in game.outcome.winners}
    assert winners_teams == {COPS}


# -- 11. Table options --------------------------------------------------------------------


def test_mm37_table_options_and_their_defaults():
    game = engine.new_game("machinations", 7)
    assert game.options == {"accusation_trigger": "either_team", "lestrade_reveals": True,
                            "first_proposer": "random"}
    for bad in ({"accusation_trigger": "team"}, {"lestrade_reveals": "yes"},
                {"first_proposer": 7}):
        with pytest.raises(engine.InvalidSetup):
            engine.new_game("machinations", 7, bad)
    combined = engine.new_game("machinations", 7, {"accusation_trigger": "combined"})
    assert combined.options["accusation_trigger"] == "combined"


# -- 12. What each player may see ---------------------------------------------------------


def test_mm38_private_facts_stay_with_their_seat(rig):
    table = table_for(rig, 7)
    game = table.game
    table.propose([0, 3])
    game.apply(0, {"type": "vote", "approve": False})
    assert game.view(0)["my_vote"] is False
    assert all(game.view(s)["my_vote"] is None for s in range(1, 7))
    for seat in range(1, 7):
        game.apply(seat, {"type": "vote", "approve": True})
    game.apply(3, {"type": "play", "card": TAKE_THE_FALL})
    assert game.view(3)["my_card"] == TAKE_THE_FALL
    assert game.view(0)["my_card"] is None
    game.apply(0, {"type": "play", "card": ABET})
    assert game.view(3)["my_cards"] == [{"heist": 1, "card": TAKE_THE_FALL}]
    assert game.view(0)["my_cards"] == [{"heist": 1, "card": ABET}]
    for seat in range(7):
        assert game.view(seat)["role"] == COMPOSITIONS[7][seat]
        assert game.view(seat)["roles"] is None


def test_mm39_unplayed_cards_are_never_shown(rig):
    table = table_for(rig, 7)
    table.heist([0, 1, 3], [FOIL, ABET, TAKE_THE_FALL])
    for viewer in (engine.SPECTATOR, engine.REFEREE, *range(7)):
        heist = table.game.view(viewer)["heists"][0]
        assert heist["cards"] == {ABET: 1, FOIL: 1, TAKE_THE_FALL: 1}
        assert set(heist) == {"number", "proposer", "name", "crew", "cards", "team", "points"}


def test_mm40_the_public_record_is_in_the_spectator_view(rig):
    table = table_for(rig, 7)
    table.fail([0, 1])
    table.heist([1, 2], [ABET, FOIL], name="Bank")
    table.propose([3, 4])
    table.game.apply(6, {"type": "vote", "approve": True})
    view = table.game.view(engine.SPECTATOR)
    assert view["composition"] == list(COMPOSITIONS[7]) and view["threshold"] == 5
    assert view["proposer"] == 2 and view["streak"] == 0
    assert view["proposal"] == {"proposer": 2, "name": "", "crew": [3, 4]}
    assert view["voted"] == [6]
    assert [v["approved"] for v in view["vote_history"]] == [False, True]
    assert view["heists"] == [{"number": 1, "proposer": 1, "name": "Bank", "crew": [1, 2],
                               "cards": {ABET: 1, FOIL: 1, TAKE_THE_FALL: 0},
                               "team": COPS, "points": 1}]
    assert view["scores"] == {COPS: 1, ROBBERS: 0}
    assert view["crew_sizes"] == [[], [2], [2], [], [], [], []]
    played = [e for e in view["events"] if e["type"] == "played"]
    assert {e["text"] for e in played} == {"{0} has played a heist card."}
    for key in ("role", "knowledge", "my_vote", "my_card", "my_cards", "my_target"):
        assert key not in view
    assert view["roles"] is None


def test_all_crew_combinations_are_listed_once():
    game = engine.new_game("machinations", 5, {"first_proposer": 0})
    crews = [tuple(a["crew"]) for a in game.legal_actions(0)]
    expected = [c for k in range(2, 6) for c in itertools.combinations(range(5), k)]
    assert crews == expected

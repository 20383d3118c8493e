"""The test scenarios MM-T1 to MM-T9 of engine/machinations/RULES.md. Seat S1 is seat 0."""

from __future__ import annotations

import pytest

import engine
from engine.machinations.cards import ABET, FOIL, TAKE_THE_FALL
from engine.machinations.roles import (
    BRUTUS,
    COMPOSITIONS,
    COPS,
    IRENE,
    JACK,
    JUDGE,
    LESTRADE,
    MORIARTY,
    ROBBERS,
    SHERLOCK,
    WATSON,
)

FIRST = {"first_proposer": 0}
COMBINED = {**FIRST, "accusation_trigger": "combined"}
"""MM-T1, MM-T2 and MM-T7's combined lines are played with the combined trigger."""


@pytest.mark.parametrize(("target", "winner"), [(JUDGE, ROBBERS), (MORIARTY, COPS)])
def test_scenario_1_five_players_lestrade_misses_and_points_decide(rig, target, winner):
    table = rig(COMPOSITIONS[5], COMBINED)
    game = table.game
    table.heist_to(COPS)
    assert game.scores == {COPS: 1, ROBBERS: 0}
    table.heist_to(ROBBERS)
    assert game.scores == {COPS: 1, ROBBERS: 2} and game.phase == "accusation"
    assert game.view(engine.SPECTATOR)["revealed"][table.seat(JACK)] is None
    assert game.to_act() == {table.seat(LESTRADE)}
    assert game.legal_actions(table.seat(JACK)) == []
    table.accuse(table.seat(LESTRADE), table.seat(target))
    assert game.murder is None
    assert game.outcome.winning_team == winner


@pytest.mark.parametrize(("heists", "winner"), [([ROBBERS, COPS, COPS], COPS),
                                                ([ROBBERS, COPS, ROBBERS], ROBBERS)])
def test_scenario_2_six_players_both_accusers_right(rig, heists, winner):
    table = rig(COMPOSITIONS[6], COMBINED)
    game = table.game
    table.heist_to(heists[0])
    table.heist_to(heists[1])
    assert sum(game.scores.values()) == 3 and game.phase == "proposal"
    table.heist_to(heists[2])
    assert sum(game.scores.values()) == 5 and game.phase == "accusation"
    table.accuse(table.seat(LESTRADE), table.seat(MORIARTY))
    table.accuse(table.seat(JACK), table.seat(SHERLOCK))
    assert game.outcome.reason == "points" and game.outcome.winning_team == winner
    assert table.seat(IRENE) not in game.outcome.winners


def test_scenario_3_a_tie_vote_fails(rig):
    table = rig(COMPOSITIONS[6], {"first_proposer": 1})
    game = table.game
    table.propose([1, 3])
    table.vote([0, 1, 2])
    assert game.vote_history[-1]["approved"] is False
    assert game.streak == 1 and game.proposer == 2
    assert game.sizes[1] == game.sizes[3] == set()
    seven = rig(COMPOSITIONS[7], FIRST)
    seven.propose([0, 1])
    seven.vote([0, 1, 2, 3])
    assert seven.game.phase == "heist"


@pytest.mark.parametrize("n", [7, 8])
def test_scenario_4_n_consecutive_failures_end_the_game(rig, n):
    table = rig(COMPOSITIONS[n], FIRST)
    game = table.game
    table.heist_to(ROBBERS)
    proposers = []
    for _ in range(n):
        proposers.append(game.proposer)
        table.fail()
    assert proposers == [*range(1, n), 0]
    assert game.outcome.reason == "streak" and game.outcome.winning_team == COPS
    assert not any(e.type == "accusation" for e in game.events)
    if n == 8:
        assert table.seat(IRENE) not in game.outcome.winners


def test_scenario_4_variant_the_seventh_proposal_passes(rig):
    table = rig(COMPOSITIONS[7], FIRST)
    table.heist_to(ROBBERS)
    for _ in range(6):
        table.fail()
    assert table.game.streak == 6
    table.heist_to(COPS)
    assert table.game.outcome is None and table.game.streak == 0


def test_scenario_5_take_the_fall(rig):
    table = rig(COMPOSITIONS[7], FIRST)  # Brutus is seat 3
    game = table.game
    table.heist([3, 4, 5], {4: FOIL, 3: TAKE_THE_FALL, 5: ABET})
    assert game.heists[0]["team"] == ROBBERS
    table.propose([2, 3])
    table.vote(range(7))
    assert TAKE_THE_FALL not in [a["card"] for a in game.legal_actions(3)]
    with pytest.raises(engine.IllegalAction):
        game.apply(3, {"type": "play", "card": TAKE_THE_FALL})


@pytest.mark.parametrize(("cards", "team"), [
    ({4: FOIL, 5: FOIL, 3: TAKE_THE_FALL, 6: ABET}, COPS),
    ({3: TAKE_THE_FALL, 6: ABET}, ROBBERS),
])
def test_scenario_5_variants(rig, cards, team):
    table = rig(COMPOSITIONS[7], FIRST)
    table.heist(sorted(cards), cards)
    assert table.game.heists[0]["team"] == team
    assert table.game.fall_used and not table.game.view(3)["can_take_the_fall"]


def test_scenario_6_eligibility(rig):
    table = rig(COMPOSITIONS[6], FIRST)
    game = table.game
    table.heist([0, 2])
    with pytest.raises(engine.IllegalAction, match="MM-22"):
        table.propose([2, 4])
    assert game.phase == "proposal" and game.streak == 0
    legal = [a["crew"] for a in game.legal_actions(game.proposer)]
    assert [0, 2, 4] in legal and [1, 3] in legal
    table.fail([1, 3, 5])
    assert [1, 3, 5] in [a["crew"] for a in game.legal_actions(game.proposer)]


def test_scenario_7_trigger_at_the_threshold(rig):
    eight = rig(COMPOSITIONS[8], COMBINED)
    for team in (COPS, ROBBERS, COPS):
        eight.heist_to(team)
    assert sum(eight.game.scores.values()) == 5 and eight.game.phase == "proposal"
    eight.heist_to(ROBBERS)
    assert sum(eight.game.scores.values()) == 7 and eight.game.phase == "accusation"

    either = rig(COMPOSITIONS[7], {**FIRST, "accusation_trigger": "either_team"})
    for team in (COPS, ROBBERS, COPS, ROBBERS):
        either.heist_to(team)
    assert either.game.scores == {COPS: 3, ROBBERS: 4} and either.game.phase == "proposal"
    either.heist_to(COPS)
    assert either.game.scores[COPS] == 5 and either.game.phase == "accusation"

    combined = rig(COMPOSITIONS[7], COMBINED)
    for team in (COPS, ROBBERS, COPS):
        combined.heist_to(team)
    assert combined.game.phase == "accusation"


@pytest.mark.parametrize(("arrest", "murder", "winner", "irene_wins"), [
    (SHERLOCK, MORIARTY, ROBBERS, False),  # both leaders accused
    (WATSON, BRUTUS, ROBBERS, True),  # no leader accused (8 players have no Mycroft)
    (WATSON, MORIARTY, ROBBERS, False),  # Moriarty accused
    (MORIARTY, WATSON, COPS, True),  # Lestrade right, Sherlock alive
])
def test_scenario_8_irenes_corner_cases(rig, arrest, murder, winner, irene_wins):
    # C = 3, R = 4 at 8 players starts the accusations under the combined trigger only.
    table = rig(COMPOSITIONS[8], COMBINED)
    for team in (COPS, ROBBERS, COPS, ROBBERS):
        table.heist_to(team)
    assert table.game.scores == {COPS: 3, ROBBERS: 4}
    table.accuse(table.seat(LESTRADE), table.seat(arrest))
    table.accuse(table.seat(JACK), table.seat(murder))
    outcome = table.game.outcome
    assert outcome.winning_team == winner
    assert (table.seat(IRENE) in outcome.winners) is irene_wins


def test_scenario_9_rotation_and_information_exchange(rig):
    table = rig(COMPOSITIONS[5], FIRST)
    table.fail([0, 1])
    assert table.game.proposer == 1
    table.heist([1, 2])
    assert table.game.proposer == 2

    six = rig(COMPOSITIONS[6]).game  # Lestrade is seat 4
    assert six.view(six.roles.index(MORIARTY))["knowledge"] == [
        {"form": "id", "seats": [4], "roles": [LESTRADE]}]
    seven = rig(COMPOSITIONS[7]).game  # Lestrade 5, Watson 6
    assert seven.view(0)["knowledge"] == [
        {"form": "pair", "seats": [5, 6], "roles": [LESTRADE, WATSON]}]
    five = rig(COMPOSITIONS[5]).game
    assert five.view(five.roles.index(WATSON))["knowledge"] == []
    assert five.view(five.roles.index(JUDGE))["knowledge"] == []

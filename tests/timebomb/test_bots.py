"""Time Bomb bots: they see only their own view, always answer legally, claim at most once per
deal, and the smart bot plays its role."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import msgpack
import pytest
from support.timebomb import arrange, new

import engine
from engine.bots import Bot
from engine.simulate import play, simulate
from engine.timebomb import bots as bots_module
from engine.timebomb import inference
from engine.timebomb.bots import TABLE_MODEL, moriarty_claim
from engine.timebomb.inference import Posterior
from engine.timebomb.game import MORIARTY, SHERLOCK

BOTS = engine.GAMES["timebomb"].BOTS


def test_every_bot_acts_on_view_legal_actions_and_rng_and_the_talkers_speak():
    assert set(BOTS) == {"random", "novice", "smart"}
    for bot in BOTS.values():
        assert isinstance(bot, Bot)
        assert list(inspect.signature(bot.act).parameters) == ["view", "legal_actions", "rng"]
    assert BOTS["random"].speak is None  # the silent baseline
    assert BOTS["novice"].speak is not None and BOTS["smart"].speak is not None


@pytest.mark.parametrize("module", [bots_module, inference])
def test_the_bot_modules_import_nothing_of_the_game_state(module):
    tree = ast.parse(Path(module.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    # The cards module names public constants only (kinds, roles, words), never a state.
    assert imported <= {"__future__", "itertools", "math", "random", "typing", "engine.bots",
                        "engine.core", "engine.timebomb.cards", "engine.timebomb.inference"}


def as_plain_data(value):
    """A deep, detached copy made of plain data only: nothing that could lead to the game."""
    return msgpack.unpackb(msgpack.packb(value))


@pytest.mark.parametrize("name", ["random", "novice", "smart"])
@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_bots_play_whole_games_from_detached_views(name, players):
    bot = BOTS[name]

    def detached(choose):
        def answer(view, legal_actions, rng):
            action = choose(as_plain_data(view), as_plain_data(legal_actions), rng)
            assert action is None or action in legal_actions
            return action

        return answer

    detached_bot = Bot(detached(bot.act), bot.speak and detached(bot.speak))
    for seed in range(15):
        game = new(players, seed)
        play(game, [detached_bot] * players, random.Random(seed))
        # At most one claim per seat per deal, and the smart bot claims after every deal.
        per_deal: dict[tuple[int, int], int] = {}
        deal = 0
        for event in game.events:
            if event.type == "deal":
                deal += 1
            elif event.type == "claim":
                key = (deal, event.seats[0])
                per_deal[key] = per_deal.get(key, 0) + 1
        assert all(count == 1 for count in per_deal.values())
        if name != "random":
            assert len(per_deal) == deal * players


def test_smart_sherlock_claims_truthfully_and_moriarty_hides_the_bomb():
    claims = 0
    for seed in range(40):
        game = new(5, seed)
        for seat in range(5):
            claim = BOTS["smart"].speak(game.view(seat), game.legal_actions(seat), random.Random(0))
            held = game.hands[seat]
            claims += 1
            if game.roles[seat] == SHERLOCK:
                assert (claim["defusing"], claim["bomb"]) == (held[1], held[2])
            elif held[2]:
                # Moriarty hides the Bomb behind two Defusing wires more than it holds.
                assert (claim["defusing"], claim["bomb"]) == (min(held[1] + 2, 4), 0)
            else:
                # Before any cut, it takes the table for one that reads claims and hides its
                # Defusing wires.
                assert (claim["defusing"], claim["bomb"]) == (0, 0)
    assert claims == 200


def test_moriarty_hides_its_defusing_wires_only_from_a_table_that_reads_claims():
    assert moriarty_claim(2, 0, 4, 5, hide=True) == (0, 0)
    assert moriarty_claim(2, 0, 4, 5, hide=False) == (2, 0)
    # Holding the Bomb: never more Defusing wires than are left face down, nor than fit.
    assert moriarty_claim(1, 1, 5, 5) == (3, 0)
    assert moriarty_claim(1, 1, 3, 5) == (2, 0)
    assert moriarty_claim(0, 1, 5, 1) == (1, 0)


def test_the_novice_tells_the_truth_whatever_its_role():
    for seed in range(20):
        game = new(5, seed)
        for seat in range(5):
            claim = BOTS["novice"].speak(game.view(seat), game.legal_actions(seat),
                                         random.Random(0))
            assert (claim["defusing"], claim["bomb"]) == tuple(game.hands[seat][1:])


def test_no_smart_claim_is_one_the_table_can_already_prove_false():
    for seed in range(60):
        game = new(5, seed)
        play(game, [BOTS["smart"]] * 5, random.Random(seed))
        found = 0
        for event in game.events:
            if event.type == "cut" and event.data["wire"] == "defusing":
                found += 1
            elif event.type == "claim":
                assert event.data["defusing"] <= game.defusing_total - found, game


def fresh_deal(game, hands, cutter, claims=()):
    """Put `hands` on the table as a new deal everyone has seen, then make `claims`."""
    arrange(game, hands, cutter=cutter)
    game.claims = [None] * game.players
    game.log_deal(sum(hands[0]))
    for seat, defusing, bomb in claims:
        game.apply(seat, {"type": "claim", "defusing": defusing, "bomb": bomb})
    return game


def test_the_posterior_puts_the_bomb_somewhere_and_believes_truthful_claims():
    game = fresh_deal(new(5, seed=1), [[4, 1, 0], [2, 3, 0], [5, 0, 0], [4, 0, 1], [4, 1, 0]],
                      cutter=0, claims=[(1, 3, 0), (2, 0, 0)])
    game.roles = [SHERLOCK, SHERLOCK, SHERLOCK, MORIARTY, MORIARTY]
    posterior = Posterior(game.view(0), TABLE_MODEL)
    odds = posterior.cut_odds()
    assert sum(bomb * 5 for _, bomb in odds) == pytest.approx(1.0)
    assert odds[1][0] == max(defusing for defusing, _ in odds)
    assert odds[2][0] < 0.1 < odds[3][0]
    # The silent seats are likelier Moriarty players than a plain claim; a claim of 3 Defusing
    # wires in 5 is rare for an honest hand, so it too draws suspicion.
    moriarty = posterior.moriarty_odds()
    assert min(moriarty[3], moriarty[4], moriarty[1]) > moriarty[2]


def test_the_posterior_deals_the_unseen_defusing_wires_jointly():
    # Seat 0 holds 1 of the 5 Defusing wires, so the others hold exactly 4 between them, and
    # a hand believed to hold many leaves fewer for the rest, after a cut too.
    game = fresh_deal(new(5, seed=1), [[4, 1, 0], [2, 3, 0], [5, 0, 0], [4, 0, 1], [4, 1, 0]],
                      cutter=0, claims=[(1, 3, 0), (2, 0, 0)])
    game.roles = [SHERLOCK, SHERLOCK, SHERLOCK, MORIARTY, MORIARTY]
    game.apply(0, {"type": "cut", "target": 2})  # a Safe wire
    view = game.view(0)
    odds = Posterior(view, TABLE_MODEL).cut_odds()
    held = sum(defusing * view["face_down"][seat] for seat, (defusing, _) in enumerate(odds))
    assert held == pytest.approx(4.0)


def test_a_claim_the_cuts_disprove_marks_its_author():
    game = fresh_deal(new(5, seed=1), [[4, 0, 1], [0, 5, 0], [5, 0, 0], [5, 0, 0], [5, 0, 0]],
                      cutter=0, claims=[(1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)])
    game.roles = [MORIARTY, MORIARTY, SHERLOCK, SHERLOCK, SHERLOCK]
    game.apply(0, {"type": "cut", "target": 1})  # reveals a Defusing wire
    moriarty = Posterior(game.view(2), TABLE_MODEL).moriarty_odds()
    # Seat 1's claim is disproved; seat 3's and seat 4's stand (a Sherlock holding the Bomb
    # who played it down would explain seat 1 too, so it is not quite certain).
    assert moriarty[1] > 0.7
    assert moriarty[1] > 3 * max(moriarty[3], moriarty[4])


def smart_choice(game, seat: int) -> dict:
    rng = random.Random(0)
    return BOTS["smart"](game.view(seat), game.legal_actions(seat), rng)


def position_with_claims(cutter_role: str):
    """Seat 0 holds the cutter. Seat 1 claims 3 Defusing wires, seat 2 claims none; seats 3
    and 4 keep quiet."""
    game = new(5, seed=1)
    game.roles = [cutter_role, SHERLOCK, SHERLOCK, MORIARTY, MORIARTY]
    game.roles[3] = MORIARTY if cutter_role == SHERLOCK else SHERLOCK
    return fresh_deal(game, [[4, 0, 1], [2, 3, 0], [5, 0, 0], [4, 1, 0], [4, 1, 0]], cutter=0,
                      claims=[(1, 3, 0), (2, 0, 0)])


def test_smart_sherlock_cuts_where_defusing_wires_are():
    game = position_with_claims(SHERLOCK)
    assert smart_choice(game, 0) == {"type": "cut", "target": 1}


def test_smart_moriarty_steers_away_from_defusing_wires():
    game = position_with_claims(MORIARTY)
    assert smart_choice(game, 0)["target"] != 1


def test_smart_sherlock_beats_random_sherlock():
    smart = simulate("timebomb", 5, 300, {"sherlock": "smart"}, seed=50_000)
    plain = simulate("timebomb", 5, 300, "random", seed=50_000)
    assert smart.win_rate(SHERLOCK) > plain.win_rate(SHERLOCK) + 0.08


# -- people who say their wires out loud (issue 22) ------------------------------------------


def test_a_lone_silence_among_claims_is_a_choice_but_a_silent_table_talks_out_loud():
    one_silent = fresh_deal(new(5, seed=1), [[4, 1, 0], [2, 3, 0], [5, 0, 0], [4, 0, 1],
                                             [4, 1, 0]],
                            cutter=0, claims=[(1, 3, 0), (2, 0, 0), (3, 0, 1)])
    quiet = Posterior(one_silent.view(0), TABLE_MODEL).quiet
    assert quiet == [0.0] * 5  # seat 4 alone is silent: its silence is weighed as a talker's
    most_silent = fresh_deal(new(5, seed=1), [[4, 1, 0], [2, 3, 0], [5, 0, 0], [4, 0, 1],
                                              [4, 1, 0]],
                             cutter=0, claims=[(1, 3, 0)])
    quiet = Posterior(most_silent.view(0), TABLE_MODEL).quiet
    assert quiet[0] == quiet[1] == 0.0  # the viewer, and a seat that claimed
    assert quiet[2] == quiet[3] == quiet[4] == pytest.approx(2 / 3)
    assert bots_module.attention(quiet[2]) > 0 == bots_module.attention(1 / 3)


@pytest.mark.parametrize("game_id", ["timebomb", "timebomb_evolution"])
def test_smart_bots_hand_the_wire_cutter_to_people_who_never_claim(game_id):
    # Two smart bots among three people who cut at random and say their wires out loud, which
    # bots cannot hear. Before issue 22 the bots cut people 44% (Évolution 37%) of the time
    # while people held 77% of the wires they could cut. `benchmarks/bots.py --people` has the
    # figures over 400 games (goal: within 20 points); on these few seeds the share stays well
    # clear of the old gap.
    smart, person = engine.GAMES[game_id].BOTS["smart"], engine.GAMES[game_id].BOTS["random"]
    cuts = to_people = 0
    wires_share = 0.0
    for seed in range(60):
        game = engine.new_game(game_id, 5, {}, seed)
        rng = random.Random(seed)
        bot_seats = set(rng.sample(range(5), 2))

        def watched(view, legal_actions, rng):
            nonlocal cuts, to_people, wires_share
            action = smart.act(view, legal_actions, rng)
            if action["type"] == "cut":
                others = [s for s in range(5) if s != view["viewer"]]
                held = sum(view["face_down"][s] for s in others if s not in bot_seats)
                wires_share += held / sum(view["face_down"][s] for s in others)
                cuts += 1
                to_people += action["target"] not in bot_seats
            return action

        watcher = Bot(watched, smart.speak)
        play(game, [watcher if s in bot_seats else person for s in range(5)], rng)
    assert cuts > 200
    assert to_people / cuts > wires_share / cuts - 0.25

"""The Holmes bots: legal, view-only, and the smart bot's reasoning and strength."""

import copy
import random

import engine
from engine.holmes.bots import smart_bot
from engine.holmes.catalogue import (
    BULLET, BUTTON, CIGARETTE, EXPLOSIVE, FALSE_PASS, FINGERPRINT, FOOTPRINT, GREGSON, HUDSON,
    IRENE, LESTRADE, MAP, TOBY, WATSON, WIGGINS,
)
from support.holmes_secrets import perturb_secrets
from support.holmes import M, S, arrange, jump_to_day, new_game, set_area, visit

BOARD = [WATSON, HUDSON, LESTRADE, IRENE, WIGGINS, TOBY, GREGSON]


def decide(game, seat, seed=0):
    return smart_bot(game.view(seat), game.legal_actions(seat), random.Random(seed))


def play(seed, names, options=None):
    game = engine.new_game("holmes", 2, options or {}, seed)
    bots = [engine.GAMES["holmes"].BOTS[n] for n in names]
    rng = random.Random(seed)
    while game.outcome is None:
        seat = min(game.to_act())
        legal = game.legal_actions(seat)
        action = bots[seat](copy.deepcopy(game.view(seat)), copy.deepcopy(legal), rng)
        assert action in legal
        game.apply(seat, action)
    return game


def test_every_bot_plays_legal_games_with_every_module():
    options = {"alternative_start": True, "reserve_card": True, "villains": "both"}
    for seed in range(3):
        play(seed, ("smart", "smart"), options)
        play(seed, ("random", "smart"), options)


def test_the_smart_bot_decides_from_its_view_only():
    game = engine.new_game("holmes", 2, {"reserve_card": True}, 5)
    rng = random.Random(5)
    for _ in range(60):
        seat = min(game.to_act())
        twin = copy.deepcopy(game)
        perturb_secrets(twin, seat, random.Random(1))
        assert decide(twin, seat, 9) == decide(game, seat, 9)
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_smart_beats_random_in_a_sample():
    """The full 1,000-game measurement is benchmarks/bots.py --game holmes (at least 90%)."""
    wins = 0
    for seed in range(20):
        smart = seed % 2
        game = play(seed, ("smart", "random") if smart == 0 else ("random", "smart"))
        wins += game.outcome.won(smart)
    assert wins >= 18


def test_chases_a_majority_it_can_win_not_a_lost_one():
    game = new_game()
    # Bullets: Mycroft has 4 of 6, lost for Sherlock; Cigarettes are level at 1-1.
    set_area(game, S, clues={CIGARETTE: 1, BULLET: 1})
    set_area(game, M, clues={CIGARETTE: 1, BULLET: 4})
    arrange(game, line=[BULLET, CIGARETTE, FALSE_PASS, FALSE_PASS])
    visit(game, S, WATSON)
    assert decide(game, S) == {"type": "take", "slot": 1}


def test_values_map_fragments_and_the_complete_set():
    game = new_game()
    set_area(game, S, clues={MAP: 3, EXPLOSIVE: 1})
    set_area(game, M, clues={BULLET: 3})
    arrange(game, line=[MAP, EXPLOSIVE, EXPLOSIVE, BULLET])
    visit(game, S, WATSON, day=6)
    assert decide(game, S) == {"type": "take", "slot": 0}  # the 4th map: +3

    game = new_game()
    set_area(game, S, clues={BUTTON: 6})
    set_area(game, M, clues={BULLET: 3})
    arrange(game, line=[BULLET, BUTTON, BULLET, BULLET])
    visit(game, S, WATSON, day=6)
    assert decide(game, S) == {"type": "take", "slot": 1}  # all 7 Buttons: +3


def test_blocks_the_opponents_best_character():
    game = new_game()
    # Mycroft sits on Gregson with plenty of IM and a rich line: joining him there spends
    # Gregson for tomorrow. Sherlock has no IM to use Gregson himself, and the reserve is
    # empty, so Wiggins and Toby would bring him none.
    set_area(game, M, im=24)
    set_area(game, S, im=0)
    game.reserve = 0
    arrange(game, line=[FINGERPRINT, FINGERPRINT, FOOTPRINT, FOOTPRINT])
    jump_to_day(game, 3, [{WATSON: True, TOBY: True, IRENE: True},
                          {GREGSON: True, HUDSON: True, LESTRADE: True}], board=BOARD)
    assert decide(game, S)["to"] == GREGSON


def test_manages_its_investigation_markers():
    game = new_game()
    set_area(game, S, im=0)
    arrange(game, line=[FINGERPRINT, FINGERPRINT, FOOTPRINT, FOOTPRINT])
    jump_to_day(game, 2, [{WATSON: True, TOBY: True, IRENE: True}, {LESTRADE: True}],
                board=BOARD[:-1])
    # Without IM the line is out of reach: it goes for Wiggins' 5 IM first.
    assert decide(game, S)["to"] == WIGGINS


def test_the_one_action_lookahead_baseline_beats_random_play():
    """The baseline the smart bot is measured against (benchmarks/bots.py) is a real opponent:
    looking one action ahead already beats random play nearly always (60 of 60 measured)."""
    wins = 0
    for seed in range(10):
        names = ("lookahead", "random") if seed % 2 == 0 else ("random", "lookahead")
        game = play(seed, names)
        wins += game.outcome.won(seed % 2)
    assert wins >= 8

"""The one rule of who is asked what and when (`engine.bots.BotTurns`), as the simulator and the
host's bot driver both use it: bots speak after a deal, chatter settles, and every bot of every
game plays whole games from detached views alone."""

from __future__ import annotations

import random

import msgpack
import pytest

import engine
from engine.bots import SPEECHES_PER_MOVE, Bot, BotTurns
from engine.simulate import play


def detached(choose):
    """`choose`, handed plain data only (no path back to the game), its answer checked."""

    def answer(view, legal_actions, rng):
        action = choose(msgpack.unpackb(msgpack.packb(view)),
                        msgpack.unpackb(msgpack.packb(legal_actions)), rng)
        assert action is None or action in legal_actions
        return action

    return answer


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_every_bot_plays_whole_games_from_its_views_alone(game_id):
    cls = engine.GAMES[game_id]
    for name, bot in cls.BOTS.items():
        plain = Bot(detached(bot.act), bot.speak and detached(bot.speak))
        for seed in range(3):
            game = engine.new_game(game_id, cls.min_players, {}, seed)
            play(game, [plain] * game.players, random.Random(seed))
            assert game.outcome is not None, (game_id, name, seed)


@pytest.mark.parametrize("game_id", ["timebomb", "timebomb_evolution"])
def test_in_the_simulator_every_smart_bot_claims_right_after_each_deal(game_id):
    for seed in range(10):
        game = engine.new_game(game_id, 5, {}, seed)
        play(game, [engine.GAMES[game_id].BOTS["smart"]] * 5, random.Random(seed))
        deals = 0
        since_deal: list = []
        for event in [*game.events, None]:
            if event is None or event.type == "deal":
                if deals and (event is not None or "cut" in since_deal[5:]):
                    # All five claim before the deal's first cut.
                    assert sorted(since_deal[:5]) == ["claim"] * 5, (seed, since_deal)
                deals += 1
                since_deal = []
            elif event.type in ("claim", "cut"):
                since_deal.append(event.type)
        assert deals >= 2


def test_chatter_settles_however_talkative_the_bots():
    """A bot that always has something to say is asked again after every claim, but each seat
    gets at most SPEECHES_PER_MOVE words in between two moves: the table moves on."""

    def always(view, legal_actions, rng):
        claims = [a for a in legal_actions if a["type"] == "claim"]
        return claims[int(rng.random() * len(claims))]

    chatty = Bot(engine.GAMES["timebomb"].BOTS["random"].act, always)
    game = engine.new_game("timebomb", 5, {}, 4)
    play(game, [chatty] * 5, random.Random(4))
    assert game.outcome is not None
    run: dict[int, int] = {}
    for seat, action in game.history:
        if action["type"] == "claim":
            run[seat] = run.get(seat, 0) + 1
            assert run[seat] <= SPEECHES_PER_MOVE
        else:
            run.clear()


def test_the_rule_asks_speech_first_then_the_seat_the_game_waits_for():
    game = engine.new_game("timebomb", 5, {"first_player": 3}, 1)
    smart = engine.GAMES["timebomb"].BOTS["smart"]
    turns = BotTurns(game)
    bots = dict.fromkeys(range(5), smart)
    moves = []
    while not game.history or game.history[-1][1]["type"] == "claim":
        move = turns.next_move(bots, random.Random(0))
        moves.append((move.seat, move.action["type"], move.free))
        game.apply(move.seat, move.action)
    assert moves == [(s, "claim", True) for s in range(5)] + [(3, "cut", False)]


def test_a_bot_that_keeps_quiet_is_not_asked_again_until_it_sees_something_new():
    asked = []

    def quiet(view, legal_actions, rng):
        asked.append(len(view["events"]))

    bot = Bot(engine.GAMES["timebomb"].BOTS["random"].act, quiet)
    game = engine.new_game("timebomb", 5, {"first_player": 0}, 1)
    turns = BotTurns(game)
    people = {1: bot}  # seat 0, the cutter, is a person
    assert turns.next_move(people, random.Random(0)) is None
    assert turns.next_move(people, random.Random(0)) is None
    assert len(asked) == 1
    game.apply(0, {"type": "claim", "defusing": 0, "bomb": 0})
    assert turns.next_move(people, random.Random(0)) is None
    assert len(asked) == 2 and asked[1] == asked[0] + 1

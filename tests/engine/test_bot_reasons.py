"""The strongest bot of every game says why it moves (`engine.bots.Bot.advise`), and what it
advises is the move it plays: a person's hint is the bot's own move, from the same view. The
games come from the catalogue, so a fifth game's strongest bot must give reasons too."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.catalogue import CATALOGUE

GAMES = sorted(CATALOGUE)


def strongest(game_id: str):
    return engine.GAMES[game_id].BOTS[CATALOGUE[game_id].default_bot]


def positions(game_id: str, seeds: range):
    """Every decision of whole games the strongest bots play, at each player count in turn:
    (game, seat) just before the seat moves."""
    info, bot = CATALOGUE[game_id], strongest(game_id)
    counts = list(info.player_counts)
    for seed in seeds:
        players = counts[seed % len(counts)]
        options = {"variante": seed % 2 == 1} if game_id == "timebomb_evolution" else {}
        game = engine.new_game(game_id, players, options, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            seat = min(game.to_act())
            yield game, seat
            game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_strongest_bot_of_every_game_explains_itself(game_id):
    assert strongest(game_id).explain is not None, (
        f"{game_id}: its strongest bot ({CATALOGUE[game_id].default_bot}) gives no reason; "
        "make it with Bot.explained")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_advice_is_the_move_the_bot_plays_from_the_same_view(game_id):
    bot = strongest(game_id)
    checked = 0
    for n, (game, seat) in enumerate(positions(game_id, range(4))):
        view, legal = game.view(seat), game.legal_actions(seat)
        advice = bot.advise(view, legal, random.Random(n))
        played = bot(game.view(seat), game.legal_actions(seat), random.Random(n))
        assert advice.action == played, (game_id, game.seed, game.history)
        assert advice.action in legal
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("game_id", GAMES)
def test_every_reason_is_one_line_naming_only_its_players(game_id):
    bot = strongest(game_id)
    for n, (game, seat) in enumerate(positions(game_id, range(3))):
        advice = bot.advise(game.view(seat), game.legal_actions(seat), random.Random(n))
        reason = advice.reason
        where = (game_id, game.seed, len(game.history), reason)
        assert reason and "\n" not in reason and len(reason) <= 200, where
        assert reason[0].isupper() and reason.endswith("."), where
        named = {int(index) for index in re.findall(r"\{(\d+)\}", reason)}
        assert named == set(range(len(advice.seats))), where
        assert all(0 <= s < game.players for s in advice.seats), where
        assert "{" not in re.sub(r"\{\d+\}", "", reason), where

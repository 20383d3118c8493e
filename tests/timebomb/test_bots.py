"""Time Bomb bots: they see only their own view, always answer legally, claim at most once per
deal, and the smart bot plays its role."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import msgpack
import pytest
from timebomb_helpers import arrange, new

import engine
from engine.simulate import simulate
from engine.timebomb import bots
from engine.timebomb.game import MORIARTY, SHERLOCK

BOTS = engine.GAMES["timebomb"].BOTS


def test_every_bot_is_a_function_of_view_legal_actions_and_rng():
    assert set(BOTS) == {"random", "smart"}
    for bot in BOTS.values():
        assert list(inspect.signature(bot).parameters) == ["view", "legal_actions", "rng"]


def test_the_bot_module_imports_nothing_of_the_game_state():
    tree = ast.parse(Path(bots.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported <= {"__future__", "itertools", "random", "typing", "engine.core"}
    # From the engine core, only the generic random bot.
    core_names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "engine.core"
        for alias in node.names
    }
    assert core_names == {"random_bot"}


def as_plain_data(value):
    """A deep, detached copy made of plain data only: nothing that could lead to the game."""
    return msgpack.unpackb(msgpack.packb(value))


@pytest.mark.parametrize("name", ["random", "smart"])
@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_bots_play_whole_games_from_detached_views(name, players):
    bot = BOTS[name]
    for seed in range(15):
        game = new(players, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            (seat,) = game.to_act()
            claims_this_deal = 0
            while True:
                legal = game.legal_actions(seat)
                action = bot(as_plain_data(game.view(seat)), as_plain_data(legal), rng)
                assert action in legal
                game.apply(seat, action)
                if action["type"] != "claim":
                    break
                claims_this_deal += 1
                assert claims_this_deal == 1, "a bot claimed twice in a row"
    # At most one claim per seat per deal.
        per_deal: dict[tuple[int, int], int] = {}
        deal = 0
        for event in game.events:
            if event.type == "deal":
                deal += 1
            elif event.type == "claim":
                key = (deal, event.seats[0])
                per_deal[key] = per_deal.get(key, 0) + 1
        assert all(count == 1 for count in per_deal.values())


def test_smart_sherlock_claims_truthfully_and_moriarty_hides_the_bomb():
    for seed in range(40):
        game = new(5, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            seat = game.cutter
            action = BOTS["smart"](game.view(seat), game.legal_actions(seat), rng)
            if action["type"] == "claim":
                held = game.hands[seat]
                if game.roles[seat] == SHERLOCK:
                    assert (action["defusing"], action["bomb"]) == (held[1], held[2])
                elif held[2]:
                    # Moriarty hides the Bomb behind one Defusing wire more than it holds.
                    assert (action["defusing"], action["bomb"]) == (min(held[1] + 1, sum(held) - 1), 0)
                else:
                    assert (action["defusing"], action["bomb"]) == (held[1], 0)
            game.apply(seat, action)


def smart_choice(game, seat: int) -> dict:
    rng = random.Random(0)
    action = BOTS["smart"](game.view(seat), game.legal_actions(seat), rng)
    while action["type"] == "claim":
        game.apply(seat, action)
        action = BOTS["smart"](game.view(seat), game.legal_actions(seat), rng)
    return action


def position_with_claims(cutter_role: str):
    """Seat 0 holds the cutter. Seat 1 claims 3 Defusing wires, seat 2 claims none, and both
    have cut before after claiming, so both look honest; seats 3 and 4 cut without a word."""
    game = new(5, seed=1)
    game.roles = [cutter_role, SHERLOCK, SHERLOCK, MORIARTY, MORIARTY]
    game.roles[3] = MORIARTY if cutter_role == SHERLOCK else SHERLOCK
    arrange(game, [[4, 0, 0], [2, 3, 0], [5, 0, 0], [4, 1, 1], [4, 1, 0]], cutter=3)
    game.apply(1, {"type": "claim", "defusing": 3, "bomb": 0})
    game.apply(2, {"type": "claim", "defusing": 0, "bomb": 0})
    game.apply(3, {"type": "cut", "target": 4})  # silent cuts
    game.apply(4, {"type": "cut", "target": 0})
    return game


def test_smart_sherlock_cuts_where_defusing_wires_are():
    game = position_with_claims(SHERLOCK)
    assert smart_choice(game, 0) == {"type": "cut", "target": 1}


def test_smart_moriarty_steers_away_from_defusing_wires():
    game = position_with_claims(MORIARTY)
    assert smart_choice(game, 0)["target"] != 1


def test_moriarty_claims_are_never_disproved_before_the_bomb_goes_off():
    for seed in range(60):
        game = new(5, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            seat = game.cutter
            game.apply(seat, BOTS["smart"](game.view(seat), game.legal_actions(seat), rng))
            if game.outcome is None:
                lies = bots.Reading(game.view(seat)).lies
                assert not any(lies), game


def test_smart_bot_reads_a_proven_lie():
    game = new(5, seed=1)
    arrange(game, [[4, 0, 1], [0, 5, 0], [5, 0, 0], [5, 0, 0], [5, 0, 0]], cutter=0)
    game.apply(1, {"type": "claim", "defusing": 0, "bomb": 0})
    game.apply(0, {"type": "cut", "target": 1})  # reveals a Defusing wire
    reading = bots.Reading(game.view(2))
    assert reading.lies == [0, 1, 0, 0, 0]
    assert reading.moriarty_odds[1] > 0.9
    assert reading.moriarty_odds[3] < 0.5


def test_smart_sherlock_beats_random_sherlock():
    smart = simulate("timebomb", 5, 300, {"sherlock": "smart"}, seed=50_000)
    plain = simulate("timebomb", 5, 300, "random", seed=50_000)
    assert smart.win_rate(SHERLOCK) > plain.win_rate(SHERLOCK) + 0.08

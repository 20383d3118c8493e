"""The static catalogue: every game's facts without loading any game, and in step with the
game classes."""

from __future__ import annotations

import subprocess
import sys

import pytest

import engine
from engine.catalogue import CATALOGUE, game_info

STATIC_MODULES = (
    "engine.catalogue",
    "engine.holmes.catalogue",
    "engine.holmes.scoring",
    "engine.machinations.roles",
    "engine.machinations.cards",
)


def test_the_static_catalogue_loads_no_game():
    code = (
        "import sys\n"
        + "".join(f"import {module}\n" for module in STATIC_MODULES)
        + "print(sorted(m for m in sys.modules if m.endswith(('.game', '.bots', '.registry'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_each_game_class_takes_its_facts_from_the_catalogue(game_id):
    info, cls = CATALOGUE[game_id], engine.GAMES[game_id]
    assert cls.INFO is info
    assert (cls.id, cls.title, cls.min_players, cls.max_players, cls.OPTIONS) == (
        info.id, info.title, info.min_players, info.max_players, info.options)
    assert info.bot_levels, "players can choose at least one bot"
    for level in info.bot_levels:
        assert level.bot in cls.BOTS, f"{game_id}: bot level {level.name} has no bot"
    assert info.default_bot == info.bot_levels[-1].bot
    assert info.rules_text().startswith("#")


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_every_option_value_has_a_name_for_players(game_id):
    info = CATALOGUE[game_id]
    for players in info.player_counts:
        for option in info.describe_options(players):
            assert len(option["choice_labels"]) == len(option["choices"])
            assert all(label and "_" not in label and "[" not in label
                       for label in option["choice_labels"]), option
            assert option["label"] and "_" not in option["label"]


def test_a_colour_set_in_any_order_is_the_same_option():
    options = game_info("timebomb_evolution").validate_options(
        4, {"colours": ["red", "yellow", "green", "blue"]})
    assert options["colours"] == ["yellow", "blue", "red", "green"]


def test_an_unknown_game_or_bot_level_is_a_clear_setup_error():
    with pytest.raises(engine.InvalidSetup, match="no game 'chess'; the games are: timebomb"):
        game_info("chess")
    with pytest.raises(engine.InvalidSetup, match="no bot level 'godlike'"):
        game_info("timebomb").bot_level("godlike")

"""The registry of the games this client draws: one package per game, found by its engine id."""

from __future__ import annotations

from engine.catalogue import CATALOGUE
from tui.games import board_for, game_ids, game_package
from tui.widgets.game_board import GameBoard, UnsupportedBoard


def test_every_game_in_the_catalogue_has_a_package_and_nothing_else_does():
    assert game_ids() == sorted(CATALOGUE)


def test_each_package_gives_its_own_board():
    boards = {game_id: board_for(game_id) for game_id in game_ids()}
    assert all(issubclass(board, GameBoard) for board in boards.values())
    assert boards["timebomb_evolution"].__module__ == "tui.games.timebomb_evolution.board"
    assert len(set(boards.values())) == len(boards)


def test_an_unknown_game_gets_the_fallback_and_a_host_cannot_name_another_module():
    assert board_for("cluedo") is UnsupportedBoard
    assert game_package("timebomb.board") is None
    assert game_package("../timebomb") is None
    assert game_package("timebomb-evolution") is None  # protocol 3's id: one name per game now

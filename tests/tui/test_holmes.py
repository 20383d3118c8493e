"""The Holmes board: its model from engine views, its snapshots, and a full game by Pilot."""

from __future__ import annotations

import pytest
from support import offline
from support.flows import open_dialog, play_screen
from support.offline import SIZES
from support.offline import offline_app as app
from support.positions import HOLMES_SEATS as SEATS
from support.positions import holmes_game, holmes_lobby
from support.screen_text import screen_text

import engine
from tui.games.holmes.model import build_model, describe_action
from tui.screens.end import EndScreen

# -- the model ----------------------------------------------------------------------------------


def test_model_shows_own_hidden_clues_and_only_the_count_of_the_opponents():
    game = holmes_game(0)
    game.areas[0].hidden = ["button"]
    game.areas[1].hidden = ["bullet", "map"]
    mine = build_model(game.view(0), game.legal_actions(0), 0, SEATS)
    assert mine.areas[0].hidden == ("button",) and mine.areas[1].hidden is None
    assert mine.areas[1].hidden_count == 2
    watcher = build_model(game.view(engine.SPECTATOR), [], None, SEATS)
    assert watcher.areas[0].hidden is None and watcher.spectator


def test_model_offers_exactly_the_legal_actions_in_words():
    game = holmes_game(1)
    legal = game.legal_actions(0)
    model = build_model(game.view(0), legal, 0, SEATS)
    assert [c.action for c in model.choices] == legal
    assert all(c.label and c.label != c.action["type"] for c in model.choices)
    assert model.choices[0].label.startswith("Place a marker on ")


def test_every_action_of_random_games_has_words():
    import random

    for seed in range(5):
        game = engine.new_game("holmes", 2, {"reserve_card": True, "villains": "both",
                                             "alternative_start": True}, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            seat = min(game.to_act())
            legal = game.legal_actions(seat)
            view = game.view(seat)
            for action in legal:
                assert describe_action(action, view) != action["type"]
            build_model(view, legal, seat, SEATS)
            game.apply(seat, rng.choice(legal))


def test_the_live_estimate_counts_visible_cards():
    game = holmes_game(0)
    game.areas[0].clues["cigarette"] = 3
    game.areas[1].clues["cigarette"] = 1
    model = build_model(game.view(1), [], 1, SEATS)
    assert [a.estimate for a in model.areas] == [4, 0]


# -- snapshots ----------------------------------------------------------------------------------


def table_run(game, seat, *keys):
    return offline.table_run(game, seat, *keys, lobby_message=holmes_lobby())


def my_turn(first_step: int) -> engine.Game:
    """The first position from `first_step` actions on where the game waits on seat 0."""
    games = (holmes_game(n) for n in range(first_step, first_step + 40))
    return next(g for g in games if 0 in g.to_act())


@pytest.mark.parametrize("size", SIZES)
def test_holmes_board_mid_game(snap_compare, size):
    """Day 2 after a few moves: markers, the line, both areas, your turn."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(my_turn(14), 0))


@pytest.mark.parametrize("size", SIZES)
def test_holmes_board_late_in_the_game(snap_compare, size):
    """Day 7: every character in play; at 80x24 both areas come first, the characters scroll."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(my_turn(88), 0))


@pytest.mark.parametrize("size", SIZES)
def test_holmes_choice_dialog_lists_only_legal_moves(snap_compare, size):
    """Enter opens the dialog of legal moves, its hint in view."""
    assert snap_compare(app(), terminal_size=size,
                        run_before=table_run(my_turn(14), 0, "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_holmes_end_screen_explains_the_scores(snap_compare, size):
    """The end: who won, each side's points by majority, set and penalty."""
    assert snap_compare(app(), terminal_size=size,
                        run_before=table_run(holmes_game(1000), 0))


@pytest.mark.parametrize("size", SIZES)
def test_holmes_board_for_a_spectator(snap_compare, size):
    """A spectator sees hidden-clue counts, never the clues."""
    assert snap_compare(app(), terminal_size=size,
                        run_before=table_run(holmes_game(30), None))


# -- a full game against the bot ---------------------------------------------------------------


async def test_play_a_full_game_of_holmes_against_the_bot(app_factory, waiter):
    """A private table against the smart bot, every choice made in its dialog, to the end."""
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        ticket = await app.backend.play_bots("Ann", game="holmes", players=2)
        app.screen.go(ticket)
        table = await waiter.until(pilot, lambda: play_screen(app), "the play screen")
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        choices = 0
        while not isinstance(app.screen, EndScreen):
            await waiter.until(
                pilot,
                lambda: isinstance(app.screen, EndScreen)
                or (app.screen is table and table.board.your_turn),
                "my turn or the end",
            )
            if isinstance(app.screen, EndScreen):
                break
            before = len(table.view["events"])
            await pilot.press("ctrl+k")
            await waiter.until(pilot, lambda: open_dialog(app), "the choice dialog")
            # The last choice: a move, or declining a skill, keeps the game short.
            await pilot.press("end", "enter")
            await waiter.until(pilot, lambda: len(table.view["events"]) > before,
                               "my choice applied")
            choices += 1
        assert choices >= 21  # at least one decision for each of my 21 markers' moves
        assert table.view["outcome"] is not None and table.view["day"] == 7
        assert "points" in screen_text(app)


def test_the_end_names_a_complete_set_in_plain_words():
    """HO rule on complete sets: every copy of a type scores +3, said without a made-up plural."""
    from engine.holmes.catalogue import CLUE_NAMES, FALSE_PASS
    from tui.games.holmes.board import HolmesBoard

    view = holmes_game(1000).view(engine.REFEREE)
    view["scores"][0]["complete_sets"] = [FALSE_PASS]
    text = str(HolmesBoard.ending(view, 0, SEATS).content)
    assert f"every {CLUE_NAMES[FALSE_PASS]} +3" in text
    assert "Passs" not in text

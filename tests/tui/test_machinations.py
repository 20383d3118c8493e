"""The Moriarty's Machinations table: its model, snapshots of its screens and dialogs, and a
7-player game against bots played to the end through the real host."""

from __future__ import annotations

import random

import pytest
from offline import offline_backend, open_table
from tests_helpers import play_screen

import engine
from engine.machinations.bots import BOTS
from engine.machinations.roles import COMPOSITIONS
from tui.app import create_app
from tui.games.machinations.dialogs import (
    AccuseScreen,
    CardScreen,
    ProposeScreen,
    VoteScreen,
)
from tui.games.machinations.model import build_model
from tui.models.seats import SeatInfo
from tui.screens.end import EndScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
NAMES = ["Ada", "Basil", "Cyril", "Dora", "Edith", "Fred", "Gwen", "Hugo", "Iris", "Jules"]


def seats(n: int = 7) -> list[SeatInfo]:
    return [SeatInfo(s, NAMES[s], "human" if s in (0, 2) else "bot", True) for s in range(n)]


def lobby(n: int = 7) -> dict:
    return {"t": "lobby", "table": "t1", "name": "Baker Street", "game": "machinations",
            "players": n, "options": {}, "phase": "playing", "host_seat": 0,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": True}
                      for s in seats(n)]}


def game_until(stop, seed: int = 11, n: int = 7) -> engine.Game:
    """A 7-player game of smart bots, stopped where `stop(game)` first holds."""
    game = engine.new_game("machinations", n, {"first_proposer": 1}, seed)
    rngs = [random.Random(seed * 10 + s) for s in range(n)]
    while game.outcome is None and not stop(game):
        seat = min(game.to_act())
        game.apply(seat, BOTS["smart"](game.view(seat), game.legal_actions(seat), rngs[seat]))
    return game


def proposing_at_0():
    return game_until(lambda g: g.phase == "proposal" and g.proposer == 0 and g.heists)


def app():
    return create_app(offline_backend(), player_name="Ada")


def table_run(game, seat, *keys):
    async def run_before(pilot):
        await open_table(pilot.app, game, seat, lobby(game.players))
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()

    return run_before


# -- the model ---------------------------------------------------------------------------------


def test_model_offers_only_eligible_crews_and_lists_the_record():
    game = proposing_at_0()
    model = build_model(game.view(0), game.legal_actions(0), 0, seats())
    legal = {tuple(a["crew"]) for a in game.legal_actions(0)}
    assert model.crews == legal
    used = {s for s in range(7) if 2 in game.sizes[s]}
    # A seat that went on a crew of 2 can still be picked (bigger crews), never into a pair.
    for seat in used:
        assert all(not (len(c) == 2 and seat in c) for c in model.crews)
    assert model.pickable_for_crew(frozenset()) == {s for c in legal for s in c}
    assert len(model.heists) == len(game.heists) and len(model.votes) == len(game.vote_history)
    assert model.role == game.roles[0]
    known = {s for e in game.view(0)["knowledge"] for s in e["seats"]}
    assert {row.seat for row in model.players if row.known} == known


def test_model_says_why_a_picked_crew_cannot_be_proposed():
    game = proposing_at_0()
    model = build_model(game.view(0), game.legal_actions(0), 0, seats())
    used = min(s for s in range(7) if 2 in game.sizes[s])
    other = min(s for s in range(7) if s != used)
    assert model.crew_verdict([used, other]) == f"{NAMES[used]} has been on a crew of 2"
    assert model.crew_verdict([other]) == "pick at least 2"
    assert model.crew_verdict(min(model.crews)) == "eligible"


def test_model_of_a_spectator_holds_no_secret():
    game = proposing_at_0()
    model = build_model(game.view(engine.SPECTATOR), [], None, seats())
    assert model.spectator and model.role is None and not model.your_turn
    assert all(row.role is None and not row.known for row in model.players)


# -- snapshots -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_proposer_picks_a_crew(snap_compare, size):
    """The Proposer's table: role, players with used sizes, a crew being picked, the record."""
    game = proposing_at_0()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "1", "enter", "3", "enter", "4", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_propose_dialog_names_the_heist(snap_compare, size):
    """s with an eligible crew picked: the crew and a box for the heist's name."""
    game = proposing_at_0()
    crew = min(a["crew"] for a in game.legal_actions(0) if len(a["crew"]) == 3)
    keys = [k for seat in crew for k in (str(seat + 1), "enter")]
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, *keys, "ctrl+s"))


@pytest.mark.parametrize("size", SIZES)
def test_ten_players_with_roles_revealed(snap_compare, size):
    """Ten players late in the game: every row, the record still readable."""
    game = game_until(lambda g: g.phase == "vote" and len(g.heists) >= 4 and 0 not in g.votes,
                      n=10, seed=5)
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0))


@pytest.mark.parametrize("size", SIZES)
def test_accusation_dialog(snap_compare, size):
    """An accuser picks a player, then Enter: the secret accusation to confirm."""
    game = game_until(lambda g: g.phase == "accusation")
    seat = min(game.to_act())
    target = next(a["target"] for a in game.legal_actions(seat) if a["type"] == "accuse")
    assert snap_compare(app(), terminal_size=size,
                        run_before=table_run(game, seat, str(target + 1), "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_role_hidden_with_one_key(snap_compare, size):
    """h hides the role and what the seat learned."""
    game = proposing_at_0()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "ctrl+e"))


@pytest.mark.parametrize("size", SIZES)
def test_secret_vote_dialog(snap_compare, size):
    """v opens the secret vote on the proposed crew."""
    game = game_until(lambda g: g.phase == "vote" and 0 not in g.votes and g.heists)
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "ctrl+t"))


@pytest.mark.parametrize("size", SIZES)
def test_heist_card_dialog(snap_compare, size):
    """p opens the three heist cards; those not legal for this seat are disabled."""
    game = game_until(lambda g: g.phase == "heist" and 0 in g.proposal["crew"]
                      and 0 not in g.cards_in)
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "ctrl+k"))


@pytest.mark.parametrize("size", SIZES)
def test_spectator_sees_the_public_table(snap_compare, size):
    """The same moment from the public view: no role, nothing to act on."""
    assert snap_compare(app(), terminal_size=size,
                        run_before=table_run(proposing_at_0(), None))


@pytest.mark.parametrize("size", SIZES)
def test_end_screen_reveals_every_role(snap_compare, size):
    """The end: who won and why, and every role."""
    game = game_until(lambda g: False)
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0))


# -- a whole game against bots -------------------------------------------------------------------


async def test_play_seven_players_against_bots_to_the_end(app_factory, waiter):
    """A 7-player table of bots: propose, vote, play cards and accuse by keyboard to the end."""
    app_ = app_factory()
    async with app_.run_test(size=(110, 36), message_hook=waiter.hook) as pilot:
        ticket = await app_.backend.play_bots("Ann", "machinations", 7)
        app_.screen.go(ticket)
        table = await waiter.until(pilot, lambda: play_screen(app_), "the play screen")
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        for _ in range(400):
            if isinstance(app_.screen, EndScreen) or table.view.get("outcome"):
                break
            await waiter.until(
                pilot,
                lambda: table.board.model.your_turn or table.view.get("outcome"),
                "my turn",
                timeout=30,
            )
            if table.view.get("outcome"):
                break
            model = table.board.model
            before = len(table.view["events"]), table.view["phase"], model.my_choice
            if model.crews:
                crew = min(model.crews, key=lambda c: (len(c), c))
                for seat in crew:  # a digit picks the row, Enter adds it to the crew
                    await pilot.press(str(seat + 1), "enter")
                await pilot.press("ctrl+s")
                await waiter.until(pilot, lambda: isinstance(app_.screen, ProposeScreen), "name")
                await pilot.press(*"Bank", "enter")
            elif model.can_vote:
                await pilot.press("ctrl+t")
                await waiter.until(pilot, lambda: isinstance(app_.screen, VoteScreen), "vote")
                await pilot.press("a")
            elif model.cards:
                await pilot.press("ctrl+k")
                await waiter.until(pilot, lambda: isinstance(app_.screen, CardScreen), "cards")
                await pilot.press("1", "enter")
            elif model.targets:
                await pilot.press(str(model.targets[0] + 1), "enter")
                await waiter.until(pilot, lambda: isinstance(app_.screen, AccuseScreen), "accuse")
                await pilot.press("y")
            await waiter.until(
                pilot,
                lambda: (len(table.view["events"]), table.view["phase"],
                         table.board.model.my_choice) != before
                or table.view.get("outcome"),
                "the host to take my action",
                timeout=30,
            )
        await waiter.until(pilot, lambda: table.view.get("outcome"), "the end", timeout=30)
        assert sorted(table.view["roles"]) == sorted(COMPOSITIONS[7])

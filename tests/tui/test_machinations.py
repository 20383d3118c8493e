"""The Moriarty's Machinations table: its model, snapshots of its screens and dialogs, and a
7-player game against bots played to the end through the real host."""

from __future__ import annotations

import pytest
from support import offline
from support.flows import open_dialog, play_screen
from support.offline import SIZES
from support.offline import offline_app as app
from support.positions import (
    MACHINATIONS_NAMES,
    machinations_game,
    machinations_lobby,
    machinations_seats,
    proposing_at_0,
)

import engine
from engine.machinations.roles import COMPOSITIONS
from tui.games.machinations.model import build_model
from tui.screens.end import EndScreen


def table_run(game, seat, *keys):
    return offline.table_run(game, seat, *keys, lobby_message=machinations_lobby(game.players))


# -- the model ---------------------------------------------------------------------------------


def test_model_offers_only_eligible_crews_and_lists_the_record():
    game = proposing_at_0()
    model = build_model(game.view(0), game.legal_actions(0), 0, machinations_seats())
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
    model = build_model(game.view(0), game.legal_actions(0), 0, machinations_seats())
    used = min(s for s in range(7) if 2 in game.sizes[s])
    other = min(s for s in range(7) if s != used)
    assert model.crew_verdict([used, other]) == f"{MACHINATIONS_NAMES[used]} has been on a crew of 2"
    assert model.crew_verdict([other]) == "pick at least 2"
    assert model.crew_verdict(min(model.crews)) == "eligible"


def test_model_of_a_spectator_holds_no_secret():
    game = proposing_at_0()
    model = build_model(game.view(engine.SPECTATOR), [], None, machinations_seats())
    assert model.spectator and model.role is None
    assert not (model.crews or model.cards or model.targets or model.can_vote)
    assert all(row.role is None and not row.known for row in model.players)


# -- snapshots -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_proposer_picks_a_crew(snap_compare, size):
    """The Proposer's table: role, players with used sizes, a crew being picked, the record."""
    game = proposing_at_0()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "1", "enter", "3", "enter", "4", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_propose_dialog_names_the_heist(snap_compare, size):
    """Ctrl+S with an eligible crew picked: the crew and a line for the heist's name."""
    game = proposing_at_0()
    crew = min(a["crew"] for a in game.legal_actions(0) if len(a["crew"]) == 3)
    keys = [k for seat in crew for k in (str(seat + 1), "enter")]
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, *keys, "ctrl+s"))


@pytest.mark.parametrize("size", SIZES)
def test_ten_players_with_roles_revealed(snap_compare, size):
    """Ten players late in the game: every row, the record still readable."""
    game = machinations_game(lambda g: g.phase == "vote" and len(g.heists) >= 4 and 0 not in g.votes,
                      n=10, seed=5)
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0))


@pytest.mark.parametrize("size", SIZES)
def test_accusation_dialog(snap_compare, size):
    """An accuser picks a player, then Enter: the secret accusation to confirm."""
    game = machinations_game(lambda g: g.phase == "accusation")
    seat = min(game.to_act())
    target = next(a["target"] for a in game.legal_actions(seat) if a["type"] == "accuse")
    assert snap_compare(app(), terminal_size=size,
                        run_before=table_run(game, seat, str(target + 1), "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_role_hidden_with_one_key(snap_compare, size):
    """Ctrl+E hides the role and what the seat learned."""
    game = proposing_at_0()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "ctrl+e"))


@pytest.mark.parametrize("size", SIZES)
def test_secret_vote_dialog(snap_compare, size):
    """Ctrl+T opens the secret vote on the proposed crew."""
    game = machinations_game(lambda g: g.phase == "vote" and 0 not in g.votes and g.heists)
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, 0, "ctrl+t"))


@pytest.mark.parametrize("size", SIZES)
def test_heist_card_dialog(snap_compare, size):
    """Ctrl+K opens the three heist cards; those not legal for this seat are not offered."""
    game = machinations_game(lambda g: g.phase == "heist" and 0 in g.proposal["crew"]
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
    game = machinations_game(lambda g: False)
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
                lambda: table.board.your_turn or table.view.get("outcome"),
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
                await waiter.until(pilot, lambda: open_dialog(app_), "name")
                await pilot.press(*"Bank", "enter")  # the dialog's own line: the heist's name
            elif model.can_vote:
                await pilot.press("ctrl+t")
                await waiter.until(pilot, lambda: open_dialog(app_), "vote")
                await pilot.press("a")  # a letter is chat, never a vote
                assert open_dialog(app_) is not None
                await pilot.press("backspace", "1", "enter")
            elif model.cards:
                await pilot.press("ctrl+k")
                await waiter.until(pilot, lambda: open_dialog(app_), "cards")
                await pilot.press("enter")  # the first card it may play is highlighted
            elif model.targets:
                await pilot.press(str(model.targets[0] + 1), "enter")
                await waiter.until(pilot, lambda: open_dialog(app_), "accuse")
                await pilot.press("y")  # a letter never confirms
                assert open_dialog(app_) is not None
                await pilot.press("backspace", "enter")
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

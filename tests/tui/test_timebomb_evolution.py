"""The Time Bomb Évolution board: its model, its snapshots, and a Variante game played to the
end."""

from __future__ import annotations

import pytest
from support import offline
from support.flows import claim_offer, open_dialog, play_screen
from support.offline import SIZES, lobby
from support.offline import offline_app as app
from support.positions import TIMEBOMB_EVOLUTION, arranged_game, evolution_lobby, variante_game
from support.screen_text import screen_text

import engine
from tui.games.timebomb_evolution.model import (
    COLOUR_POWERS,
    build_model,
    claim_text,
    describe_decision,
    ending_rule,
)
from tui.models.seats import seat_infos
from tui.screens.end import EndScreen


def table_run(game, seat, *keys):
    return offline.table_run(game, seat, *keys, lobby_message=evolution_lobby(game.players))


def names(players: int = 5):
    return seat_infos(lobby(players)["seats"], players)


# -- the model ---------------------------------------------------------------------------------


def test_model_holds_every_variante_fact():
    game = arranged_game()
    view = game.view(0)
    model = build_model(view, game.legal_actions(0), 0, names())
    assert [(c.colour, c.revealed, c.threshold, c.wire) for c in model.colours] == [
        (c, game.revealed(c), game.thresholds[c], game.wire_on.get(c)) for c in game.colours]
    assert model.set_apart == tuple(view["set_apart"])
    assert model.moved_apart == tuple(view["moved_apart"])
    assert model.last_reveal == game.last_reveal
    seat_names = [s.name for s in names()]
    assert [(d.drawer, d.number, d.designated) for d in model.draws] == [
        (seat_names[d["seat"]], d["number"], seat_names[d["designated"]]) for d in game.draws]
    assert model.designated == game.designated and model.targets == [game.designated]
    assert model.round4_length == view["round4_length"] and not model.round4_final
    assert claim_text({"defusing": 1, "colour": "red", "held": 4}) == "1◆ +Red"


def defuse_pending_game() -> engine.Game:
    """The first seeded Variante game, played by first legal moves, that waits on a
    Defusing wire's colour: the same every run."""
    for seed in range(3, 200):
        for steps in range(1, 30):
            game = variante_game(steps, seed)
            if game.pending and game.pending["kind"] == "defuse":
                return game
    raise AssertionError("no seeded Variante game waits on a defuse decision")


def test_model_offers_the_pending_decision_to_the_decider_only():
    game = defuse_pending_game()
    decider = game.pending["seat"]
    model = build_model(game.view(decider), game.legal_actions(decider), decider, names())
    assert model.decisions and model.pending_seat == decider
    assert describe_decision(model.decisions[0], model).startswith("Lay the Defusing wire on")
    other = (decider + 1) % 5
    assert not build_model(game.view(other), game.legal_actions(other), other, names()).decisions


# -- snapshots ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_evolution_board_shows_the_bombs_board(snap_compare, size):
    """Variante mid-game from the forced cutter's seat: thresholds, defused colours, wires apart,
    the last reveal, Number cards drawn, the forced target and round 4's length."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(arranged_game(), 0))


@pytest.mark.parametrize("size", SIZES)
def test_evolution_board_as_a_spectator(snap_compare, size):
    """The same moment from the public view."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(arranged_game(), None))


@pytest.mark.parametrize("size", SIZES)
def test_evolution_decision_dialog(snap_compare, size):
    """A revealed Defusing wire: the cutter is asked which colour it defuses."""
    game = variante_game(12)
    assert snap_compare(
        app(), terminal_size=size, run_before=table_run(game, game.pending["seat"])
    )


@pytest.mark.parametrize("size", SIZES)
def test_evolution_end_screen_reveals_the_removed_pile(snap_compare, size):
    """The end: roles, wires left and the bomb cards removed unseen."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(variante_game(200), 0))


async def test_every_fact_is_on_screen_at_80x24():
    game = arranged_game()
    view = game.view(0)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await table_run(game, 0)(pilot)
        text = screen_text(application)
    assert f"◆ {view['defusing_found']}/5 found" in text
    assert "apart " + " ".join(f"◆{n}" for n in view["set_apart"]) in text
    assert "moved " + " ".join(f"◆{n}" for n in view["moved_apart"]) in text
    designated = names()[game.designated].name
    # Every colour in play, on a line of its own with what it does (issue 35): the Red just
    # cut says whose wire its draw named, the Orange what is left of round 4.
    for colour in game.colours:
        cell = f"{colour.capitalize():<6} {game.revealed(colour)}/{game.thresholds[colour]}"
        if colour in game.wire_on:
            cell += f" ◆{game.wire_on[colour]}"
        power = {"red": f"next cut: {designated}'s wire ({game.draws[-1]['number']}) ◂",
                 "orange": f"round 4: ≤{view['round4_length']} cuts"}.get(colour,
                                                                         COLOUR_POWERS[colour])
        assert any(line.startswith(cell) and power in line
                   for line in (part.strip("│ ") for part in text.splitlines())), (cell, power)
    assert game.last_reveal == "red"
    assert "removed" not in text.lower()


# -- a Variante game against bots, to the end --------------------------------------------------


def is_decision(application) -> bool:
    """The dialog of a Variante decision, which opens by itself, not a claim the test asked."""
    dialog = open_dialog(application)
    return dialog is not None and dialog.has_class("-decision")


def is_claim_offer(application) -> bool:
    """The claim offered after each deal, which opens by itself too."""
    return claim_offer(application)


async def test_play_the_variante_against_bots_to_the_end(app_factory, waiter):
    """Cut by keyboard, answer every decision from its dialog, say the truth when each deal
    offers a claim, change it once with Ctrl+K, until the end."""
    application = app_factory()
    async with application.run_test(size=(100, 32), message_hook=waiter.hook) as pilot:
        ticket = await application.backend.host_table(
            TIMEBOMB_EVOLUTION, 5, {"variante": True}, name="Variante", bots=4, advertise=False,
            start_when_full=True,
        )
        application.screen.go(ticket)
        table = await waiter.until(pilot, lambda: play_screen(application), "the table")
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        claimed = decided = cuts = offered = 0
        while not isinstance(application.screen, EndScreen):
            await waiter.until(
                pilot,
                lambda: isinstance(application.screen, EndScreen) or is_decision(application)
                or is_claim_offer(application)
                or (application.screen is table and table.board.dialog is None
                    and table.board.model and table.board.model.may_cut),
                "my turn, my decision or the end",
            )
            screen = application.screen
            if isinstance(screen, EndScreen):
                break
            actions = len(table.view["events"])
            if is_decision(application):
                await pilot.press("enter")
                decided += 1
            elif is_claim_offer(application):
                await pilot.press("enter")
                offered += 1
            elif not claimed and table.board.model.claims:
                await pilot.press("ctrl+k")
                await waiter.until(pilot, lambda: open_dialog(application), "claims")
                await pilot.press("down", "enter")
                claimed += 1
            else:
                await pilot.press("enter")
                await waiter.until(pilot, lambda: open_dialog(application), "the wire picker")
                await pilot.press("1", "enter")
                cuts += 1
            await waiter.until(
                pilot,
                lambda: len(table.view["events"]) > actions
                or isinstance(application.screen, EndScreen),
                "the host to apply it",
            )
        assert cuts > 0 and claimed == 1 and offered >= 1
        text = screen_text(application)
        assert "team wins" in text and "Removed unseen" in text
        assert table.view["outcome"] is not None and "removed" in table.view


@pytest.mark.parametrize("reason, variante, rule", [
    ("pink", True, "EV-18"), ("bomb", True, "unless a Defusing wire lies on it"),
    ("bomb", False, "EV-14: the fourth bomb"), ("orange", True, "EV-21"),
    ("defused", False, "EV-13"), ("time", True, "EV-15")])
def test_the_end_names_the_rule_that_ended_the_game(reason, variante, rule):
    assert rule in ending_rule(reason, variante)

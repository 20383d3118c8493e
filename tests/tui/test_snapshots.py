"""Snapshots of every screen at 80x24 and at 120x40, grouped by feature."""

from __future__ import annotations

import pytest
from support.offline import (
    SIZES,
    finished_game,
    lobby,
    open_table,
    seeded_game,
    table_run,
)
from support.offline import (
    offline_app as app,
)
from support.positions import cutter_game

from engine.catalogue import CATALOGUE
from tui.address import Address
from tui.listing import TableListing
from tui.messages import TablesFound


def listings() -> list[TableListing]:
    address = Address("192.168.1.20", 7420)
    return [
        TableListing(address, "a1", "Baker Street", "timebomb", 6, 2, "waiting", people=2,
                     bots=2),
        TableListing(address, "b2", "The Diogenes Club", "timebomb", 5, 0, "playing", people=5,
                     bots=0),
        TableListing(Address("192.168.1.31", 7420), "c3", "Reichenbach", "timebomb", 8, 0, "over",
                     people=1, bots=7),
    ]


# -- lobby -------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_lobby_lists_tables_found_on_the_lan(snap_compare, size):
    """The lobby with three discovered tables, cursor on the first."""

    async def run_before(pilot):
        pilot.app.screen.post_message(TablesFound(listings(), "lan"))
        await pilot.pause()

    assert snap_compare(app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_lobby_asks_the_name_on_first_start(snap_compare, size):
    """No name yet: the name dialog opens over an empty lobby."""
    from tui.screens.name import NameScreen

    async def run_before(pilot):
        while not isinstance(pilot.app.screen, NameScreen):
            await pilot.pause()
        pilot.app.screen.query_one("#name-input").cursor_blink = False  # no clock in pixels
        await pilot.pause()

    assert snap_compare(app(None), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list(CATALOGUE))
def test_host_form_offers_the_games_declared_options(snap_compare, size, game):
    """The host form: game, name, players, bots and the game's options, buttons in view."""
    from tui.screens.host_table import HostTableScreen

    async def run_before(pilot):
        await pilot.app.push_screen(HostTableScreen("Ada", game))
        await pilot.pause()

    assert snap_compare(app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_join_by_address_explains_a_bad_address(snap_compare, size):
    """a, then a wrong address: the dialog says what to type."""
    assert snap_compare(app(), terminal_size=size, press=["a", *"tablehost", "enter"])


# -- the Time Bomb table -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_board_from_the_cutters_seat(snap_compare, size):
    """Mid-game from the cutter's seat: role, wire counts, players, revealed wires, log."""
    game = cutter_game()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, game.cutter))


@pytest.mark.parametrize("size", SIZES)
def test_board_with_the_role_hidden(snap_compare, size):
    """h hides the role and the wires from onlookers."""
    game = cutter_game()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, game.cutter, "ctrl+e"))


@pytest.mark.parametrize("size", SIZES)
def test_board_as_a_spectator(snap_compare, size):
    """The same moment from the public view: no role, no hand, nothing to act on."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(cutter_game(), None))


@pytest.mark.parametrize("size", SIZES)
def test_cut_offers_the_targets_face_down_wires(snap_compare, size):
    """Enter on a target offers one of its face-down wires."""
    game = cutter_game()
    assert snap_compare(
        app(), terminal_size=size, run_before=table_run(game, game.cutter, "enter")
    )


@pytest.mark.parametrize("size", SIZES)
def test_claim_dialog_lists_the_legal_claims(snap_compare, size):
    """c opens the claim dialog with every claim that fits the hand."""
    game = cutter_game()
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, game.cutter, "ctrl+k"))


@pytest.mark.parametrize("size", SIZES)
def test_claim_offer_at_a_deal_leaves_the_table_in_sight(snap_compare, size):
    """Round 2 just dealt: the claim offer at the screen's foot, the players, their claims
    and the log (the last round's end) above it."""
    game = seeded_game(5)
    seat = next(s for s in (2, 4) if s != game.cutter)  # a person's seat
    assert snap_compare(app(), terminal_size=size, run_before=table_run(game, seat))


@pytest.mark.parametrize("size", SIZES)
def test_waiting_room_before_the_game(snap_compare, size):
    """A hosted table waiting for players: seats, who hosts, the setup, and the host's keys."""

    async def run_before(pilot):
        message = lobby(phase="waiting")
        message["seats"][2] = {"seat": 2, "name": "", "kind": "empty", "connected": False}
        message["seats"][4] = {"seat": 4, "name": "", "kind": "empty", "connected": False}
        await open_table(pilot.app, None, 0, message)
        await pilot.pause()

    assert snap_compare(app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_end_screen_reveals_everything(snap_compare, size):
    """The end: winning team and why, every role, every wire left, play again or lobby."""
    assert snap_compare(app(), terminal_size=size, run_before=table_run(finished_game(), 0))


# -- help ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_rules_render_from_the_packaged_markdown(snap_compare, size):
    """F1 shows the rules of Time Bomb from engine/rules/timebomb.md."""
    assert snap_compare(app(), terminal_size=size, press=["f1"])


@pytest.mark.parametrize("size", SIZES)
def test_keys_screen_lists_what_can_be_pressed_now(snap_compare, size):
    """? at the table lists the keys that work there now."""
    game = cutter_game()
    assert snap_compare(
        app(), terminal_size=size, run_before=table_run(game, game.cutter, "question_mark", "enter")
    )

"""The app's ways back to a seat prove the host first (PROTOCOL.md, "Transport"): a machine in
the middle reads none of the player's secrets, and the player is told in words why the app
stopped, never that the host is gone."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.flows import play_screen, question
from support.relays import MachineInTheMiddle, RecordingRelay
from support.screen_text import screen_text

from netplay.client import HostKeyChanged
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import Act
from netplay.transport import HostKey
from tui.address import Address
from tui.listing import TableListing, connect_error_text
from tui.screens.end import EndScreen
from tui.screens.play import PlayScreen
from tui.seat_book import HeldSeat
from tui.widgets.event_log import EventLog
from tui.widgets.table_list import TableList

CHANGED_KEY = "has changed its key"


@pytest.fixture
async def lan_host(tmp_path):
    host = Host(data_dir=tmp_path / "lan", limits=HostLimits(bot_delay=0))
    await host.start("127.0.0.1", 0)
    yield host
    await host.stop()


def listing_at(port: int, host: Host, table: str) -> TableListing:
    return TableListing(Address("127.0.0.1", port), table, "Baker Street", "timebomb", 5, 2,
                        "waiting", host_id=host.host_id)


async def seated(backend, host: Host) -> tuple[str, HeldSeat]:
    """Ann takes a seat at a new table of `host`, paired by its code, and goes: the table,
    and the seat her backend holds there."""
    table = host.create_table("timebomb", 5, {}, "Baker Street", bots=3)
    backend.remember_code(Address("127.0.0.1", host.address[1]), host.table_code)
    conn = await backend.connect(listing_at(host.address[1], host, table).ticket(False), "Ann")
    await conn.close()
    (held,) = backend.seats.all()
    return table, held


async def test_join_with_a_code_while_holding_a_seat_sends_the_token_to_its_host_only(
        backend_factory, lan_host, tmp_path):
    """`gaslight join --code` in a new session, holding a seat: the table list came from the
    real host, but the sit reaches a machine in the middle that knows the code (it was shown
    on the host's screen). The key kept with the seat is expected, so the token stays home."""
    host = lan_host
    first = backend_factory(data_dir=tmp_path / "player")
    table, held = await seated(first, host)
    assert held.fingerprint == host.key.fingerprint

    again = backend_factory(data_dir=tmp_path / "player")
    mitm = MachineInTheMiddle(HostKey(tmp_path / "mitm.pem"), host.address[1])
    async with mitm as port:
        again.remember_code(Address("127.0.0.1", port), host.table_code)
        with pytest.raises(HostKeyChanged) as refused:
            await again.connect(listing_at(port, host, table).ticket(False), "Ann")
    assert mitm.heard_any(held.token, "Ann", table) == []
    assert CHANGED_KEY in connect_error_text(Address("127.0.0.1", port), refused.value)
    assert again.seats.all() == [held]  # the seat is still the player's


@pytest.mark.parametrize("when", ["mid-game", "after the end"])
async def test_a_reconnect_stopped_by_a_changed_key_says_so(app_factory, waiter, lan_host,
                                                            tmp_path, when):
    """The link drops, mid-game or once the game is over, and the reconnect meets another
    key: the table says the key changed and what to do, not that the host is gone."""
    host = lan_host
    table = host.create_table("holmes", 2, {}, "Baker Street", bots=1, start_when_full=True)
    app = app_factory("Ann")
    relay = RecordingRelay(host.address[1])
    mitm = MachineInTheMiddle(HostKey(tmp_path / "mitm.pem"), host.address[1])
    async with relay as relay_port, mitm as mitm_port, app.run_test(
            size=(80, 24), message_hook=waiter.hook) as pilot:
        app.backend.remember_code(Address("127.0.0.1", relay_port), host.table_code)
        ticket = listing_at(relay_port, host, table).ticket(False)
        await app.push_screen(PlayScreen(app.backend, ticket, "Ann"))
        screen = await waiter.until(pilot, lambda: (s := play_screen(app)) and s.view and s,
                                    "the game")
        while when == "after the end" and not isinstance(app.screen, EndScreen):
            before = screen.view
            if screen.seat in before["to_act"] and screen.board.legal:
                screen.send(Act(screen.board.legal[0]))
            await waiter.until(
                pilot, lambda: isinstance(app.screen, EndScreen) or screen.view is not before,
                "the next state")
        token = screen.connection.token
        relay.target_port = mitm_port
        relay.cut()
        await waiter.until(pilot, lambda: screen.status == "closed", "the reconnect to stop")
        notes = [e for e in screen.query_one(EventLog).entries if isinstance(e, str)]
    told = " ".join(notes)
    assert CHANGED_KEY in told and "ask them for the table code" in told, notes
    assert "is gone" not in told
    assert mitm.heard_any(token, "Ann", table) == []


async def test_a_held_seat_whose_host_shows_another_key_stays_listed_and_marked(
        app_factory, backend_factory, waiter, lan_host, tmp_path):
    """Ann holds a seat; where its host was last seen, a machine in the middle answers with a
    key of its own. The lobby keeps the ★ row, marked; Enter says what that means, and
    letting the seat go sends nothing there: the token goes only to the key met before."""
    host = lan_host
    sitting = backend_factory(data_dir=tmp_path / "data-Ann")
    table, held = await seated(sitting, host)
    mitm = MachineInTheMiddle(HostKey(tmp_path / "mitm.pem"), host.address[1])
    async with mitm as mitm_port:
        sitting.seats.keep(replace(held, address=Address("127.0.0.1", mitm_port), pid=None))
        app = app_factory("Ann")
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            tables = app.lobby.query_one(TableList)
            row = await waiter.until(pilot, lambda: tables.selected, "the held seat's row")
            assert row.held and row.key_changed and row.id == table
            text = " ".join(screen_text(app).split())
            assert "★ Baker Street" in text and "key changed" in text
            assert "not the host you sat with" in text
            await pilot.press("enter")
            # The dialog is on the stack before it is drawn: wait for its buttons.
            await waiter.until(pilot, lambda: question(app)
                               and "Let it go" in screen_text(app), "told")
            told = " ".join(app.screen.text.split())
            assert "shows a different key from the one you sat with" in told
            assert "nothing was sent to it" in told and "table code" in told
            await pilot.press("escape")  # keep it: the row stays
            await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby")
            assert tables.selected.key_changed and held.key in {
                s.key for s in app.backend.seats.all()}
            await pilot.press("ctrl+x")
            await waiter.until(pilot, lambda: question(app)
                               and "Give it up" in screen_text(app), "asked")
            assert "it is told nothing" in " ".join(app.screen.text.split())
            await pilot.press("1", "enter")
            await waiter.until(pilot, lambda: tables.row_count == 0, "the row gone")
            assert app.backend.seats.all() == []
    assert mitm.connections >= 1, "the lobby looked for the seat's host there"
    assert mitm.heard_any(held.token, "Ann", table) == []

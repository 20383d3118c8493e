"""Seats that survive: tokens on disk, owner-only; a restarted app takes its seat back."""

from __future__ import annotations

import asyncio
import stat
from dataclasses import replace

from support.flows import pair, play_screen, question
from support.screen_text import screen_text

from tui.address import Address
from tui.listing import TableListing
from tui.screens.quick_play import QuickPlayScreen
from tui.seat_book import HeldSeat, SeatBook
from tui.widgets.table_list import TableList


async def test_a_restarted_app_takes_its_seat_back(app_factory, waiter, tmp_path):
    """Holmes against the bot; the app ends mid-game (its in-process host with it); a new app
    on the same data directory brings the host back from its store and offers the seat."""
    app = app_factory("Ann")
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g")
        await waiter.until(pilot, lambda: isinstance(app.screen, QuickPlayScreen), "the picker")
        await pilot.press("4", "enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(
            pilot, lambda: table.view is not None and table.seat in table.view["to_act"],
            "my turn",
        )
        seat, before = table.seat, table.view
    book_dir = tmp_path / "data-Ann" / "seats"
    (held,) = SeatBook(book_dir).all()
    assert stat.S_IMODE(book_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((book_dir / "seats.json").stat().st_mode) == 0o600
    assert held.game == "holmes" and held.store is not None

    again = app_factory("Ann")
    async with again.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        offer = await waiter.until(
            pilot, lambda: question(again), "the offer"
        )
        # The dialog is on the stack before it is drawn: wait for its words, not a frame.
        await waiter.until(
            pilot, lambda: "You have a seat at Ann against bots" in " ".join(
                screen_text(again).split()), "the offer drawn")
        (listing,) = again.lobby.query_one(TableList).listings.values()
        assert listing.held and listing.phase == "playing"
        assert offer is again.screen
        await pilot.press("enter")
        back = await waiter.until(
            pilot, lambda: (s := play_screen(again)) and s.view and s, "the seat again"
        )
        assert back.seat == seat and not back.spectator
        assert back.view["day"] == before["day"]
        assert back.view["events"][-1] == before["events"][-1]
        assert back.board.legal, "it is still this player's move"


async def test_seats_at_tables_over_or_gone_are_forgotten(backend_factory, tmp_path):
    """The seat book keeps a seat whose host cannot be found (it may come back), and forgets
    one at a table the host no longer has or whose game is over."""
    from netplay.host import Host
    from netplay.limits import HostLimits

    host = Host(data_dir=tmp_path / "lan", limits=HostLimits(bot_delay=0))
    _, port = await host.start("127.0.0.1", 0)
    over = host.create_table("timebomb", 4, {}, "Over", bots=4, seed=1, start_when_full=True)
    try:
        async with asyncio.timeout(30):  # four bots play that game to its end
            while host.tables[over].phase != "over":
                await asyncio.sleep(0.01)
        backend = backend_factory(data_dir=tmp_path / "player")
        pair(backend, host)
        here = Address("127.0.0.1", port)
        backend.seats.keep(HeldSeat(host.host_id, "gone", "t1", here))
        backend.seats.keep(HeldSeat(host.host_id, over, "t2", here))
        backend.seats.keep(HeldSeat("elsewhere", "away", "t3", Address("127.0.0.1", 9)))
        assert await backend.held_tables("Ann") == []
        assert [s.table for s in backend.seats.all()] == ["away"]
    finally:
        await host.stop()


def test_a_damaged_seat_book_loses_only_the_damaged_entries(tmp_path):
    book = SeatBook(tmp_path / "seats")
    book.keep(HeldSeat("h1", "t1", "token", Address("127.0.0.1", 7420), "timebomb"))
    text = book.path.read_text()
    book.path.write_text(text.replace('"seats": [', '"seats": [{"host_id": 3}, "junk", '))
    assert [s.key for s in book.all()] == [("h1", "t1")]
    book.path.write_text("not json")
    assert book.all() == []


async def test_a_finished_bot_game_left_is_tidied_away(app_factory, waiter, tmp_path):
    """A game against bots played to its end (Time Bomb, the shortest), then back to the
    lobby: the seat is forgotten, the private host stops and its store goes; nothing is left to
    list."""
    from netplay.protocol import Act
    from tui.screens.end import EndScreen

    app = app_factory("Ann")
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g", "1", "enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        (host,) = app.backend.hosts
        store = host.store.path
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        while not isinstance(app.screen, EndScreen):
            before = table.view
            if table.seat in before["to_act"] and table.board.legal:
                table.send(Act(table.board.legal[0]))
            await waiter.until(
                pilot,
                lambda: isinstance(app.screen, EndScreen) or table.view is not before,
                "the next state",
            )
        await pilot.press("ctrl+l")
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby")
        await waiter.until(pilot, lambda: not app.backend.hosts, "the host stopped")
        assert app.backend.seats.all() == []
        assert not list(store.parent.glob(store.name + "*"))
        assert app.lobby.query_one(TableList).row_count == 0


async def test_a_host_found_at_another_address_is_followed(backend_factory, tmp_path):
    """The seat's last address answers no more; discovery finds the same host identity at
    another port: the seat is listed there, and the book remembers the new address."""
    from netplay.host import Host

    host = Host(data_dir=tmp_path / "lan", advertise=True, interfaces=["127.0.0.1"])
    table = host.create_table("timebomb", 5, {}, "Moved", bots=2, start_when_full=True)
    _, port = await host.start("127.0.0.1", 0)
    try:
        backend = backend_factory(data_dir=tmp_path / "player", discover=True)
        pair(backend, host)
        seat = (await backend.connect(
            TableListing(Address("127.0.0.1", port), table, "Moved", "timebomb", 5, 3, "waiting",
                         host_id=host.host_id).ticket(spectate=False), "Ann"))
        await seat.close()
        (held,) = backend.seats.all()
        backend.seats.keep(replace(held, address=Address("127.0.0.1", 9)))  # nobody there
        (listing,) = await backend.held_tables("Ann")
        assert (listing.id, listing.address, listing.held) == (table, Address("127.0.0.1", port),
                                                               True)
        assert backend.seats.get(host.host_id, table).address == Address("127.0.0.1", port)
    finally:
        await host.stop()


async def test_a_seat_another_running_app_holds_is_left_to_it(backend_factory, tmp_path):
    """Two apps of one player on one machine share the seat book: a seat whose app still runs
    is not offered, marked or taken over by the other; once that app has ended, it is."""
    import subprocess
    import sys

    from netplay.host import Host

    host = Host(data_dir=tmp_path / "lan")
    table = host.create_table("timebomb", 5, {}, "Shared", bots=3, start_when_full=True)
    _, port = await host.start("127.0.0.1", 0)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        first = backend_factory(data_dir=tmp_path / "player")
        pair(first, host)
        listing = TableListing(Address("127.0.0.1", port), table, "Shared", "timebomb", 5, 2,
                               "waiting", host_id=host.host_id)
        ann = await first.connect(listing.ticket(spectate=False), "Ann")
        (held,) = first.seats.all()
        first.seats.keep(replace(held, pid=other.pid))  # as if that other app sat there

        second = backend_factory(data_dir=tmp_path / "player")
        assert not second.holds_seat(listing) and await second.held_tables("Ann") == []
        bob = await second.connect(listing.ticket(spectate=False), "Ann")
        assert bob.seat != ann.seat and ann.status == "connected"
        assert second.seats.get(host.host_id, table).token == held.token  # still the other's

        other.kill()
        other.wait()
        assert second.holds_seat(listing)
        assert [t.id for t in await second.held_tables("Ann")] == [table]
        await bob.close()
        await ann.close()
    finally:
        other.kill()
        await host.stop()


async def test_a_held_seat_is_let_go_at_its_host_and_here(app_factory, backend_factory, waiter,
                                                          tmp_path):
    """x on a ★ row asks first; yes gives the seat up at its host (before the game: freed for
    someone else) and forgets it here."""
    from netplay.host import Host
    from tui.listing import Ticket

    host = Host(data_dir=tmp_path / "lan")
    _, port = await host.start("127.0.0.1", 0)
    try:
        table_id = host.create_table("timebomb", 5, {}, "Baker Street", bots=2,
                                     start_when_full=True)
        sitting = backend_factory(data_dir=tmp_path / "data-Ann")
        pair(sitting, host)
        connection = await sitting.connect(
            Ticket(Address("127.0.0.1", port), table_id, game="timebomb", name="Baker Street"),
            "Ann")
        await connection.close()
        assert len(sitting.seats.all()) == 1
        app = app_factory("Ann")
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            # The lobby first offers the held seat back; not now.
            await waiter.until(pilot, lambda: question(app), "take it back?")
            await pilot.press("escape")
            await waiter.until(pilot, lambda: not question(app), "not now")
            await pilot.press("ctrl+o", *f"127.0.0.1:{port}", "enter")
            tables = app.lobby.query_one(TableList)
            await waiter.until(pilot, lambda: tables.selected and tables.selected.held, "★")
            await pilot.press("ctrl+x")
            await waiter.until(pilot, lambda: question(app), "asked")
            assert "Give up your seat at Baker Street" in " ".join(screen_text(app).split())
            await pilot.press("1", "enter")  # Give it up: Enter alone keeps it
            await waiter.until(pilot, lambda: any("Seat at Baker Street given up: its host was "
                                                  "told" in n.message
                                                  for n in app._notifications), "given up")
            assert sitting.seats.all() == []
            assert host.tables[table_id].summary()["seats_taken"] == 2  # freed at the host
            assert not any(t.held for t in tables.listings.values())
    finally:
        await host.stop()


async def test_letting_go_of_a_bot_game_ends_it(app_factory, waiter, tmp_path):
    """A private game against bots, left mid-game, is let go: its host and store go too."""
    app = app_factory("Ann")
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g")
        await waiter.until(pilot, lambda: isinstance(app.screen, QuickPlayScreen), "the picker")
        await pilot.press("4", "enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(pilot, lambda: table.view is not None, "a state")
        store = app.backend.hosts[0].store.path
        await pilot.press("escape")
        await waiter.until(pilot, lambda: question(app), "leave?")
        await pilot.press("2", "enter")  # Back to the lobby
        tables = app.lobby.query_one(TableList)
        await waiter.until(pilot, lambda: tables.selected and tables.selected.held, "★ row")
        await pilot.press("ctrl+x")
        await waiter.until(pilot, lambda: question(app), "asked")
        await pilot.press("escape")  # not now: kept
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby")
        assert tables.selected.held
        await pilot.press("ctrl+x")
        await waiter.until(pilot, lambda: question(app), "asked again")
        await pilot.press("1", "enter")
        await waiter.until(pilot, lambda: tables.row_count == 0, "the row gone")
        assert app.backend.seats.all() == [] and app.backend.hosts == []
        assert not store.exists()

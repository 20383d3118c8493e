"""The person who hosts can leave without ending the table (issue 35): quitting the app that
hosts asks what becomes of the table, truthfully; keeping it running hands it to a host in
the background on the same store and port, which the others reconnect to; closing it tells
every player and spectator who closed it, with the evening's record and the way back."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

from support.flows import host_for_bob, play_screen, question, second_waiter
from support.screen_text import screen_text

from netplay.client import CONNECTED, Connection, Status
from netplay.pairing import show_code
from netplay.protocol import Closed, State
from tui import background
from tui.address import Address
from tui.listing import Ticket
from tui.screens.keys import KeysScreen
from tui.screens.leaving import CLOSE, KEEP
from tui.widgets.closed_table import ClosedTable


async def test_quitting_the_app_that_hosts_asks_what_becomes_of_the_table(app_factory, waiter):
    app = app_factory("Ann")
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        table, bob = await host_for_bob(app, pilot, waiter)
        await pilot.press("ctrl+q")
        await waiter.until(pilot, lambda: question(app), "asked")
        text = " ".join(screen_text(app).split())
        assert "You host on this computer:" in text
        assert "Ann's table: Ann and Bob playing Time Bomb" in text
        assert "keeping it running" in text and "closing it for everyone" in text
        # A stray Enter, or Ctrl+Q again, ends nothing: the first answer stays; Ctrl+Q only
        # moves to the answer that quits.
        await pilot.press("ctrl+q")
        assert question(app) and app.screen.answers[
            app.screen.choice_list.highlighted].value == KEEP
        await pilot.press("escape")
        await waiter.until(pilot, lambda: app.screen is table, "back at the table")
        await pilot.press("ctrl+q")
        await waiter.until(pilot, lambda: question(app), "asked again")
        await pilot.press("enter")
        await waiter.until(pilot, lambda: app.screen is table, "Enter stays")
        assert app.is_running and app.backend.hosts
        await bob.close()


async def test_closing_the_table_tells_everyone_who_closed_it(app_factory, waiter):
    ann, cat = app_factory("Ann"), app_factory("Cat")
    cat_waiter = second_waiter()
    async with ann.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        table, bob = await host_for_bob(ann, pilot, waiter)
        host = ann.backend.hosts[0]
        async with cat.run_test(size=(80, 24), message_hook=cat_waiter.hook) as cat_pilot:
            # Cat, given the table code, watches the game mid-way.
            cat.backend.remember_code(_address(host), host.table_code)
            cat.lobby.go(Ticket(_address(host), table.lobby.table, spectate=True))
            watching = await cat_waiter.until(cat_pilot, lambda: (s := play_screen(cat))
                                              and s.view is not None and s, "Cat watching")
            await pilot.press("ctrl+q")
            await waiter.until(pilot, lambda: question(ann), "asked")
            await pilot.click(ann.screen.choice_list,
                              offset=(2, ann.screen.index_of(CLOSE)))
            closed = await asyncio.wait_for(next_closed(bob), 5)
            assert closed.by == "Ann" and closed.message == "Ann closed the table."
            await cat_waiter.until(cat_pilot, lambda: watching.query_one(ClosedTable).display
                                   and "Ann closed the table." in screen_text(cat),
                                   "Cat told", timeout=5)
            assert "reconnecting" not in screen_text(cat)
            await cat_pilot.press("escape")
            await cat_waiter.until(cat_pilot, lambda: cat.screen is cat.lobby, "Cat's lobby")
        await bob.close()


def _address(host) -> Address:
    return Address("127.0.0.1", host.address[1])


async def next_closed(conn: Connection) -> Closed:
    async for message in conn:
        if isinstance(message, Closed):
            return message
    raise AssertionError("no closed message")


async def test_keeping_the_table_running_hands_it_to_a_host_in_the_background(
        app_factory, waiter, tmp_path):
    app = app_factory("Ann")
    data = tmp_path / "data-Ann"
    pid = None
    try:
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            table, bob = await host_for_bob(app, pilot, waiter)
            store = app.backend.hosts[0].store.path.stem
            port = app.backend.hosts[0].address[1]
            code = show_code(app.backend.hosts[0].table_code)
            await pilot.press("ctrl+q")
            await waiter.until(pilot, lambda: question(app), "asked")
            await pilot.press("ctrl+q", "enter")  # Ctrl+Q again highlights keeping it running
            await waiter.until(pilot, lambda: background.running(data, store),
                               "the table running in the background")
        pid = background.running(data, store)
        assert not app.backend.hosts
        # Bob's app reconnects to the background host, at the same port, within seconds.
        async def back_in_the_game() -> None:
            reconnected = False
            async for message in bob:
                reconnected |= isinstance(message, Status) and message.status == CONNECTED
                if reconnected and isinstance(message, State):
                    return
        await asyncio.wait_for(back_in_the_game(), 10)
        assert bob.port == port
        # Ann opens the app again: her table is in the lobby, and she takes her seat back,
        # with its table code in sight for latecomers, as when her app hosted it.
        again = app_factory("Ann")
        async with again.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            [listing] = await again.backend.held_tables("Ann")
            assert listing.address.port == port and not again.backend.needs_code(listing)
            assert again.backend.in_background(listing) and not again.backend.hosts
            await waiter.until(pilot, lambda: question(again)
                               and "Rejoin" in screen_text(again), "the offer")
            await pilot.press("enter")  # Rejoin: an offer's yes ends nothing
            seat = await waiter.until(pilot, lambda: (s := play_screen(again))
                                      and s.view is not None and s, "Ann at her seat")
            assert seat.seat == 0 and not seat.spectator
            assert f"code {code}" in screen_text(again).splitlines()[0]  # the status bar
            await pilot.press("question_mark", "enter")
            await waiter.until(pilot, lambda: isinstance(again.screen, KeysScreen), "the keys")
            keys = " ".join(screen_text(again).split())
            assert f"Table code {code}" in keys and f"127.0.0.1:{port}" in keys
        # The person who hosted comes back later to stop it from the lobby: it closes.
        assert await asyncio.to_thread(background.stop, data, store)
        closed = await asyncio.wait_for(next_closed(bob), 5)
        assert closed.by == "Ann"
        await bob.close()
    finally:
        if pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


async def test_a_closed_terminal_keeps_the_table_running(app_factory, waiter):
    """SIGHUP leaves nobody to ask: the table goes on in the background."""
    app = app_factory("Ann")
    kept: list[str] = []

    async def keep_in_background(name: str) -> None:
        kept.append(name)

    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        _, bob = await host_for_bob(app, pilot, waiter)
        app.backend.keep_in_background = keep_in_background
        app.hung_up()  # what the app's SIGHUP handler runs
        await waiter.until(pilot, lambda: kept, "the table kept running")
        await bob.close()
    assert kept == ["Ann"]


def test_in_a_browser_quitting_offers_only_to_close_the_table():
    """A guest's table does not outlive their page (`gaslight serve`): the question offers no
    keeping it running, and says why."""
    from tui.screens.leaving import CLOSE, STAY, leaving_question

    question = leaving_question(at_game=None, hosting=["Ann's table"], may_keep=False)
    assert [a.value for a in question.answers] == [STAY, CLOSE]
    assert question.quit_answer == CLOSE
    assert "does not outlive its page" in str(question.text)


async def test_stopping_a_background_table_names_what_ends_and_a_stray_key_keeps_it(
        app_factory, waiter):
    """Ctrl+X on the ★ row of a table this app keeps running in the background: the question
    names who is playing what, and neither a letter nor a stray Enter stops it."""
    from tui.listing import TableListing
    from tui.screens.held_seats import let_go_question

    listing = TableListing(Address("127.0.0.1", 47321), "t1", "Baker Street", "timebomb_evolution",
                           5, 0, "playing", people=3, bots=2, held=True)
    answers: list = []
    app = app_factory("Ann")
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        app.push_screen(let_go_question(listing, in_background=True), answers.append)
        await waiter.until(pilot, lambda: question(app), "asked")
        text = " ".join(screen_text(app).split())
        assert "3 people and 2 bots are playing Time Bomb Évolution" in text
        await pilot.press("y", "s", "enter")
        await waiter.until(pilot, lambda: answers, "answered")
        assert answers == [False]

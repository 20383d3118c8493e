"""The table code's dialog: asked once per host, and at every join of a private table."""

from __future__ import annotations

import pytest
from support.offline import offline_backend
from support.screen_text import screen_text

from tui.app import create_app
from tui.screens.pairing import PairingScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
def test_the_code_dialog_says_why_and_what_a_code_looks_like(snap_compare, size):
    async def run_before(pilot):
        await pilot.app.push_screen(PairingScreen("192.168.1.20:7420"))
        await pilot.press(*"1234", "enter")  # a code too short: the dialog says so
        await pilot.pause()

    assert snap_compare(create_app(offline_backend(), player_name="Ada"), terminal_size=size,
                        run_before=run_before)


async def test_the_dialog_gives_the_eight_digits_or_nothing():
    app = create_app(offline_backend(), player_name="Ada")
    results = []
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(PairingScreen("192.168.1.20:7420", private=True), results.append)
        await pilot.pause()
        assert "This table is private" in screen_text(app)
        await pilot.press(*"7788 6939", "enter")
        await pilot.pause()
        await app.push_screen(PairingScreen("192.168.1.20:7420"), results.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert results == ["77886939", None]


async def test_a_refused_code_is_asked_again_and_costs_no_seat(backend_factory, tmp_path):
    """A mistyped code is forgotten: the next join asks for it instead of trying it again
    (which only ever said "the table code is wrong"), and the seat book keeps its seats."""
    from netplay.client import WrongCode
    from netplay.host import Host
    from tui.address import Address
    from tui.listing import TableListing, Ticket

    host = Host(data_dir=tmp_path / "host")
    await host.start("127.0.0.1", 0)
    backend = backend_factory()
    try:
        table = host.create_table("timebomb", 5, bots=3, start_when_full=True)
        address = Address("127.0.0.1", host.address[1])
        wrong = f"{(int(host.table_code) + 1) % 10 ** 8:08d}"
        backend.remember_code(address, wrong)
        with pytest.raises(WrongCode):
            await backend.connect(Ticket(address, table), "Ada")
        listing = TableListing(address, table, "", "timebomb", 5, 2, "waiting",
                               host_id=host.host_id)
        assert backend.needs_code(listing)
        backend.remember_code(address, host.table_code)
        connection = await backend.connect(Ticket(address, table), "Ada")
        assert connection.token is not None
        await connection.close()
    finally:
        await backend.close()
        await host.stop()


async def test_a_wrong_code_says_so_once_and_offers_to_type_it_again(app_factory, waiter,
                                                                     tmp_path):
    """Issue 35: the address said once, no chat box while nobody can hear it, and a choice:
    type the code again (then the table) or go back to the lobby."""
    from netplay.host import Host
    from tui.address import Address
    from tui.listing import Ticket
    from support.flows import question
    from tui.screens.play import PlayScreen

    host = Host(data_dir=tmp_path / "host")
    await host.start("127.0.0.1", 0)
    try:
        table = host.create_table("timebomb", 5, bots=3)
        address = Address("127.0.0.1", host.address[1])
        app = app_factory()
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            app.backend.remember_code(address, f"{(int(host.table_code) + 1) % 10 ** 8:08d}")
            app.lobby.go(Ticket(address, table))
            await waiter.until(pilot, lambda: question(app), "the offer")
            text = screen_text(app)
            assert "table code is wrong" in text and text.count(str(address)) == 1
            assert "type to chat" not in text
            await pilot.click(app.screen.choice_list, offset=(2, 0))  # Type the code again
            await waiter.until(pilot, lambda: isinstance(app.screen, PairingScreen), "the code")
            screen = app.screen
            await pilot.press(*host.table_code, "enter")
            await waiter.until(pilot, lambda: isinstance(app.screen, PlayScreen)
                               and app.screen.seat is not None, "the table, seated")
            assert app.screen is not screen
    finally:
        await host.stop()


async def test_the_code_prompt_names_the_table_it_is_for(app_factory):
    """Issue 42: "127.0.0.1:34819" alone did not say which table (or whose) asked."""
    from support.screen_text import screen_text

    from tui.screens.pairing import PairingScreen

    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(PairingScreen("127.0.0.1:34819", table="Baker Street", by="Ann"))
        await pilot.pause()
        text = " ".join(screen_text(app).replace("█", " ").replace("│", " ").split())
        assert "Table code for 127.0.0.1:34819 (Baker Street, hosted by Ann)" in text

"""The lobby's list: one row per table, addresses never cut."""

from __future__ import annotations

import contextlib

from screen_text import screen_text

from tui.address import Address
from tui.backend import TableListing
from tui.messages import TablesFound
from tui.widgets.table_list import TableList


@contextlib.asynccontextmanager
async def baker_street_host(tmp_path):
    """A host on loopback with one Time Bomb table, "Baker Street": the host and its port."""
    from netplay.host import Host

    host = Host(data_dir=tmp_path / "lan")
    _, port = await host.start("127.0.0.1", 0)
    host.create_table("timebomb", 5, {}, "Baker Street", bots=2)
    try:
        yield host, port
    finally:
        await host.stop()


async def test_one_row_per_table_whatever_the_address(app_factory, waiter, tmp_path):
    """The same host asked as `localhost` and as `127.0.0.1` lists its table once."""
    app = app_factory()
    async with baker_street_host(tmp_path) as (host, port):
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            tables = app.lobby.query_one(TableList)
            for typed in (f"localhost:{port}", f"127.0.0.1:{port}"):
                await pilot.press("a", *typed, "enter")
                await waiter.until(
                    pilot, lambda: any(s.startswith("address:") and typed in s
                                       for s in app.lobby.sources), f"the tables at {typed}"
                )
            assert tables.row_count == 1
            assert screen_text(app).count("Baker Street") == 1


async def test_rows_added_by_address_stay_current_and_go_with_their_host(
    app_factory, waiter, tmp_path, monkeypatch
):
    """A host added by address is asked again, as discovery would hear it: a new table shows,
    and once the host stops, its rows go."""
    monkeypatch.setattr("tui.screens.lobby.ADDRESS_REFRESH", 0.05)
    app = app_factory()
    async with baker_street_host(tmp_path) as (host, port):
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            tables = app.lobby.query_one(TableList)
            await pilot.press("a", *f"127.0.0.1:{port}", "enter")
            await waiter.until(pilot, lambda: tables.row_count == 1, "the first table")
            host.create_table("holmes", 2, {}, "Diogenes Club", bots=1)
            await waiter.until(pilot, lambda: tables.row_count == 2, "the new table")
            assert "Diogenes Club" in screen_text(app)
            await host.stop()
            await waiter.until(pilot, lambda: tables.row_count == 0, "the rows to go")
            assert "Baker Street" not in screen_text(app)


async def test_long_names_give_way_to_the_address(app_factory, waiter):
    """At 80 columns a long table name is shortened; the address keeps its port."""
    long_name = "The Adventure of the Long-Winded Table Name at Baker Street"
    listing = TableListing(
        Address("192.168.100.200", 65535), "t1", long_name, "holmes", 2, 1, "waiting",
        host_id="h1",
    )
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        app.lobby.post_message(TablesFound([listing], "lan"))
        await waiter.until(pilot, lambda: app.lobby.query_one(TableList).row_count, "the row")
        text = screen_text(app)
        assert "192.168.100.200:65535" in text
        assert "The Adventure" in text and long_name not in text
        row = next(line for line in text.splitlines() if "65535" in line)
        assert len(row.rstrip()) <= 80

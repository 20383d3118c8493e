"""The lobby's list: one row per table, addresses never cut."""

from __future__ import annotations

import contextlib
import re

from support.flows import SENTENCE, pair, question
from support.screen_text import footer_misses, screen_text

from tui.address import Address
from tui.listing import TableListing
from tui.messages import TablesFound
from tui.widgets.table_list import TableList


@contextlib.asynccontextmanager
async def baker_street_host(tmp_path):
    """A host on loopback with one Time Bomb table, "Baker Street": the host and its port."""
    from netplay.host import Host

    host = Host(data_dir=tmp_path / "lan")
    _, port = await host.start("127.0.0.1", 0)
    host.create_table("timebomb", 5, {}, "Baker Street", bots=2, start_when_full=True)
    try:
        yield host, port
    finally:
        await host.stop()


async def test_one_row_per_table_whatever_the_address(app_factory, waiter, tmp_path):
    """The same host asked as `localhost` and as `127.0.0.1` lists its table once."""
    app = app_factory()
    async with baker_street_host(tmp_path) as (host, port):
        pair(app.backend, host)
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            tables = app.lobby.query_one(TableList)
            for typed in (f"localhost:{port}", f"127.0.0.1:{port}"):
                await pilot.press("ctrl+o", *typed, "enter")
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
        pair(app.backend, host)
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            tables = app.lobby.query_one(TableList)
            await pilot.press("ctrl+o", *f"127.0.0.1:{port}", "enter")
            await waiter.until(pilot, lambda: tables.row_count == 1, "the first table")
            host.create_table("holmes", 2, {}, "Diogenes Club", bots=1, start_when_full=True)
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
        assert "The Advent" in text and long_name not in text
        row = next(line for line in text.splitlines() if "65535" in line)
        assert len(row.rstrip()) <= 80


async def test_every_game_is_told_apart_however_narrow_its_column(app_factory, waiter):
    """Issue 35: with long names, Évolution read `Time Bomb…` like Time Bomb; a game's short
    title takes the place of a title that does not fit."""
    from engine.catalogue import CATALOGUE

    name = "The Adventure of the Long-Winded Table Name"
    listings = [TableListing(Address("192.168.100.200", 60000 + i), f"t{i}", f"{name} {i}",
                             game_id, 5, 1, "waiting", host_id=f"h{i}")
                for i, game_id in enumerate(CATALOGUE)]
    for width in (80, 70):
        app = app_factory()
        async with app.run_test(size=(width, 24), message_hook=waiter.hook) as pilot:
            app.lobby.post_message(TablesFound(listings, "lan"))
            tables = app.lobby.query_one(TableList)
            await waiter.until(pilot, lambda: tables.row_count == len(listings), "the rows")
            games = [str(tables.get_row_at(row)[1]) for row in range(tables.row_count)]
            assert len(set(games)) == len(games), games
            assert all(g.startswith(CATALOGUE[t.game].short_title[:len(g) - 1])
                       for g, t in zip(games, sorted(listings, key=lambda t: t.name))), games


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


def table(name: str, free: int = 2, phase: str = "waiting", port: int = 7000, **kwargs):
    """A listed table named `name`, at a host of its own."""
    return TableListing(Address("192.168.1.20", port), name.lower(), name, "timebomb", 5, free,
                        phase, host_id=f"h-{name.lower()}", **kwargs)


async def show(app, pilot, waiter, *listings) -> TableList:
    """The lobby lists exactly `listings`, as discovery would tell it."""
    tables = app.lobby.query_one(TableList)
    app.lobby.post_message(TablesFound(list(listings), "lan"))
    keys = {t.key for t in listings}
    await waiter.until(pilot, lambda: set(tables.listings) == keys, "the list")
    await pilot.pause()
    return tables


async def test_the_cursor_stays_on_its_table_while_rows_come_go_and_change(app_factory, waiter):
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        tables = await show(app, pilot, waiter, table("Adler"), table("Carfax"))
        await pilot.press("down")
        assert tables.selected.name == "Carfax"
        # A table sorted above it comes, one changes: the cursor stays on Carfax.
        tables = await show(app, pilot, waiter, table("Adler"), table("Baker"),
                            table("Carfax", free=1))
        assert tables.selected.name == "Carfax" and tables.selected.seats_free == 1
        assert [t.name for t in tables.ordered] == ["Adler", "Baker", "Carfax"]
        # Home and End.
        await pilot.press("home")
        assert tables.selected.name == "Adler"
        await pilot.press("end")
        assert tables.selected.name == "Carfax"
        # The table under the cursor goes: the cursor moves to a neighbour, and says so.
        await show(app, pilot, waiter, table("Adler"), table("Baker"))
        assert tables.selected.name == "Baker"
        assert "Carfax is no longer listed: the cursor is on Baker now." in notices(app)


async def test_enter_joins_the_table_its_row_showed(app_factory, waiter, monkeypatch):
    """The Enter of a row names its table, not a place in the list: a row that moved joins the
    same table, and one that went explains why nothing happens."""
    from textual.widgets import DataTable
    from textual.widgets.data_table import RowKey

    opened = []
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        monkeypatch.setattr(app.lobby, "open_table",
                            lambda listing, spectate: opened.append((listing.name, spectate)))
        tables = await show(app, pilot, waiter, table("Adler"), table("Baker", free=0))
        await pilot.press("down", "enter")
        await waiter.until(pilot, lambda: opened, "a table opened")
        assert opened == [("Baker", True)]  # no free seat: watched
        # Enter pressed on Baker's row while a list without it was on its way.
        pressed = DataTable.RowSelected(tables, 1, RowKey(table("Baker").key))
        await show(app, pilot, waiter, table("Adler"))
        tables.post_message(pressed)
        await waiter.until(pilot, lambda: any("That table is no longer listed" in n
                                              for n in notices(app)), "the explanation")
        assert opened == [("Baker", True)]


async def test_rows_tell_who_sits_and_keep_every_address_whole_while_scrolling(
    app_factory, waiter
):
    many = [table(f"Table {i:02} of the Diogenes Club at Pall Mall", port=47300 + i,
                  people=3, bots=2) for i in range(30)]
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await show(app, pilot, waiter, *many)
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        assert "192.168.1.20:47329" in text
        rows = [line for line in text.splitlines() if "192.168.1.20:" in line]
        assert len(rows) > 5
        for line in rows:
            assert re.search(r"192\.168\.1\.20:473\d\d\b", line), line
            assert len(line.rstrip()) <= 80
            assert "3 + 2 bots" in line or "3 people, 2 bots" in line
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await show(app, pilot, waiter, table("Baker", people=3, bots=2))
        assert "3 people, 2 bots" in screen_text(app)


async def test_names_are_shown_as_typed_never_as_markup(app_factory, waiter):
    name = "[reverse]Les[/]trade [b]X"
    app = app_factory(name)
    async with app.run_test(size=(100, 24), message_hook=waiter.hook) as pilot:
        await show(app, pilot, waiter, TableListing(
            Address("10.0.0.2", 7001), "t1", name, "holmes", 2, 1, "waiting", host_id="hx"))
        text = screen_text(app)
        assert f"Playing as {name}" in text
        assert f" {name} " in text


async def test_ctrl_c_asks_before_quitting(app_factory, waiter):
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is app.lobby and app.is_running  # a letter quits nothing
        await pilot.press("ctrl+c")
        await waiter.until(pilot, lambda: question(app), "the question")
        assert "Quit Gaslight?" in screen_text(app)
        await pilot.press("escape")
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby again")
        assert app.is_running


async def test_a_sentence_typed_in_the_lobby_changes_nothing(app_factory, waiter):
    """No dialog opens, no table is joined, watched, hosted or let go: letters do nothing, and
    the Enter that ends the sentence joins nothing. `?` lists the lobby's keys."""
    from tui.screens.keys import KeysScreen

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await show(app, pilot, waiter, table("Adler", held=True), table("Carfax"))
        opened = []
        app.lobby.open_table = lambda listing, spectate: opened.append(listing)
        await pilot.press(*SENTENCE.replace("?", ""), "enter")
        await pilot.pause()
        assert app.screen is app.lobby and opened == [] and app.is_running
        assert any("press Enter again to join" in n for n in notices(app))
        await pilot.press("enter")  # a deliberate Enter still joins
        assert [t.name for t in opened] == ["Adler"]
        await pilot.press("question_mark")
        await waiter.until(pilot, lambda: isinstance(app.screen, KeysScreen), "the keys")
        listed = dict(app.screen.keys)
        for key in ("g", "n", "o", "w"):  # each on a Ctrl key, listed with what it does
            assert any(k.lower() in (f"^{key}", f"ctrl+{key}") for k in listed), (key, listed)


def test_a_tables_options_that_differ_from_its_games_are_named_before_joining():
    """The `tables` entry's options (or the TXT record's `opts`), in the lobby's words: only
    those a joiner would not expect (PROTOCOL.md, "Starting a table")."""
    from tui.address import Address
    from tui.listing import TableListing

    entry = {"id": "t1", "name": "Ann's table", "game": "timebomb_evolution", "players": 5,
             "seats_free": 2, "phase": "waiting",
             "options": {"variante": True, "claims": True, "first_player": "random",
                         "colours": "random"}}
    listing = TableListing.from_message(Address("127.0.0.1", 1), entry, "lan")
    assert listing.options == "Variante: yes"
    plain = TableListing.from_message(Address("127.0.0.1", 1), {**entry, "options": {}}, "lan")
    assert plain.options == ""


async def test_the_footer_is_whole_at_80_columns_with_every_key_on_offer(app_factory, waiter):
    """Issue 35: the lobby's footer was cut at 80 columns (`? Ke▏^p palette`); with a held
    table highlighted it offers the most keys."""
    from tui.seat_book import HeldSeat

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        assert footer_misses(app) == []
        adler = table("Adler")
        app.backend.seats.keep(HeldSeat(adler.host_id, adler.id, "token", adler.address))
        tables = await show(app, pilot, waiter, adler)
        tables.move_cursor(row=0)
        await waiter.until(pilot, lambda: app.lobby.check_action("let_go", ()), "a held row")
        await pilot.pause()
        assert "Let go" in screen_text(app).splitlines()[-1]
        assert footer_misses(app) == []


async def test_the_lobby_stays_out_of_a_game_and_asks_before_joining_a_table_not_chosen(
        app_factory, waiter):
    """Issue 42: the table under the cursor goes while the person is elsewhere (a screen over
    the lobby): no notice covers what they look at, and back at the lobby the first Enter
    says the cursor moved by itself instead of joining a table they never chose."""
    from tui.screens.keys import KeysScreen

    opened = []
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        app.lobby.open_table = lambda listing, spectate: opened.append(listing.name)
        tables = await show(app, pilot, waiter, table("Adler"), table("Baker"), table("Carfax"))
        await pilot.press("down")
        assert tables.selected.name == "Baker"
        await app.push_screen(KeysScreen([]))
        await show(app, pilot, waiter, table("Adler"), table("Carfax"))
        assert not [n for n in notices(app) if "no longer listed" in n]
        app.screen.dismiss(None)
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby again")
        assert tables.selected.name == "Carfax"
        await pilot.press("enter")
        await pilot.pause()
        assert opened == [] and any("The table you chose is gone" in n for n in notices(app))
        await pilot.press("enter")
        await waiter.until(pilot, lambda: opened, "joined")
        assert opened == ["Carfax"]


def drawn_rows(monkeypatch) -> list[str]:
    """The tables whose rows DataTable draws from now on (by key), each time it draws one."""
    from textual.widgets import DataTable

    drawn: list[str] = []
    draw = DataTable._render_line_in_row

    def recorded(table_list, row_key, *args, **kwargs):
        drawn.append(row_key.value)
        return draw(table_list, row_key, *args, **kwargs)

    monkeypatch.setattr(DataTable, "_render_line_in_row", recorded)
    return drawn


async def test_a_row_that_changed_is_drawn_again_alone(app_factory, waiter, monkeypatch):
    """Issue 42: every change drew every row on screen again (40-50 ms a list under churn).
    A table's row changes in place: its cells alone are replaced, it alone is drawn again,
    and the cursor stays where it was."""
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        tables = await show(app, pilot, waiter, table("Adler"), table("Baker"), table("Carfax"))
        await pilot.press("down")
        screen_text(app)
        cells = {t.key: tables.get_row(t.key) for t in (table("Adler"), table("Baker"))}
        drawn = drawn_rows(monkeypatch)
        await show(app, pilot, waiter, table("Adler"), table("Baker"), table("Carfax", free=1))
        carfax = next(line for line in screen_text(app).splitlines() if "Carfax" in line)
        assert "1/5" in carfax
        assert set(drawn) == {table("Carfax").key}
        for key, row in cells.items():  # the same cells, never added again
            assert all(new is old for new, old in zip(tables.get_row(key), row, strict=True))
        assert tables.selected.name == "Baker"


async def test_rows_come_and_go_in_their_place_and_a_click_takes_the_row_under_it(
        app_factory, waiter, monkeypatch):
    """A table that comes takes its place in the order, the rows above it are not drawn
    again, and the cursor stays on its table; rows that only moved keep their lines, and a
    click (or a tap) on one still chooses that row's table, not the one at its old place."""
    after = ("Carfax", "Dover", "Eton", "Fleet")
    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        tables = await show(app, pilot, waiter, *map(table, ("Adler", *after)))
        await pilot.press("down")
        screen_text(app)
        drawn = drawn_rows(monkeypatch)
        await show(app, pilot, waiter, *map(table, ("Adler", "Baker", *after)))
        assert "Baker" in screen_text(app)
        assert [t.name for t in tables.ordered] == ["Adler", "Baker", *after]
        assert tables.selected.name == "Carfax"
        assert table("Adler").key not in drawn
        # Two rows above go: the others move up two places, their stripes unchanged.
        drawn.clear()
        await show(app, pilot, waiter, *map(table, after))
        assert "Adler" not in screen_text(app)
        assert drawn == []
        assert tables.selected.name == "Carfax"
        header, border = 1, 1
        await pilot.click(TableList, offset=(4, border + header + 1))
        assert tables.selected.name == "Dover"  # drawn at Fleet's place now

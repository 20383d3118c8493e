"""The lobby's past games (Ctrl+Y): the games this player was at, kept as replay files when
they end, and those their seats played at a host that runs, asked with the seat book's tokens
(and kept as files as they are found); Enter opens one in the replay screen."""

from __future__ import annotations

import asyncio

from support.relays import MachineInTheMiddle
from support.waiting import until_shown

from netplay import replay_file
from netplay.client import Connection
from netplay.transport import HostKey
from tui.address import Address
from tui.app import create_app
from tui.backend import Backend
from tui.listing import Ticket
from tui.played_games import played_book
from tui.screens.past_games import PastGamesScreen
from tui.screens.replay import ReplayScreen, ReplaySource
from tui.seat_book import HeldSeat
from tui.widgets.event_log import EventLog

from .conftest import play_game, play_seat
from .test_screen import bots_game


async def test_games_against_bots_are_kept_as_files_when_they_end(tmp_path):
    """The app's own host gives the records of its game against bots at once: the host goes
    when the player leaves."""
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data", bot_delay=0,
                      seed=3, discover=False)
    try:
        ticket = await backend.play_bots("Ann", "holmes", 2)
        conn = await Connection.connect(ticket.address.host, ticket.address.port, name="Ann",
                                        table=ticket.table, **backend.trust(ticket.address))
        await asyncio.wait_for(play_seat(conn, [], 1), 60)
        backend.keep_game(ticket, conn)
        [path] = backend.replays_folder().glob("*.gaslight-replay")
        record = replay_file.read(path)
        assert record.kind == "holmes" and [p.kind for p in record.seats] == ["human", "bot"]
        written = path.stat().st_mtime_ns
        backend.keep_game(ticket, conn)  # kept once
        assert [p.stat().st_mtime_ns for p in backend.replays_folder().iterdir()] == [written]
        await conn.close()
    finally:
        await backend.close()


async def test_the_lobby_lists_past_games_from_hosts_and_files_and_opens_one(host, tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    played = await play_game(host, "timebomb", 4, 1, seed=21)
    seat = played.people[0]
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "app", discover=False)
    address = Address("127.0.0.1", host.address[1])
    backend.remember_code(address, host.table_code)  # as if its player had typed it
    # The seat book lets go of a finished table's seat; the played book keeps its token.
    played_book(backend).keep(HeldSeat(host.host_id, played.table, seat.token, address,
                                       "timebomb", "table"))
    file_game = bots_game("machinations", 5, seed=6)
    replay_file.save(backend.replays_folder() / "kept.gaslight-replay", file_game.entries())
    await played.close()
    app = create_app(backend, player_name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+y")
        await until_shown(pilot, lambda: isinstance(app.screen, PastGamesScreen), "past games")
        screen = app.screen
        await until_shown(pilot, lambda: len(screen.games) == 2, "both games")
        sources = {g.kind: g for g in screen.games}
        # The host's game, asked with the token, was kept as a file as it was found.
        assert sources["timebomb"].path is not None and sources["timebomb"].address is None
        assert sources["machinations"].path is not None
        # Each opens through the eyes of the seat this player played (issue 35).
        assert sources["timebomb"].seat == seat.seat and sources["machinations"].seat == 0
        index = screen.games.index(sources["timebomb"])
        screen.query_one("#past-list").highlighted = index
        await pilot.press("enter")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        await until_shown(pilot, lambda: replay.drawn == (0, seat.seat),
                          "the deal, through my seat")
        assert replay.game == f"{played.table}-1"
        await pilot.press("escape")
        await until_shown(pilot, lambda: app.screen is screen, "back to the list")
        screen.query_one("#past-list").highlighted = screen.games.index(sources["machinations"])
        await pilot.press("enter")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the file's replay")
        await until_shown(pilot, lambda: app.screen.drawn == (0, 0), "its deal, through Ann's eyes")
        assert app.screen.game == file_game.game
        await pilot.press("escape")


async def test_a_seat_played_to_the_end_is_remembered_with_its_token(host, tmp_path):
    from tui.listing import Ticket
    from tui.played_games import remember_played

    played = await play_game(host, "timebomb", 4, 1, seed=22)
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "app", discover=False)
    address = Address("127.0.0.1", host.address[1])
    try:
        seat = played.people[0]
        remember_played(backend, Ticket(address, played.table), seat)
        remember_played(backend, Ticket(address, played.table, spectate=True), played.spectator)
        [kept] = played_book(backend).all()
        assert (kept.host_id, kept.table, kept.token) == (host.host_id, played.table, seat.token)
        mode = (played_book(backend).path.stat().st_mode & 0o777)
        assert mode == 0o600
    finally:
        await played.close()


async def test_past_games_at_a_machine_in_the_middle_hear_no_token(host, tmp_path):
    """The address where a seat's host was seen answers with another key, and the player
    typed the code for it (which whoever saw the host's screen knows): the list asks nothing
    there, and watching the game again says the key changed, before the token is sent."""
    played = await play_game(host, "timebomb", 4, 1, seed=21)
    seat = played.people[0]
    token, fingerprint = seat.token, seat.fingerprint
    await played.close()
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "app", discover=False)
    mitm = MachineInTheMiddle(HostKey(tmp_path / "mitm.pem"), host.address[1])
    app = create_app(backend, player_name="Ann")
    async with mitm as port, app.run_test(size=(80, 24)) as pilot:
        address = Address("127.0.0.1", port)
        backend.remember_code(address, host.table_code)
        assert await backend.past_games_at(address, [token], "Ann", fingerprint) == []
        source = ReplaySource(Ticket(address, None, spectate=True), game=f"{played.table}-1",
                              token=token, fingerprint=fingerprint)
        await app.push_screen(ReplayScreen(backend, source, "Ann"))
        replay = app.screen
        await until_shown(pilot, lambda: replay.status == "closed", "the replay to stop")
        told = " ".join(e for e in replay.query_one(EventLog).entries if isinstance(e, str))
    assert "has changed its key" in told, told
    assert mitm.heard_any(token, "Ann", played.table) == []

"""Finished games through the TUI's door (issue 36): netplay lists a folder's replay files as a
host lists its games, and the backend lists past games at hosts and in files, opens a file in
a host of its own, watches it, and saves a fetched record, all over real sockets on 127.0.0.1.
The TUI gets plain entries and connections: it never plays a record through the engine."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

import msgpack
import pytest

from support.bot_games import bots_play

from netplay import replay_file
from netplay.client import Connection
from netplay.game_record import GameRecord, Move, Player, Said
from netplay.protocol import EYES_ALL, EYES_SPECTATOR
from netplay.replay_file import ReplayHost, folder_listing
from netplay.table import game_ref
from tui.address import Address
from tui.backend import Backend
from tui.past_games import SPECTATOR, OpenedReplay, PastGame, ReplayFileFailed

from .conftest import fetch_entries, listing, play_game, step

START = 1_800_000_000.0


def finished(kind: str, players: int, seed: int, people: tuple[int, ...] = (0,),
             start: float = START, name: str = "Baker Street",
             persons: dict[int, str] | None = None) -> GameRecord:
    """A finished game of bots as a replay file holds it; the seats in `people` are persons,
    those in `persons` with the id their app proved."""
    game, played = bots_play(kind, players, seed)
    moves = [Move(seat, action, start + n + 1, "person" if seat in people else "bot")
             for n, (seat, action) in enumerate(played)]
    table = f"{seed:08x}"
    return GameRecord(
        game=f"{table}-1", table=table, name=name, kind=kind, players=players,
        options=dict(game.options), seed=seed, bot_level="smart", turn_timer=0,
        started=start, moves=moves,
        seats=[Player(f"P{s}", "human", (persons or {}).get(s)) if s in people
               else Player(f"Bot {s}", "bot") for s in range(players)],
        chat=[Said(1, people[0] if people else None, "Ann", "well played", start + 1)])


def kept(folder, record: GameRecord, file: str, mtime: float):
    path = replay_file.save(folder / file, record.entries())
    os.utime(path, (mtime, mtime))
    return path


def backend_at(tmp_path) -> Backend:
    return Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "app", bot_delay=0,
                   discover=False)


def free_port() -> int:
    """A port nothing listens on: a host that is gone."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------------------------
# netplay: a folder's files, listed as a host lists its games


async def test_a_folder_lists_its_files_as_a_host_lists_its_games(tmp_path):
    folder = tmp_path / "replays"
    folder.mkdir()
    old = finished("machinations", 5, seed=6, people=(2,), start=START)
    new = finished("holmes", 2, seed=7, people=(0, 1), start=START + 10_000)
    old_path = kept(folder, old, "old.gaslight-replay", START + 100)
    new_path = kept(folder, new, "new.gaslight-replay", START + 20_000)
    # A damaged file, newer than both, and a file edited by hand, older: a line each, in
    # their place by the file's time, saying what is wrong.
    damaged = folder / "damaged.gaslight-replay"
    damaged.write_bytes(b"\x93not a replay at all")
    os.utime(damaged, (START + 30_000, START + 30_000))
    body = msgpack.unpackb(replay_file.dump(old.entries()), raw=False)
    body["entries"][0] = {**body["entries"][0], "name": "Forged"}
    edited = folder / "edited.gaslight-replay"
    edited.write_bytes(msgpack.packb(body))
    os.utime(edited, (START + 50, START + 50))
    (folder / "notes.txt").write_text("not a replay file")

    lines = folder_listing(folder)

    assert [g["path"] for g in lines] == [str(damaged), str(new_path), str(old_path),
                                          str(edited)]
    assert "not a Gaslight replay file" in lines[0]["damaged"]
    assert "digest does not match" in lines[3]["damaged"]
    assert lines[0]["ended"] == START + 30_000
    listed = lines[1:3]
    assert [g["game"] for g in listed] == [new.game, old.game]  # newest first
    # The one person of a game against bots is this player: their seat. Two persons: none.
    assert [g["seat"] for g in listed] == [None, 2]
    assert listed[1]["kind"] == "machinations" and listed[1]["players"] == 5
    assert listed[1]["ended"] == old.moves[-1].time
    assert listed[1]["seats"][2] == {"name": "P2", "kind": "human"}
    assert listed[1]["result"] and listed[0]["result"]
    # The very entry a replay host gives for the same game, plus `seat` and `path`.
    for record, entry in ((old, listed[1]), (new, listed[0])):
        host = ReplayHost(record)
        address = await host.start()
        try:
            conn = await Connection.connect(*address, name="Me", code=host.host.table_code)
            [hosted] = await listing(conn)
            await conn.close()
        finally:
            await host.stop()
        assert {k: v for k, v in entry.items() if k not in ("seat", "path")} == hosted
    # At most `limit`, the newest files read.
    assert [g["path"] for g in folder_listing(folder, limit=2)] == [str(damaged),
                                                                    str(new_path)]
    assert folder_listing(tmp_path / "nowhere") == []


# ---------------------------------------------------------------------------------------------
# The backend: replay files


async def test_replay_files_are_past_games_with_their_path_and_eyes(tmp_path):
    backend = backend_at(tmp_path)
    folder = backend.replays_folder()
    one = finished("timebomb", 4, seed=11, people=(1,), start=START)
    two = finished("holmes", 2, seed=12, people=(0, 1), start=START + 5_000)
    kept(folder, one, "one.gaslight-replay", START + 10)
    kept(folder, two, "two.gaslight-replay", START + 6_000)
    bad = folder / "bad.gaslight-replay"
    bad.write_bytes(b"nothing")
    os.utime(bad, (START + 20, START + 20))

    games = await backend.replay_files()

    assert [g.game for g in games] == [two.game, "", one.game]
    holmes, damaged, timebomb = games
    # A damaged file costs one line, never the list; opening it says why again.
    assert damaged.path == bad and "not a Gaslight replay file" in damaged.damaged
    assert damaged.line() == ("bad.gaslight-replay cannot be shown: it is not a Gaslight "
                              "replay file (not msgpack), or it is damaged (file)")
    with pytest.raises(ReplayFileFailed, match="not a Gaslight replay file"):
        await backend.open_replay_file(bad)
    assert timebomb == PastGame(
        kind="timebomb", name="Baker Street", players=4, ended=one.moves[-1].time,
        result=timebomb.result, game=one.game, path=folder / "one.gaslight-replay", seat=1)
    assert timebomb.result and timebomb.eyes == 1
    assert holmes.seat is None and holmes.eyes == SPECTATOR == EYES_SPECTATOR
    assert timebomb.address is None and timebomb.token is None
    assert timebomb.line().endswith(f"Time Bomb · Baker Street · 4p · {timebomb.result} (file)")
    assert [g.game for g in await backend.replay_files(limit=1)] == [two.game]


async def test_a_kept_file_starts_through_the_eyes_of_the_person_who_kept_it(tmp_path):
    """A game of several people, each named by the id their app proved: the file opens
    through the seat of the person whose app lists it, and a spectator's through nobody's."""
    backend = backend_at(tmp_path)
    folder = backend.replays_folder()
    me, friend = backend.person.id, "f" * 32
    kept(folder, finished("timebomb", 4, seed=13, people=(1, 2),
                          persons={1: friend, 2: me}), "mine.gaslight-replay", START)
    kept(folder, finished("holmes", 2, seed=14, people=(0, 1),
                          persons={0: friend, 1: "e" * 32}), "watched.gaslight-replay",
         START + 10)
    watched, mine = await backend.replay_files()
    assert mine.seat == 2 and watched.seat is None and watched.eyes == SPECTATOR


# ---------------------------------------------------------------------------------------------
# The backend: past games at a host


async def test_past_games_at_a_host_are_kept_and_listed_as_files(host, tmp_path, monkeypatch):
    """A game a seat played, missed at its end: asking its host keeps it as a file, listed
    with the files from then on; one that could not be kept is listed from the host, with the
    token that may watch it."""
    played = await play_game(host, "timebomb", 4, 1, seed=21)
    seat = played.people[0]
    token, fingerprint, seat_number = seat.token, seat.fingerprint, seat.seat
    await played.close()
    backend = backend_at(tmp_path)
    address = Address("127.0.0.1", host.address[1])
    backend.remember_code(address, host.table_code)  # as if its player had typed it

    assert await backend.past_games_at(address, ["not-a-token", token], "Ann",
                                       fingerprint) == []
    [kept_game] = await backend.replay_files()
    assert kept_game.game == game_ref(played.table, 1) and kept_game.path is not None
    assert kept_game.seat == seat_number  # its one person, named by no id, is this player
    assert kept_game.path.stat().st_mode & 0o777 == 0o600
    assert backend.replays_folder().stat().st_mode & 0o777 == 0o700

    kept_game.path.unlink()
    monkeypatch.setattr(backend, "_keep_entries", lambda records: (_ for _ in ()).throw(
        OSError("no room left")))
    [game] = await backend.past_games_at(address, ["not-a-token", token], "Ann", fingerprint)

    assert game.game == game_ref(played.table, 1)
    assert (game.kind, game.players, game.name) == ("timebomb", 4, host.tables[played.table].name)
    assert (game.address, game.token, game.fingerprint) == (address, token, fingerprint)
    assert game.seat == seat_number and game.eyes == seat_number
    assert game.path is None and isinstance(game.ended, float) and game.result
    assert str(address) in game.line()
    # A token that played nothing here lists nothing; so do a host that is gone and one
    # whose key is not the one expected.
    assert await backend.past_games_at(address, ["not-a-token"], "Ann", fingerprint) == []
    gone = Address("127.0.0.1", free_port())
    assert await backend.past_games_at(gone, [token], "Ann", fingerprint) == []
    assert await backend.past_games_at(address, [token], "Ann", "ab" * 32) == []


# ---------------------------------------------------------------------------------------------
# The backend: a replay file opened, watched and closed


async def test_past_games_are_the_kept_files_and_the_games_of_the_seats_played(host, tmp_path):
    """The one call of the lobby's past games: a seat played to an end at a host that runs,
    its game kept as a file as it is found, beside the files kept already, newest first."""
    from tui.played_games import played_book
    from tui.seat_book import HeldSeat

    played = await play_game(host, "timebomb", 4, 1, seed=23)
    seat = played.people[0]
    await played.close()
    backend = backend_at(tmp_path)
    address = Address("127.0.0.1", host.address[1])
    backend.remember_code(address, host.table_code)
    played_book(backend).keep(HeldSeat(host.host_id, played.table, seat.token, address,
                                       "timebomb", "table", fingerprint=seat.fingerprint))
    old = finished("holmes", 2, seed=24, start=START - 10 ** 8)  # ended before today
    kept(backend.replays_folder(), old, "old.gaslight-replay", START - 10 ** 8)

    games = await backend.past_games("Ann")

    assert [g.game for g in games] == [game_ref(played.table, 1), old.game]
    assert all(g.path is not None for g in games)
    assert games[0].seat == seat.seat


async def test_a_replay_file_opens_in_a_host_of_its_own_and_is_watched(tmp_path):
    backend = backend_at(tmp_path)
    record = finished("holmes", 2, seed=31)
    path = kept(backend.replays_folder(), record, "holmes.gaslight-replay", START)

    opened = await backend.open_replay_file(path)

    assert isinstance(opened, OpenedReplay) and opened.game == record.game
    ticket = opened.ticket
    assert (ticket.address.host, ticket.table, ticket.spectate) == ("127.0.0.1", None, True)
    assert ticket.address in backend.codes  # it pairs silently
    conn = await backend.watch(ticket.address, None, "")
    try:
        first = await step(conn, opened.game, 0, 0)
        assert (first.step, first.steps, first.eyes) == (0, len(record.moves), 0)
        assert first.about["name"] == "Baker Street" and first.moved is None
        last = await step(conn, opened.game, EYES_ALL, len(record.moves))
        assert last.view["outcome"] is not None
        assert last.chat[0]["text"] == "well played"
        assert await fetch_entries(conn, opened.game) == record.entries()
    finally:
        await conn.close()
    await opened.close()
    assert ticket.address not in backend.codes and backend.replay_hosts == []
    with pytest.raises(OSError):
        await Connection.connect(ticket.address.host, ticket.address.port, name="Ann",
                                 reconnect=False)
    await opened.close()  # twice: nothing more to do


async def test_a_record_opens_too_and_quitting_stops_its_host(tmp_path):
    backend = backend_at(tmp_path)
    record = finished("timebomb", 5, seed=32)
    opened = await backend.open_replay_file(record)
    assert len(backend.replay_hosts) == 1
    conn = await backend.watch(opened.ticket.address, None, "Ann")
    assert (await step(conn, record.game, EYES_SPECTATOR, 3)).step == 3
    await conn.close()
    await backend.close()
    assert backend.replay_hosts == []
    with pytest.raises(OSError):
        await Connection.connect(opened.ticket.address.host, opened.ticket.address.port,
                                 name="Ann", reconnect=False)


async def test_a_damaged_file_is_one_clear_error(tmp_path):
    backend = backend_at(tmp_path)
    folder = backend.replays_folder()
    (folder / "bad.gaslight-replay").write_bytes(b"\x93 damaged")
    with pytest.raises(ReplayFileFailed) as caught:
        await backend.open_replay_file(folder / "bad.gaslight-replay")
    assert str(caught.value) == ("Cannot open bad.gaslight-replay: it is not a Gaslight replay "
                                 "file (not msgpack), or it is damaged.")

    body = msgpack.unpackb(replay_file.dump(finished("holmes", 2, 33).entries()), raw=False)
    body["entries"][0] = {**body["entries"][0], "name": "Forged"}
    (folder / "edited.gaslight-replay").write_bytes(msgpack.packb(body))
    with pytest.raises(ReplayFileFailed, match=r"^Cannot open edited\.gaslight-replay: it is "
                                               r"damaged or was edited"):
        await backend.open_replay_file(str(folder / "edited.gaslight-replay"))

    with pytest.raises(ReplayFileFailed, match=r"^Cannot open missing\.gaslight-replay: "
                                               r"cannot read .*missing"):
        await backend.open_replay_file(folder / "missing.gaslight-replay")

    unfinished = finished("holmes", 2, 34)
    unfinished.moves = unfinished.moves[:3]
    with pytest.raises(ReplayFileFailed, match=r"^Cannot open the replay: .*end"):
        await backend.open_replay_file(unfinished)
    assert backend.replay_hosts == [] and backend.codes == {}


# ---------------------------------------------------------------------------------------------
# The backend: a fetched record saved


async def test_a_record_fetched_from_its_host_is_saved_and_listed(host, tmp_path):
    played = await play_game(host, "holmes", 2, 1, seed=41)
    seat = played.people[0]
    game = game_ref(played.table, 1)
    entries = await fetch_entries(seat, game)
    deal = (await step(seat, game, EYES_ALL, 5)).view
    await played.close()
    backend = backend_at(tmp_path)

    path = backend.save_replay(entries)

    assert path.parent == backend.replays_folder()
    assert path.name == replay_file.file_name(replay_file.read(path))
    assert replay_file.read(path).entries() == entries
    [listed] = await backend.replay_files()
    assert (listed.game, listed.path, listed.seat) == (game, path, seat.seat)
    # Opened again, it shows what its host showed.
    opened = await backend.open_replay_file(listed.path)
    conn = await backend.watch(opened.ticket.address, None, "Ann")
    try:
        assert (await step(conn, game, EYES_ALL, 5)).view == deal
    finally:
        await conn.close()
        await opened.close()

    with pytest.raises(ReplayFileFailed, match=r"^Could not save the replay: it does not hold "
                                               r"a finished game"):
        backend.save_replay(entries[:-3])
    with pytest.raises(ReplayFileFailed, match=r"^Could not save the replay: it does not hold "
                                               r"a game Gaslight can replay"):
        backend.save_replay([{"what": "nothing"}])


# ---------------------------------------------------------------------------------------------
# The layers


def test_the_door_to_past_games_loads_no_game_and_no_textual():
    """Listing past games and lines loads the engine's catalogue only; the replay door itself
    loads netplay on first use."""
    script = textwrap.dedent("""
        import sys
        import tui.backend, tui.replaying
        from tui.past_games import PastGame
        game = PastGame.of({"kind": "holmes", "name": "x", "players": 2, "ended": 1.0,
                            "result": "won", "game": "t-1", "seat": 1, "path": "/x"})
        game.line(), game.eyes
        print(" ".join(sorted(m for m in sys.modules
                              if m.startswith(("netplay", "textual", "engine.")))))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)
    loaded = out.stdout.split()
    assert "engine.catalogue" in loaded
    assert [m for m in loaded if not m.startswith("engine.")] == []
    assert [m for m in loaded if m.split(".")[-1] in ("game", "bots", "registry")] == []

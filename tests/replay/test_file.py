"""Replay files: a finished game fetched from its host, kept in a file and opened by a replay
host shows the same steps; a file from a newer Gaslight, a damaged one, a hand-edited one and
one whose moves the engine refuses are each refused with a clear message."""

from __future__ import annotations

import hashlib

import msgpack
import pytest

from netplay import replay_file
from netplay.client import Connection, HostRefused
from netplay.protocol import Sit
from netplay.replay_file import ReplayFileError, ReplayHost, canonical
from netplay.table import game_ref

from .conftest import fetch_entries, listing, play_game, refusal, step


@pytest.fixture
async def entries(host):
    played = await play_game(host, "holmes", 2, 1, seed=99)
    seat = played.people[0]
    game = game_ref(played.table, 1)
    got = await fetch_entries(seat, game)
    views = {number: (await step(seat, game, "all", number)).view for number in (0, 5, 40)}
    await played.close()
    return got, views


def resealed(body: dict) -> bytes:
    """A file whose digest was made again after an edit: what a careful forger writes."""
    body = {k: v for k, v in body.items() if k != "digest"}
    return msgpack.packb({**body, "digest": hashlib.sha256(canonical(body)).hexdigest()})


async def test_a_file_round_trip_shows_the_same_game(entries, tmp_path):
    got, views = entries
    path = replay_file.save(tmp_path / "game.gaslight-replay", got)
    record = replay_file.read(path)
    assert record.entries() == got
    replay_host = ReplayHost(record)
    address = await replay_host.start()
    try:
        code = replay_host.host.table_code
        conn = await Connection.connect(*address, name="Me", code=code)
        [listed] = await listing(conn)
        assert listed["game"] == record.game
        for number, view in views.items():
            # The same steps, and a fresh connection on the original host saw the same.
            shown = await step(conn, record.game, "all", number)
            assert shown.view == view
        # It is a replay and nothing else: no tables, no seats.
        await conn.send(Sit(table="x"))
        assert "only shows a replay" in await refusal(conn)
        with pytest.raises(HostRefused):
            await Connection.connect(*address, name="Me", table="x", code=code)
        await conn.close()
    finally:
        await replay_host.stop()


async def test_damaged_newer_and_edited_files_are_refused(entries, tmp_path):
    got, _ = entries
    good = replay_file.dump(got)
    body = msgpack.unpackb(good)
    newer = dict(body, version=replay_file.VERSION + 1)
    renamed = [dict(e, name="Mallory") if e["e"] == "seat" else e for e in got]
    moves = [i for i, e in enumerate(got) if e["e"] == "act"]
    swapped = list(got)
    swapped[moves[3]], swapped[moves[4]] = swapped[moves[4]], swapped[moves[3]]
    cut = [e for i, e in enumerate(got) if i != moves[-1]]
    cases = {
        b"": "not a Gaslight replay file",
        good[:-7]: "not a Gaslight replay file",
        b"\x93\x01\x02\x03": "not a Gaslight replay file",
        msgpack.packb({"format": "something else"}): "not a Gaslight replay file",
        msgpack.packb(newer): "made by a newer Gaslight",
        msgpack.packb(dict(body, entries=renamed)): "digest does not match",
        msgpack.packb(dict(body, extra=1)): "does not hold what a replay file holds",
        resealed(dict(body, entries=swapped)): "the engine refuses move",
        resealed(dict(body, entries=cut)): "not hold a finished game",
        resealed(dict(body, entries=[{"e": "game"}])): r"entry 0 \(game\) has the wrong fields",
        resealed(dict(body, entries=got + [{"e": "act", "seat": 9, "action": {},
                                             "time": None, "by": "bot"}])): "names seat 9",
    }
    for data, message in cases.items():
        path = tmp_path / "bad.gaslight-replay"
        path.write_bytes(data)
        with pytest.raises(ReplayFileError, match=message):
            replay_file.read(path)
    with pytest.raises(ReplayFileError, match="cannot read"):
        replay_file.read(tmp_path / "missing.gaslight-replay")
    # A renamed seat, resealed, is still a game the engine plays: shown as what it says.
    assert replay_file.load(resealed(dict(body, entries=renamed))).seats[0].name == "Mallory"


async def test_a_file_of_version_1_still_opens(host, tmp_path):
    """A version 1 file names nobody's person (its seats say name and kind only), and one of
    protocol 3 calls Évolution `timebomb-evolution`: it opens, under the one id, its seats
    naming no person."""
    played = await play_game(host, "timebomb_evolution", 4, 1, seed=5)
    got = await fetch_entries(played.people[0], game_ref(played.table, 1))
    await played.close()
    without_persons = [{k: v for k, v in e.items() if not (e["e"] == "seat" and k == "person")}
                       for e in got]
    old = [{**got[0], "kind": "timebomb-evolution"}, *without_persons[1:]]
    path = tmp_path / "old.gaslight-replay"
    path.write_bytes(resealed({"format": "gaslight-replay", "version": 1, "entries": old}))
    record = replay_file.read(path)
    assert record.kind == "timebomb_evolution"
    assert record.entries() == got
    assert all(player.person is None for player in record.seats)

"""Journals: owner-only files, token hashes only, one fsync per record, torn tails dropped with
a warning, damage reported by table while the other tables load."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import stat

import engine
from netplay import journal as journals
from netplay.client import Connection
from netplay.host import Host
from netplay.tables import restore_table

from .conftest import TIMEOUT, next_of


async def journaled_game(data_dir, actions=4):
    """A host with one table where 2 clients sit beside 2 bots and `actions` cuts are made;
    returns the stopped host's table facts and the clients' tokens."""
    host = Host(data_dir=data_dir, bot_delay=0.001)
    await host.start()
    table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2, seed=99)
    ann = await Connection.connect("127.0.0.1", host.address[1], name="Ann", table=table_id)
    bob = await Connection.connect("127.0.0.1", host.address[1], name="Bob", table=table_id)
    game = host.tables[table_id].game
    while len(game.history) < actions and game.outcome is None:
        for conn in (ann, bob):
            if conn.seat in game.to_act():
                target = next(a["target"] for a in game.legal_actions(conn.seat)
                              if a["type"] == "cut")
                await conn.act({"type": "cut", "target": target})
        await asyncio.sleep(0.01)
    history = list(game.history)
    tokens = [ann.token, bob.token]
    await ann.close()
    await bob.close()
    await host.stop()
    return table_id, history, tokens


async def test_journal_is_owner_only_and_holds_token_hashes_not_tokens(tmp_path):
    loose = tmp_path / "data"
    loose.mkdir(mode=0o755)
    loose.chmod(0o755)
    table_id, history, tokens = await journaled_game(loose)
    path = loose / "tables" / f"{table_id}.journal"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((loose / "tables").stat().st_mode) == 0o700
    assert stat.S_IMODE(loose.stat().st_mode) == 0o700
    data = path.read_bytes()
    for token in tokens:
        assert token.encode() not in data
        assert hashlib.sha256(token.encode()).hexdigest().encode() in data
    records = journals.read_journal(path).records
    assert [r["t"] for r in records if r["t"] == "act"] == ["act"] * len(history)


async def test_every_record_is_fsynced_as_it_is_written(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    directory = journals.tables_dir(tmp_path)
    journal = journals.Journal.create(directory, "abcd1234")
    before = len(synced)
    for i in range(3):
        journal.append({"t": "act", "seat": 0, "action": {"type": "cut", "target": i}})
        assert len(synced) == before + i + 1
    journal.close()


def test_restored_table_is_the_same_game(tmp_path):
    table_id, history, _ = asyncio.run(journaled_game(tmp_path / "data", actions=5))
    contents = journals.read_journal(tmp_path / "data" / "tables" / f"{table_id}.journal")
    table = restore_table(contents)
    replayed = engine.replay("timebomb", 4, {"first_player": 0}, 99, history)
    assert table.game.history == history
    assert table.game.view(engine.REFEREE) == replayed.view(engine.REFEREE)
    assert [s.kind for s in table.seats] == ["human", "human", "bot", "bot"]


async def test_torn_last_record_is_dropped_with_a_warning_and_play_resumes(tmp_path, caplog):
    data = tmp_path / "data"
    table_id, history, tokens = await journaled_game(data, actions=4)
    path = data / "tables" / f"{table_id}.journal"
    whole = path.stat().st_size
    os.truncate(path, whole - 3)  # the crash came mid-write of the last action
    caplog.set_level(logging.WARNING, logger="gaslight")

    host = Host(data_dir=data, bot_delay=0.001)
    assert host.resume() == [table_id]
    assert f"table {table_id}: dropped a torn last record" in caplog.text
    game = host.tables[table_id].game
    assert game.history == history[:-1]
    assert path.stat().st_size < whole - 3  # cut back to the last whole record
    await host.start()
    ann = await Connection.connect("127.0.0.1", host.address[1], name="Ann", token=tokens[0])
    state = await next_of(ann, "state")
    assert state["view"] == game.view(0)
    await ann.close()
    await host.stop()
    # The journal appended after the cut reads back whole.
    assert journals.read_journal(path).torn_bytes == 0


async def test_damaged_journal_names_its_table_and_the_others_load(tmp_path, caplog):
    data = tmp_path / "data"
    good_id, _, _ = await journaled_game(data, actions=2)
    bad_id, _, _ = await journaled_game(data, actions=2)
    bad = data / "tables" / f"{bad_id}.journal"
    raw = bytearray(bad.read_bytes())
    raw[20] ^= 0xFF  # inside the first record's body
    bad.write_bytes(bytes(raw))
    caplog.set_level(logging.ERROR, logger="gaslight")

    host = Host(data_dir=data)
    assert host.resume() == [good_id]
    assert [e.table_id for e in host.journal_errors] == [bad_id]
    assert f"table {bad_id}: journal is damaged" in str(host.journal_errors[0])
    assert f"table {bad_id}" in caplog.text and "checksum" in caplog.text


async def test_journal_whose_actions_do_not_replay_is_reported(tmp_path):
    directory = journals.tables_dir(tmp_path)
    journal = journals.Journal.create(directory, "feedf00d")
    journal.append({"t": "table", "id": "feedf00d", "name": "x", "game": "timebomb",
                    "players": 4, "options": {}})
    journal.append({"t": "game", "seed": 1})
    journal.append({"t": "act", "seat": 0, "action": {"type": "cut", "target": 0}})
    journal.close()
    host = Host(data_dir=tmp_path)
    assert host.resume() == []
    error = host.journal_errors[0]
    assert error.table_id == "feedf00d" and "record 2 ('act') does not replay" in str(error)


async def test_finished_tables_are_not_resumed(tmp_path):
    data = tmp_path / "data"
    host = Host(data_dir=data, bot_delay=0)
    await host.start()
    table_id = host.create_table("timebomb", 4, bots=4)

    async def finished():
        while host.tables[table_id].game.outcome is None:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(finished(), TIMEOUT)
    await host.stop()
    again = Host(data_dir=data)
    assert again.resume() == []
    assert not (data / "tables" / f"{table_id}.journal").exists()

"""Faults: the host process is killed with SIGKILL at random points during 20 games, half the
time in the middle of a commit (its records written, the commit not done: what a power cut
leaves), and each restart with `--resume` and no other flag carries on at the same port with
no action anybody saw lost and none doubled. A damaged table is named, and the others load."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sqlite3
import subprocess

import msgpack
import pytest
from support.waiting import until

import engine
from netplay.host import Host
from netplay.store import CRASH_ENV, STORE_FILE

from .conftest import HostProcess, RawPeer, sent_view, slow_seed, stored_table

pytestmark = pytest.mark.xdist_group("faults")

GAMES = 20
PLAYERS = 4
BOT_DELAY = 0.1
MIN_KILLS = 4


def actions_stored(data, table_id) -> list[tuple[int, dict]]:
    return list(stored_table(data, table_id).game.history)


def replay_views(options, seed, history) -> list[dict]:
    """The spectator's state view after each prefix of `history`."""
    game = engine.new_game("timebomb", PLAYERS, options, seed)
    views = [sent_view(game, engine.SPECTATOR)]
    for seat, action in history:
        game.apply(seat, action)
        views.append(sent_view(game, engine.SPECTATOR))
    return views


async def spectate(port: int, table_id: str, source: str, seen: list[dict]) -> None:
    """Follow one table until the link dies, keeping every view."""
    try:
        peer = await RawPeer.join(port, "Lestrade", source=source, table=table_id,
                                  spectate=True)
        while True:
            message = await peer.receive(timeout=30)
            if message["t"] == "state":
                seen.append(message["view"])
    except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, AssertionError):
        return


async def test_sigkill_at_random_points_during_20_games_loses_and_doubles_nothing(tmp_path):
    rng = random.Random(20)
    data = tmp_path / "data"
    # Twenty all-bot tables, stored and started; the host process plays them on resume.
    setup = Host(data_dir=data)
    seeds = {}
    for i in range(GAMES):
        seed = 9_100_000_000_000 + i
        table_id = setup.create_table("timebomb", PLAYERS, bots=PLAYERS, seed=seed)
        seeds[table_id] = (seed, setup.tables[table_id].options)
    await setup.stop()

    durable = {table_id: [] for table_id in seeds}  # acts known to be stored
    kills = hooked = views_checked = 0
    port = None
    while True:
        unfinished = [t for t in seeds if stored_table(data, t).game.outcome is None]
        if not unfinished:
            break
        assert kills < 30, "the games do not finish"
        crash_in_commit = kills % 2 == 1
        # The bots of every running table move together, every BOT_DELAY, and so commit
        # together: a game lasts some 10-20 commits.
        env = {CRASH_ENV: str(rng.randint(1, 12))} if crash_in_commit else {}
        host = HostProcess(data, tmp_path, "--resume", env=env, bot_delay=BOT_DELAY)
        seen = {t: [] for t in unfinished}
        watchers = []
        try:
            host.start()
        except RuntimeError:
            assert host.process.returncode == -signal.SIGKILL, host.log  # a commit at start
        else:
            if port is not None:
                assert host.port == port, "a resumed host comes back at the same port"
            port = host.port
            watchers = [asyncio.create_task(spectate(port, t, f"127.0.0.{10 + i}", seen[t]))
                        for i, t in enumerate(unfinished)]
        if crash_in_commit:
            try:
                await asyncio.to_thread(host.process.wait, 15)
            except subprocess.TimeoutExpired:
                host.stop()  # the last games ended before that many commits
            hooked += host.process.returncode == -signal.SIGKILL
        else:
            # The kill comes after a move since the restart, however long a loaded machine
            # took to start the host and let its bots play: so the games always get on.
            with contextlib.suppress(AssertionError):
                await until(lambda: any(len(views) > 1 for views in seen.values()),
                            "a move after the restart", timeout=15, every=0.01)
            await asyncio.sleep(rng.uniform(0.05, 0.6))
            if host.process.poll() is None:
                host.kill()
        kills += 1
        if watchers:
            await asyncio.wait(watchers, timeout=10)

        for table_id in unfinished:
            stored = actions_stored(data, table_id)
            # Nothing that was stored is lost, and nothing is stored twice.
            assert stored[: len(durable[table_id])] == durable[table_id], table_id
            seed, options = seeds[table_id]
            views = replay_views(options, seed, stored)
            # Whatever a spectator saw was durable before it was told, even when the host died
            # inside a commit: the power cut took back only what nobody had seen.
            for view in seen[table_id]:
                assert view in views, (f"table {table_id}: a client saw an action that is lost "
                                       f"(kill {kills}, in a commit: {crash_in_commit}, "
                                       f"{len(stored)} stored)")
            views_checked += len(seen[table_id])
            durable[table_id] = stored
        host.stop()

    print(f"{GAMES} games finished across {kills} kills, {hooked} of them inside a commit")
    assert kills >= MIN_KILLS and hooked >= MIN_KILLS // 2 and views_checked > GAMES
    for table_id, (seed, options) in seeds.items():
        table = stored_table(data, table_id)
        assert table.game.outcome is not None
        assert table.game.history == durable[table_id]
        replayed = engine.replay("timebomb", PLAYERS, options, seed, durable[table_id])
        assert replayed.view(engine.REFEREE) == table.game.view(engine.REFEREE)


# -- damaged tables ---------------------------------------------------------------------------


async def three_stored_tables(data) -> list[str]:
    """Three all-bot games, two moves into play, in the store."""
    host = Host(data_dir=data)
    ids = [host.create_table("timebomb", PLAYERS, {"first_player": 0}, bots=PLAYERS,
                             seed=slow_seed(PLAYERS), start_when_full=True) for _ in range(3)]
    for table_id in ids:
        table = host.tables[table_id]
        for seat, target in [(0, 1), (1, 0)]:
            await host.apply(table, seat, {"type": "cut", "target": target})
    await host.stop()
    return ids


def damage(data, table_id: str, how: str, other: str) -> None:
    """Change a table's records behind the host's back, as a disk error or a hand might."""
    with contextlib.closing(sqlite3.connect(data / STORE_FILE)) as db, db:
        last = db.execute("SELECT max(seq) FROM records WHERE table_id = ?",
                          (table_id,)).fetchone()[0]
        if how == "not-msgpack":
            db.execute("UPDATE records SET record = x'c1c1' WHERE table_id = ? AND seq = 1",
                       (table_id,))
        elif how == "not-a-map":
            db.execute("UPDATE records SET record = ? WHERE table_id = ? AND seq = 1",
                       (msgpack.packb([1, 2]), table_id))
        elif how == "empty":
            db.execute("DELETE FROM records WHERE table_id = ?", (table_id,))
        elif how == "wrong-table":
            first = msgpack.unpackb(db.execute(
                "SELECT record FROM records WHERE table_id = ? AND seq = 0",
                (table_id,)).fetchone()[0])
            db.execute("UPDATE records SET record = ? WHERE table_id = ? AND seq = 0",
                       (msgpack.packb({**first, "id": other}), table_id))
        elif how == "bad-action":
            db.execute("INSERT INTO records VALUES (?, ?, ?)", (table_id, last + 1, msgpack.packb(
                {"t": "act", "seat": 0, "action": {"type": "cut", "target": 0}})))


@pytest.mark.parametrize("how, words", [
    ("not-msgpack", "is not msgpack"),
    ("not-a-map", "is not a tagged map"),
    ("empty", "it has no records"),
    ("wrong-table", "it describes table"),
    ("bad-action", "does not replay"),
])
async def test_a_damaged_table_is_named_and_the_others_load(tmp_path, how, words):
    data = tmp_path / "data"
    good, bad, other = await three_stored_tables(data)
    damage(data, bad, how, good)

    host = HostProcess(data, tmp_path, "--resume").start()
    try:
        assert sorted(host.tables) == sorted([good, other])
        assert f"could not resume: table {bad}: its record is damaged" in host.log
        assert words in host.log
        # The loaded tables play on: a spectator follows one to its end.
        fan = await RawPeer.join(host.port, "Fan", table=good, spectate=True)
        while (await fan.receive_until("state", timeout=20))["view"]["outcome"] is None:
            pass
    finally:
        host.stop()

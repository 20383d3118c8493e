"""Crash and resume: the host process is killed with SIGKILL mid-game and started again with
`--resume`; the clients reconnect with their tokens and the game finishes with every earlier
action intact."""

from __future__ import annotations

import asyncio
import os
import re
import signal

import engine
from netplay.client import Connection, NotConnected
from netplay.pairing import read_code
from netplay.protocol import Error, State

from support.hosts import code_of, start_host

from .conftest import TIMEOUT, assert_view_of, stored_table

PLAYERS = 5
THINK = 0.02  # each client pauses before its move, so the kill lands mid-game


def rotation_cut(seat: int, legal: list[dict]) -> dict:
    """Cut the next seat round the table that still has a wire: deterministic, so that the
    whole game follows from the seed."""
    targets = {a["target"] for a in legal if a["type"] == "cut"}
    for step in range(1, PLAYERS):
        if (seat + step) % PLAYERS in targets:
            return {"type": "cut", "target": (seat + step) % PLAYERS}
    raise AssertionError("no cut to make")


def long_game_seed(min_cuts: int) -> int:
    # Large seeds, so that a leak of one would stand out in the host's output.
    for seed in range(7_340_211_905_113, 7_340_211_906_113):
        game = engine.new_game("timebomb", PLAYERS, {}, seed)
        while game.outcome is None:
            (seat,) = game.to_act()
            game.apply(seat, rotation_cut(seat, game.legal_actions(seat)))
        if len(game.history) >= min_cuts:
            return seed
    raise AssertionError("no long game among the first seeds")


async def player(conn: Connection, states: list[dict]) -> dict:
    async for msg in conn:
        if isinstance(msg, Error):
            raise AssertionError(msg.message)
        if not isinstance(msg, State):
            continue
        view = msg.view
        states.append(view)
        if view["outcome"] is not None:
            return view
        if conn.seat in view["to_act"]:
            await asyncio.sleep(THINK)
            try:
                await conn.act(rotation_cut(conn.seat, msg.legal))
            except NotConnected:
                pass
    raise AssertionError(f"seat {conn.seat} closed: {conn.refusal}")


async def test_sigkill_mid_game_then_resume_finishes_with_every_action_intact(tmp_path):
    data = tmp_path / "data"
    seed = long_game_seed(min_cuts=12)
    processes = []
    try:
        await crash_and_resume(data, seed, processes)
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()


async def crash_and_resume(data, seed, processes):
    first, port, banner = await start_host(
        data, 0, "--game", "timebomb", "--players", str(PLAYERS), "--seed", str(seed),
        "--start-when-full")
    processes.append(first)
    table_id = re.search(r"table (\w+):", banner)[1]
    code = read_code(code_of(banner))
    conns = [await Connection.connect("127.0.0.1", port, code=code, name=f"P{i}",
                                      table=table_id)
             for i in range(PLAYERS)]
    states: list[list[dict]] = [[] for _ in conns]
    games = asyncio.gather(*(player(c, s) for c, s in zip(conns, states)))

    async def cuts_seen(n):
        while max((len(s[-1]["revealed"]) for s in states if s), default=0) < n:
            await asyncio.sleep(0.002)

    await asyncio.wait_for(cuts_seen(3), TIMEOUT)
    os.kill(first.pid, signal.SIGKILL)
    await first.wait()
    before_kill = max((s[-1]["revealed"] for s in states if s), key=len)
    assert 3 <= len(before_kill) < 12

    # No flag but --resume: it comes back at the port it had.
    restarted, again_port, resumed_banner = await start_host(data, 0, "--resume")
    processes.append(restarted)
    assert again_port == port and "(resumed)" in resumed_banner
    finals = await asyncio.wait_for(games, TIMEOUT)
    restarted.send_signal(signal.SIGTERM)
    await restarted.wait()

    # Neither run of the host printed or logged a token or the seed.
    output = banner + (await first.stderr.read()).decode() + resumed_banner
    output += (await restarted.stdout.read()).decode() + (await restarted.stderr.read()).decode()
    assert "resumed table" in output
    for secret in [str(seed), *(c.token for c in conns)]:
        assert secret not in output
    # Every player saw the link drop and come back with the same seat.
    assert [c.seat for c in conns] == list(range(PLAYERS))
    final = finals[0]
    assert final["outcome"] is not None
    assert final["revealed"][: len(before_kill)] == before_kill
    # The store holds the whole game, each action once, and replays to what players saw.
    table = stored_table(data, table_id)
    replayed = engine.new_game("timebomb", PLAYERS, {}, seed)
    for seat, action in table.game.history:
        replayed.apply(seat, action)
    for seat, view in enumerate(finals):
        assert_view_of(view, replayed.view(seat))
    assert len(table.game.history) == len(final["revealed"])
    for conn in conns:
        await conn.close()

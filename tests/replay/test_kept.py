"""Nothing of the evening lost (issue 42): every finished game is kept on the machine of each
person who played or watched it, as a replay file through their own eyes, fetched on the
table's own connection as the game ends (`Backend.keep_game`, the end screen's one call) while
the table's reader goes on. Over a real `gaslight host` process on 127.0.0.1: the table closed
and its host process stopped, every guest still lists and opens each game it was at, through
the backend and `gaslight replay`."""

from __future__ import annotations

import asyncio

from support.hosts import code_of, start_host
from support.waiting import until, until_shown

from netplay import replay_file
from netplay.protocol import EYES_SPECTATOR, PlayAgain, ReplayStep, ShowReplay
from tui.address import Address
from tui.backend import Backend
from tui.cli import main
from tui.commands.replay import kept_game, replay_app
from tui.listing import Ticket
from tui.screens.replay import ReplayScreen

from .conftest import TIMEOUT, play_seat, watch_to_end

GAMES = 2


async def test_every_guest_keeps_each_game_after_the_host_stops(tmp_path, monkeypatch,
                                                                 capsys):
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    process, port, banner = await start_host(
        tmp_path / "host", 0, "--game", "timebomb", "--players", "4", "--bots", "1",
        "--start-when-full", "--bot-delay", "0")
    try:
        table = next(line.split()[1].rstrip(":") for line in banner.splitlines()
                     if line.startswith("table "))
        address = Address("127.0.0.1", port)
        apps = {name: Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / name,
                              discover=False) for name in ("Ann", "Bob", "Cat", "Watson")}
        for backend in apps.values():
            backend.remember_code(address, code_of(banner))  # as its player typed it
        tickets = {name: Ticket(address, table, spectate=name == "Watson")
                   for name in apps}
        watson = await apps["Watson"].connect(tickets["Watson"], "Watson")
        players = {name: await apps[name].connect(tickets[name], name)
                   for name in ("Ann", "Bob", "Cat")}
        seats = {name: conn.seat for name, conn in players.items()}
        for number in range(GAMES):
            await asyncio.wait_for(asyncio.gather(
                watch_to_end(watson, []),
                *(play_seat(conn, [], number * 10 + seats[name])
                  for name, conn in players.items())), TIMEOUT * 3)
            # Each end screen keeps its game while its table goes on reading: here the next
            # game, asked for at once.
            for name, backend in apps.items():
                backend.keep_game(tickets[name], watson if name == "Watson" else players[name])
            if number + 1 < GAMES:
                for conn in players.values():
                    await conn.send(PlayAgain())
            for backend in apps.values():
                await until(lambda backend=backend: not backend.keeping, "the games kept")
        for conn in (watson, *players.values()):
            await conn.close()
    finally:
        process.terminate()  # the table closes for everyone, and the host process stops
        await process.wait()

    games = [f"{table}-{number}" for number in range(GAMES, 0, -1)]
    for name, backend in apps.items():
        kept = await backend.replay_files()
        assert [game.game for game in kept] == games, name
        eyes = EYES_SPECTATOR if name == "Watson" else seats[name]
        assert {game.eyes for game in kept} == {eyes}, name
        for game in kept:
            assert game.path.stat().st_mode & 0o777 == 0o600
            opened = await backend.open_replay_file(game.path)
            conn = await backend.watch(opened.ticket.address, None, name)
            await conn.send(ShowReplay(game=opened.game, eyes=game.eyes, step=10 ** 6))
            step = await asyncio.wait_for(next_step(conn), TIMEOUT)
            assert step.view["outcome"] is not None and step.step == step.steps
            await conn.close()
            await opened.close()
        # The same games, numbered, by `gaslight replay`; `gaslight replay 1` opens the last.
        monkeypatch.setenv("GASLIGHT_DATA_DIR", str(tmp_path / name))
        assert await asyncio.to_thread(main, ["replay"]) == 0
        listed = capsys.readouterr().out.splitlines()
        assert [line.split()[0] for line in listed] == ["1", "2"], listed
        assert all("Time Bomb" in line for line in listed)
        chosen = kept_game(kept, 1)
        assert chosen.game == games[0]
        app = replay_app(backend, replay_file.read(chosen.path), chosen.eyes)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await until_shown(
                pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen, "replay")
            await until_shown(pilot, lambda: screen.drawn == (0, eyes), "the deal, own eyes")
        await backend.close()


async def next_step(conn) -> ReplayStep:
    while not isinstance(message := await conn.next_message(), ReplayStep):
        pass
    return message

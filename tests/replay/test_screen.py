"""The replay screen, driven as a person would at 80x24: a replay file's game stepped by
action, by round, to the start and the end, through each eyes (the place kept), its facts,
saving it again; and the end screen's Ctrl+W, which replays the game just watched over the
table's own connection."""

from __future__ import annotations

import asyncio
import contextlib
import io

import pytest
from rich.console import Console
from support.bot_games import bots_play
from support.screen_text import footer_misses, screen_text
from support.waiting import until_shown

import engine
from engine.catalogue import CATALOGUE
from netplay import replay_file
from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import PlayAgain
from netplay.game_record import GameRecord, Move, Player, Said
from tui.address import Address
from tui.app import create_app
from tui.backend import Backend
from tui.commands.replay import replay_app
from tui.listing import Ticket
from tui.screens.about_game import AboutScreen
from tui.screens.end import EndScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen

from .conftest import play_seat


def bots_game(kind: str, players: int, seed: int) -> GameRecord:
    """A finished game of bots, as a replay file would hold it, with a move forced by a turn
    timer and a line of chat."""
    game, played = bots_play(kind, players, seed)
    moves = [Move(seat, action, 1_800_000_000.0 + n,
                  "timer" if n == 2 else "person" if seat == 0 else "bot")
             for n, (seat, action) in enumerate(played)]
    return GameRecord(
        game="c0ffee00-1", table="c0ffee00", name="Baker Street", kind=kind, players=players,
        options=dict(game.options), seed=seed, bot_level="smart", turn_timer=30,
        started=1_800_000_000.0, moves=moves,
        seats=[Player("Ann", "human")] + [Player(f"Bot {i + 1}", "bot")
                                          for i in range(1, players)],
        chat=[Said(1, 0, "Ann", "who cut that?", 1_800_000_001.0)])


def shown(screen: ReplayScreen, step: int, eyes) -> bool:
    return screen.drawn == (step, eyes)


def without_events(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("events", "events_from")}


async def test_a_step_is_on_the_screen_once_the_screen_says_it_is_drawn(tmp_path, monkeypatch):
    """The tests and the benchmark wait for `drawn`, then read the screen: at the moment it
    names a step, the screen's last frame shows that step (it did not, under load, when it was
    set before the frame was laid out)."""
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    record = bots_game("timebomb", 5, seed=4)
    app = replay_app(Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data",
                             discover=False), record)
    on_screen_when_drawn: list[tuple[tuple, str]] = []

    def set_drawn(screen: ReplayScreen, drawn) -> None:
        screen.__dict__["drawn"] = drawn
        if drawn is not None:
            on_screen_when_drawn.append((drawn, screen_text(app)))

    monkeypatch.setattr(ReplayScreen, "drawn",
                        property(lambda screen: screen.__dict__.get("drawn"), set_drawn),
                        raising=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        await until_shown(pilot, lambda: shown(screen, 0, "spectator"), "the deal")
        await pilot.press("right", "right")
        await until_shown(pilot, lambda: shown(screen, 2, "spectator"), "two steps on")
    steps = len(record.moves)
    assert [drawn for drawn, _ in on_screen_when_drawn] == [
        (0, "spectator"), (1, "spectator"), (2, "spectator")]
    for (step, _), text in on_screen_when_drawn:
        assert f"{step}/{steps}" in text


@pytest.mark.parametrize("kind, players", [("timebomb", 5), ("timebomb_evolution", 4),
                                           ("machinations", 5), ("holmes", 2)])
async def test_a_replay_file_steps_by_action_and_round_through_any_eyes(tmp_path, kind,
                                                                       players, monkeypatch):
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    record = bots_game(kind, players, seed=4)
    history = [(m.seat, m.action) for m in record.moves]

    def engine_view(step: int, viewer: int) -> dict:
        return engine.replay(kind, players, record.options, record.seed,
                             history[:step]).view(viewer)

    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data", discover=False)
    app = replay_app(backend, record)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        await until_shown(pilot, lambda: shown(screen, 0, "spectator"), "the deal")
        text = screen_text(app)
        assert "0/" in text and "the deal" in text
        # A file has no link to show, and the round is counted once, by the board (issue 35).
        assert "connected" not in text and " · round " not in text
        await pilot.press("right", "right", "right")
        await until_shown(pilot, lambda: shown(screen, 3, "spectator"), "three steps on")
        text = screen_text(app)
        # The third move was the turn timer's bot's, and the chat of the time shows.
        assert "turn timer" in text and "who cut that?" in text
        await pilot.press("left")
        await until_shown(pilot, lambda: shown(screen, 2, "spectator"), "a step back")
        assert without_events(screen.view) == without_events(engine_view(2, engine.SPECTATOR))
        await pilot.press("right_square_bracket")
        await until_shown(pilot, lambda: screen.drawn == (screen.marks[1], "spectator"),
                          "the next round")
        await pilot.press("1")  # Ann's eyes, the place kept
        mark = screen.marks[1]
        await until_shown(pilot, lambda: shown(screen, mark, 0), "Ann's eyes")
        assert without_events(screen.view) == without_events(engine_view(mark, 0))
        assert "eyes: Ann" in screen_text(app)
        await pilot.press("a")
        await until_shown(pilot, lambda: shown(screen, mark, "all"), "everything")
        assert without_events(screen.view) == without_events(engine_view(mark, engine.REFEREE))
        await pilot.press("end")
        await until_shown(pilot, lambda: shown(screen, len(history), "all"), "the end")
        assert screen.view["outcome"] is not None and isinstance(app.screen, ReplayScreen)
        await pilot.press("e")  # from everything, round to the first seat
        await until_shown(pilot, lambda: shown(screen, len(history), 0), "the eyes go round")
        await pilot.press("left_square_bracket", "home")
        await until_shown(pilot, lambda: shown(screen, 0, 0), "the start")
        await pilot.press("i")
        await until_shown(pilot, lambda: isinstance(app.screen, AboutScreen), "the facts")
        text = screen_text(app)
        assert "Ann (person)" in text and "Bot 2 (bot)" in text and "step 3" in text
        # The options in the host form's words, never their code names.
        facts = io.StringIO()
        Console(file=facts, width=200).print(app.screen.table())
        for option in CATALOGUE[kind].options:
            value = option.value_text(record.options[option.name])
            assert f"{option.title}: {value}" in facts.getvalue()
            if option.name not in option.title.lower():  # "colours" in "Bomb colours"
                assert f"{option.name}: " not in facts.getvalue()
        await pilot.press("escape")
        await pilot.press("x")
        folder = tmp_path / "data" / "replays"
        await until_shown(pilot, lambda: screen.saved is not None, "the file saved")
        assert screen.saved.parent == folder
        assert replay_file.read(screen.saved).entries() == record.entries()
        await pilot.press("escape")
        await until_shown(pilot, lambda: not app.is_running, "the app closing with the replay")


async def test_the_replay_plays_at_a_steady_pace(tmp_path, monkeypatch):
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr("tui.screens.replay.PACE", 0.05)
    record = bots_game("timebomb", 4, seed=2)
    backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data", discover=False)
    app = replay_app(backend, record)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        await until_shown(pilot, lambda: shown(screen, 0, "spectator"), "the deal")
        await pilot.press("space")
        await until_shown(pilot, lambda: screen.step == len(record.moves), "the end, by itself")
        assert screen.playing is None  # it stops there


@contextlib.asynccontextmanager
async def watched_to_its_end(tmp_path, monkeypatch):
    """Fan's app watches a 4-player Time Bomb game on a loopback host, Ann and three bots,
    until its end screen: yields the host, the table's id, the app, its pilot, Fan's play
    screen and Ann's connection (closed on the way out)."""
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    host = Host(data_dir=tmp_path / "host", limits=HostLimits(bot_delay=0.002))
    await host.start()
    try:
        table_id = host.create_table("timebomb", 4, {}, bots=3, seed=8, start_when_full=True)
        host.seed_bots(table_id, 8)
        backend = Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data",
                          discover=False)
        backend.remember_code(Address("127.0.0.1", host.address[1]), host.table_code)
        app = create_app(backend, player_name="Fan")
        async with app.run_test(size=(80, 24)) as pilot:
            ticket = Ticket(Address("127.0.0.1", host.address[1]), table_id, spectate=True)
            table = PlayScreen(backend, ticket, "Fan")
            app.push_screen(table)
            await until_shown(pilot, lambda: table.connection is not None, "watching")
            ann = await Connection.connect("127.0.0.1", host.address[1], name="Ann",
                                           table=table_id, code=host.table_code)
            try:
                await asyncio.wait_for(play_seat(ann, [], 1), 30)
                await until_shown(pilot, lambda: isinstance(app.screen, EndScreen),
                                  "the end screen")
                yield host, table_id, app, pilot, table, ann
            finally:
                await ann.close()
    finally:
        await host.stop()


async def test_the_end_screen_replays_the_game_over_the_tables_connection(tmp_path,
                                                                         monkeypatch):
    """A spectator watches a game to its end, presses Ctrl+W, and steps through it: the host
    lets that connection, and no other, watch it again."""
    async with watched_to_its_end(tmp_path, monkeypatch) as (host, table_id, app, pilot, table,
                                                              ann):
        watch = app.active_bindings["ctrl+w"]
        assert watch.enabled and watch.binding.description == "Watch again"
        await pilot.press("ctrl+w")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert replay.source.send is not None  # the table's own connection
        await until_shown(pilot, lambda: shown(replay, 0, "spectator"), "the deal")
        await pilot.press("end")
        steps = len(host.tables[table_id].game.history)
        await until_shown(pilot, lambda: shown(replay, steps, "spectator"), "the end")
        await pilot.press("escape")
        await until_shown(pilot, lambda: isinstance(app.screen, EndScreen), "back at the end")
        assert table.end.replay_screen is None
        first_end = app.screen
        assert "This evening: 1 game" in screen_text(app)
        # The table plays again: the next end screen keeps the evening's record, and its
        # list opens the first game's replay.
        await ann.send(PlayAgain())
        await asyncio.wait_for(play_seat(ann, [], 2), 30)
        await until_shown(pilot, lambda: isinstance(app.screen, EndScreen)
                          and app.screen is not first_end, "the second end screen")
        end = app.screen
        await until_shown(pilot, lambda: len(end.evening) == 2, "two games tonight")
        tonight = host.tables[table_id].evening
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "This evening: 2 games" in text
        from tui.games.timebomb.model import team_label

        for team in {game["team"] for game in tonight if game["team"]}:
            assert f"{team_label(team)} " in text and f" {team} " not in text
        games = end.query_one("#evening-games")
        assert [str(games.get_option_at_index(i).prompt).split(" (")[0]
                for i in range(games.option_count)] == \
            [f"{n}. {game['result']}" for n, game in enumerate(tonight, 1)]
        # The evening's list of games has room from 36 rows on (at 24 it gives way to every
        # player's row): its first game's number, and Enter.
        await pilot.resize_terminal(80, 40)
        await until_shown(pilot, lambda: games.display, "the evening's games listed")
        await pilot.press("1", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "game 1's replay")
        await until_shown(pilot, lambda: app.screen.drawn == (0, "spectator"), "its deal")
        assert app.screen.game == f"{table_id}-1"
        await pilot.press("escape")
        await until_shown(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen again")
        assert app.screen is not end and table.end.replay_screen is None


@pytest.mark.parametrize("seated", [True, False])
async def test_the_end_screens_footer_shows_every_key_at_80_columns(seated):
    from textual.app import App
    from textual.widgets import Static

    class Ended(App):
        def on_mount(self) -> None:
            self.push_screen(EndScreen(Static("Sherlock's team wins."), can_play_again=seated,
                                       watch_again=lambda game: None))

    app = Ended()
    async with app.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        await pilot.pause()
        assert footer_misses(app) == []


async def test_no_outdated_end_screen_waits_under_a_replay(tmp_path, monkeypatch):
    """The end screen goes while its game's replay is open: closing the replay shows the end
    screen again, built afresh, while the game is over; once the table has moved on to its
    next game, closing it shows that game, with no end screen left behind."""
    async with watched_to_its_end(tmp_path, monkeypatch) as (host, table_id, app, pilot, table,
                                                              ann):
        first_end = app.screen

        def end_screens() -> list:
            return [s for s in app.screen_stack if isinstance(s, EndScreen)]

        await pilot.press("ctrl+w")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert end_screens() == []
        await pilot.press("escape")
        await until_shown(pilot, lambda: isinstance(app.screen, EndScreen), "the end again")
        assert app.screen is not first_end and end_screens() == [app.screen]
        assert table.end.end_screen is app.screen

        first_game_ends = [first_end, app.screen]
        await pilot.press("ctrl+w")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        await ann.send(PlayAgain())  # the bots agree at once: the next game begins
        await until_shown(pilot, lambda: table.view is not None
                          and table.view["outcome"] is None, "the next game")
        assert app.screen is replay and end_screens() == []
        await pilot.press("escape")
        await until_shown(pilot, lambda: not isinstance(app.screen, ReplayScreen), "the table")
        # The table as it is now: its next game, or (the bots may have ended it by now,
        # Ann's seat aside) that game's own end screen; never the first game's.
        assert not set(first_game_ends) & set(end_screens())
        if table.view["outcome"] is None:
            assert app.screen is table and end_screens() == []
            assert table.board.view is table.view and "game over" not in screen_text(app)
        else:
            assert end_screens() == [app.screen] and app.screen is table.end.end_screen

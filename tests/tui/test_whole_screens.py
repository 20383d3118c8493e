"""Every screen whole at 80x24, and on a phone upright (46x50, the narrow layouts of issue
43), at the largest table of each game (issue 46): the table from a seat and as a spectator, the end (every player, the winners, the evening's line, who asked
for another game), the header of the table this app hosts, each dialog, and a replay's header
and footer. A test fails when a row is missing or a line is cut mid-word: what gives way says
so in a word that fits ("+2 more"), or leaves whole parts out. The games and their largest
tables come from the engine's catalogue."""

from __future__ import annotations

import re

import pytest
from support.bot_games import bots_play
from support.flows import open_dialog
from support.full_tables import NAMES, ended, full_lobby, largest, mid_game, played
from support.offline import OfflinePlayScreen, offline_app, open_table
from support.screen_text import footer_misses, region_text, screen_text

from engine.catalogue import CATALOGUE
from netplay.game_record import GameRecord, Move, Player
from tui.address import Address
from tui.backend import Backend
from tui.commands.replay import replay_app
from tui.listing import Ticket
from tui.messages import Connected, ConnectionStatusChanged, StateChanged
from tui.screens.end import EndScreen
from tui.screens.replay import ReplayScreen
from support.offline import lobby_changed

PLACEHOLDERS = ("type to chat…",)
"""Words that end in "…" of their own, not because they were cut."""

GAMES = list(CATALOGUE)
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((46, 50), id="phone")]
"""A terminal's least, and an upright phone's page (its font fitted to 46 columns)."""


def names_at(game_id: str) -> list[str]:
    return [seat["name"] for seat in full_lobby(game_id)["seats"]]


def cut_mid_word(text: str) -> list[str]:
    """The lines of `text` with a word cut by an ellipsis ("fo…"), placeholders aside."""
    for placeholder in PLACEHOLDERS:
        text = text.replace(placeholder, "")
    return [line for line in text.splitlines() if re.search(r"\w…", line)]


def missing(text: str, names: list[str]) -> list[str]:
    return [name for name in names if not re.search(rf"\b{re.escape(name)}\b", text)]


async def settle(pilot, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("eyes", ["seat", "spectator"])
@pytest.mark.parametrize("size", SIZES)
async def test_the_table_shows_every_player_and_whole_lines(size, game_id, eyes):
    game, seat = mid_game(game_id)
    application = offline_app()
    async with application.run_test(size=size) as pilot:
        await open_table(application, game, seat if eyes == "seat" else None,
                         full_lobby(game_id))
        await settle(pilot)
        text = screen_text(application)
        assert missing(text, names_at(game_id)) == [], text
        assert cut_mid_word(text) == [], text
        assert footer_misses(application) == [], text


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("size", SIZES)
async def test_the_end_shows_every_player_the_winners_the_evening_and_who_asked(size, game_id):
    game = ended(game_id)
    lobby = full_lobby(game_id, play_again=[1])
    application = offline_app()
    async with application.run_test(size=size) as pilot:
        await open_table(application, game, 0, lobby)
        while not isinstance(application.screen, EndScreen):
            await pilot.pause()
        await settle(pilot)
        text = screen_text(application)
        assert missing(text, names_at(game_id)) == [], text
        winners = len(game.outcome.winners)
        assert text.count("★ won") == winners or game_id == "holmes", text
        assert "This evening: 3 games" in text, text
        assert "asked for another game" in text, text
        assert cut_mid_word(text) == [], text
        assert footer_misses(application) == [], text


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("size", SIZES)
async def test_the_hosts_header_keeps_whole_words(size, game_id):
    """The status bar of the table this app hosts: whose turn, the code, the connection, and
    of the game's state the parts that fit, whole."""
    game, seat = mid_game(game_id)
    application = offline_app()
    async with application.run_test(size=size) as pilot:
        screen = OfflinePlayScreen(application.backend, Ticket(
            Address("127.0.0.1", 47420), "t1", code="1234-5678"), "Ada")
        await application.push_screen(screen)
        screen.post_message(ConnectionStatusChanged("connected"))
        screen.post_message(Connected(seat, False))
        screen.post_message(lobby_changed(full_lobby(game_id)))
        screen.post_message(StateChanged(game.view(seat), game.legal_actions(seat), seat))
        await settle(pilot)
        header = screen_text(application).splitlines()[0]
        assert "code 1234-5678" in header and "connected" in header, header
        assert cut_mid_word(header) == [], header


def at(phase: str):
    """A position where seat 0 acts in `phase`."""
    return lambda game: getattr(game, "phase", None) == phase and 0 in game.to_act()


def cutting(game) -> bool:
    return 0 in game.to_act() and getattr(game, "cuts", 0) > 0


DIALOGS = {
    # (game, where seat 0 is, the keys that open the dialog there)
    "timebomb claim": ("timebomb", cutting, ("ctrl+k",)),
    "timebomb wires": ("timebomb", cutting, ("enter",)),
    "évolution claim": ("timebomb_evolution", cutting, ("ctrl+k",)),
    "évolution wires": ("timebomb_evolution", cutting, ("enter",)),
    "machinations vote": ("machinations", at("vote"), ("ctrl+t",)),
    "machinations heist card": ("machinations", at("heist"), ("ctrl+k",)),
    "holmes move": ("holmes", lambda game: 0 in game.to_act(), ("ctrl+k",)),
}


@pytest.mark.parametrize("name", list(DIALOGS))
@pytest.mark.parametrize("size", SIZES)
async def test_every_dialog_is_whole_or_says_what_it_has_no_room_for(size, name):
    game_id, where, keys = DIALOGS[name]
    game = played(game_id, where)
    assert where(game), name
    application = offline_app()
    async with application.run_test(size=size) as pilot:
        screen = await open_table(application, game, 0, full_lobby(game_id))
        await settle(pilot)
        if open_dialog(application) is not None:  # a claim offered at the deal
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        dialog = open_dialog(application)
        assert dialog is not None, name
        text = screen_text(application)
        assert cut_mid_word(text) == [], text
        assert dialog.panel_title in text, text
        assert missing(text, names_at(game_id)) == [], text
        above, below = dialog.choice_list.out_of_view()
        if above or below:
            assert f"↓+{below} more" in text or f"↑+{above}" in text, text
        else:
            # A choice's words may wrap on a narrow dialog: read them in the dialog's own rows.
            shown = region_text(application, dialog.choice_list)
            for choice in dialog.choices:
                assert str(choice.words).split(" ←")[0] in shown, text
        assert screen.board.dialog is not None


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("size", SIZES)
async def test_a_replays_header_and_footer_are_whole(size, game_id, tmp_path, monkeypatch):
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(tmp_path / "config"))
    players = largest(game_id)
    game, played = bots_play(game_id, players, 4)
    record = GameRecord(
        game="c0ffee00-1", table="c0ffee00", name="Baker Street", kind=game_id,
        players=players, options=dict(game.options), seed=4, bot_level="smart", turn_timer=0,
        started=1_800_000_000.0, moves=[Move(s, a, 1_800_000_000.0 + n, "bot")
                                        for n, (s, a) in enumerate(played)],
        seats=[Player(NAMES[s], "human" if s == 0 else "bot") for s in range(players)], chat=[])
    application = replay_app(Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / "data",
                                     discover=False), record)
    async with application.run_test(size=size) as pilot:
        while not (isinstance(application.screen, ReplayScreen)
                   and application.screen.drawn is not None):
            await pilot.pause()
        await settle(pilot)
        text = screen_text(application)
        assert cut_mid_word(text.splitlines()[0]) == [], text
        assert footer_misses(application) == [], text

"""Every term on a table's screen is explained from that screen (issue 44): each word,
abbreviation, symbol and number a game's screens show at 80x24 is in the game's terms
(`tui/games/<game_id>/terms.py`, listed by `?`), or is a player's name or a plain word any
newcomer knows (`support.plain_words`). The screens read are every game's in the catalogue
(the table from a seat and as a spectator, each dialog its board's keys open, the end), and a
few richer positions of each game."""

from __future__ import annotations

import pytest
from support import positions
from support.full_tables import ended, full_lobby, mid_game
from support.offline import offline_app, open_table
from support.screen_text import screen_text
from support.terms_scan import unexplained

from engine.catalogue import CATALOGUE
from tui.games.terms import TABLE_TERMS, glossary, terms_of
from tui.screens.end import EndScreen

GAMES = list(CATALOGUE)

RICHER = {
    "timebomb": lambda: [(positions.cutter_game(), 0, positions.lobby())],
    "timebomb_evolution": lambda: [(positions.arranged_game(), 0, positions.evolution_lobby())],
    "machinations": lambda: [(positions.proposing_at_0(), 0, positions.machinations_lobby())],
    "holmes": lambda: [(positions.holmes_game(steps), 0, positions.holmes_lobby())
                       for steps in (10, 30, 60)],
}
"""Positions that show more of a game than a random one does: its powers, its decisions."""


def names_in(lobby: dict) -> list[str]:
    """Every player the screen may name: the seats, and the evening's winners."""
    return ([seat["name"] for seat in lobby["seats"]]
            + [name for game in lobby.get("evening", ()) for name in game["winners"]])


def without_footer(app) -> str:
    """The screen, but its footer: `?` explains the keys there."""
    return "\n".join(screen_text(app).splitlines()[:-1])


async def settle(pilot, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause()


def dialog_keys(board) -> list[str]:
    """The keys of the board's bindings that open something now, and Enter on its list."""
    keys = [binding.key.split(",")[0] for _, binding in board._bindings
            if binding.action not in ("hide", "unhide")
            and board.check_action(binding.action, ())]
    return [*dict.fromkeys(keys), "enter"]


async def read_screens(game_id: str, game, seat, lobby) -> list[tuple[str, list[str]]]:
    """What each screen of the table leaves unexplained: the board as it comes, then after
    each key of the board that opens a dialog (Esc after each)."""
    found = []
    application = offline_app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat, lobby)
        await settle(pilot)
        terms, names = terms_of(game_id), names_in(lobby)
        found.append(("the table", unexplained(without_footer(application), terms, names)))
        if seat is None or screen.board is None:
            return found
        for key in dialog_keys(screen.board):
            if screen.board.dialog is not None:
                await pilot.press("escape")
                await settle(pilot)
            await pilot.press(key)
            await settle(pilot)
            found.append((f"after {key}",
                          unexplained(without_footer(application), terms, names)))
    return found


def failures(game_id: str, where: str, found: list[tuple[str, list[str]]]) -> list[str]:
    return [f"{game_id}, {where}, {screen}: {', '.join(words)}" for screen, words in found
            if words]


HOW = ("explain them in tui/games/<game_id>/terms.py, or, for a word any newcomer knows, "
       "add it to tests/support/plain_words.py")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("eyes", ["seat", "spectator"])
async def test_every_term_of_a_running_table_is_explained(game_id, eyes):
    game, seat = mid_game(game_id)
    found = await read_screens(game_id, game, seat if eyes == "seat" else None,
                               full_lobby(game_id))
    problems = failures(game_id, eyes, found)
    assert not problems, "\n".join([HOW, *problems])


@pytest.mark.parametrize("game_id", GAMES)
async def test_every_term_of_the_end_is_explained(game_id):
    lobby = full_lobby(game_id)
    application = offline_app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, ended(game_id), 0, lobby)
        while not isinstance(application.screen, EndScreen):
            await pilot.pause()
        await settle(pilot)
        words = unexplained(without_footer(application), terms_of(game_id), names_in(lobby))
    assert not words, f"{HOW}\n{game_id}, the end: {', '.join(words)}"


@pytest.mark.parametrize("game_id", list(RICHER))
async def test_every_term_of_a_games_richer_positions_is_explained(game_id):
    problems = []
    for n, (game, seat, lobby) in enumerate(RICHER[game_id]()):
        problems += failures(game_id, f"position {n}",
                             await read_screens(game_id, game, seat, lobby))
    assert not problems, "\n".join([HOW, *problems])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_keeps_its_terms_with_their_meanings(game_id):
    """A fifth game fails here until it has its terms; `?` lists each with its meaning."""
    listed = glossary(game_id)
    assert listed, f"{game_id} has no terms: add tui/games/{game_id}/terms.py"
    for shown, meaning in listed + [(t.shown, t.meaning) for t in TABLE_TERMS]:
        assert shown and meaning and "\n" not in meaning, (game_id, shown)

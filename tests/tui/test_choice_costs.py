"""Every choice says what it costs and does (issue 44, point 2), in every game of the
catalogue: seeded games are walked, with the game's options as they come and turned, and at
the deal and at each position where seat 0 may take an action of a type not met before, every
dialog its board opens (of itself, at a key of the board's, or at Enter on its list) is read.
A fifth game is walked the same way.

In the project's words a choice is its name and what it does, after ": " or " · " ("Abet:
helps the heist…", "Place a marker on Wiggins · Underworld network: Gain 5 IM."). A dialog
whose choices do not each say it (a wire among face-down wires, a claim) says it for all of
them in its question, in the same form ("✹: Moriarty's team wins at once"). A compact dialog
(the claim offered at a deal, low to leave the table in sight) is read through its full one,
the same choices at a key of the board's. A choice that answers nothing (Back) is a way out,
not a move. A dialog that offers a single move says why there is only one: the player picked
it, or it is the only one the rules leave."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from support.full_tables import full_lobby
from support.offline import offline_app, open_table

import engine
from engine.catalogue import CATALOGUE
from tui.messages import StateChanged
from tui.widgets.choice_panel import ChoicePanel

GAMES = list(CATALOGUE)
SEEDS = range(3, 30)
SAYS_WHAT_IT_DOES = re.compile(r"(: | · )\S")
"""A name, then what it does."""
WHY_ONLY_ONE = re.compile(r"\b(you picked|only)\b", re.IGNORECASE)
"""Why a dialog offers one move: the player picked it, or it is the only one left."""


def dialog_actions(board) -> list[str]:
    """The actions of the board's keys that may open something now."""
    return [*dict.fromkeys(binding.action for _, binding in board._bindings
                           if binding.action not in ("hide", "unhide")
                           and board.check_action(binding.action, ()))]


def turned(info) -> dict:
    """Every option of the game that has a list of values, at a value other than its
    default: the Variante, the reserve card, the villains…"""
    return {option.name: next(v for v in option.choices if v != option.default)
            for option in info.options
            if isinstance(option.choices, tuple) and len(option.choices) > 1}


def positions(game_id: str):
    """The first deal, and each position where seat 0 acts and may take an action of a kind
    not met before, in seeded games of random legal moves, at the fewest players and the
    most, with the options as they come and turned. A kind is the action's type, the seat's
    role (an accusation is an arrest, a murder or a naming by the accuser's role), and
    whether the rules leave that type a single move (its dialog must then say why)."""
    info, seen = CATALOGUE[game_id], set()
    for options in ({}, turned(info)):
        for players in sorted({info.min_players, info.max_players}):
            for seed in SEEDS:
                game = engine.new_game(game_id, players, options, seed)
                rng = random.Random(seed)
                if not seen:
                    yield game  # the deal, once
                while game.outcome is None:
                    if 0 in game.to_act():
                        kinds = action_kinds(game.legal_actions(0), game.view(0).get("role"))
                        if kinds - seen:
                            seen |= kinds
                            yield game
                    seat = min(game.to_act())
                    game.apply(seat, rng.choice(game.legal_actions(seat)))


def action_kinds(legal: list[dict], role: object) -> set[tuple]:
    counts = Counter(action["type"] for action in legal)
    return {(kind, role, count == 1) for kind, count in counts.items()}


async def offered_dialogs(game_id: str) -> list[ChoicePanel]:
    """Every dialog the board offers seat 0 on the way, once each by its title and choices."""
    found: dict[tuple, ChoicePanel] = {}
    application = offline_app()

    def keep(screen) -> None:
        if screen.board is not None and screen.board.dialog is not None:
            panel = screen.board.dialog[0]
            found.setdefault((panel.panel_title, words(panel)), panel)

    async with application.run_test(size=(80, 24)) as pilot:
        screen = None
        for game in positions(game_id):
            if screen is None:
                screen = await open_table(application, game, 0, full_lobby(game_id))
            else:
                screen.post_message(StateChanged(game.view(0), game.legal_actions(0), 0))
            await pilot.pause()
            board = screen.board
            keep(screen)  # one the board opens of itself: a claim at a deal, a decision
            # Each key's action, then Enter on the board's list (a row taken), as the keys
            # would, without drawing the screen between: a dialog is built when it opens.
            board.close_dialog("")
            await read_key_dialogs(board, lambda: keep(screen))
            rows = board.choices
            if rows is not None:
                rows.take()
                keep(screen)
                if board.dialog is None:  # a row picked, not a move: pick on (a crew)
                    await take_every_row(board, lambda: keep(screen))
            board.close_dialog("")
    return list(found.values())


async def read_key_dialogs(board, keep) -> None:
    """Run each board key's action that may open a dialog, reading and closing what opens."""
    for action in dialog_actions(board):
        await board.run_action(action)
        keep()
        board.close_dialog("")


async def take_every_row(board, keep) -> None:
    """Take the board's rows one after another, as a player picking a crew would, reading
    any dialog a row opens; then the keys again, which a full pick may have made possible
    (Propose the crew)."""
    rows = board.choices
    if rows is None or rows.taken is None:
        return
    for index in range(rows.option_count):
        rows.taken(index)
        keep()
        board.close_dialog("")
    await read_key_dialogs(board, keep)


def words(panel: ChoicePanel) -> tuple[str, ...]:
    return tuple(str(choice.words) for choice in panel.choices)


def bare_choices(panel: ChoicePanel) -> list[str]:
    """The moves of `panel` that do not say what they cost and do, nor does its question."""
    moves = [str(choice.words) for choice in panel.choices if choice.answer is not None]
    if SAYS_WHAT_IT_DOES.search(str(panel.question)):
        return []
    return [said for said in moves if not SAYS_WHAT_IT_DOES.search(said)]


def says_why_only_one(panel: ChoicePanel) -> bool:
    moves = [choice for choice in panel.choices if choice.answer is not None]
    return len(moves) != 1 or bool(WHY_ONLY_ONE.search(str(panel.question)))


@pytest.mark.parametrize("game_id", GAMES)
async def test_every_choice_of_every_dialog_says_what_it_costs_and_does(game_id):
    dialogs = await offered_dialogs(game_id)
    assert len(dialogs) >= 2, f"{game_id}: the walk met too few dialogs to read"
    full = {words(panel): panel for panel in dialogs if not panel.has_class("-compact")}
    for panel in dialogs:
        if panel.has_class("-compact"):
            assert words(panel) in full, f"{panel.panel_title!r} has no full dialog at a key"
    problems = [f"{panel.panel_title!r}: {bare!r}"
                for panel in full.values() for bare in bare_choices(panel)]
    problems += [f"{panel.panel_title!r}, a single choice, does not say why: "
                 f"{panel.question!r}" for panel in full.values()
                 if not says_why_only_one(panel)]
    assert not problems, (f"{game_id}: say what each choice costs and does (after ': ' or "
                          "' · '), or say it in the dialog's question\n" + "\n".join(problems))

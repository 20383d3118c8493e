"""Shared helpers for the Holmes tests: arrange a given deal, act through `apply`, check
invariants. Arranging writes the game's state directly (as the rulebook examples need a
given deal) and always keeps the 52 clue cards and 24 investigation markers conserved."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable

import engine
from engine.holmes.catalogue import (
    COPIES,
    DECK_CHARACTERS,
    IM_TOTAL,
    WILDCARD,
)
from engine.holmes.game import Holmes
from engine.holmes.pending import Pending

S, M = 0, 1
"""Seat 0 plays first as Sherlock in every arranged game."""


def new_game(options: dict | None = None, seed: int = 0, *, side: bool = True) -> Holmes:
    game = engine.new_game("holmes", 2, {"first_player": "chosen", **(options or {})}, seed)
    if side:
        act(game, S, "choose_side", side="sherlock")
    return game


def act(game: Holmes, seat: int, kind: str, **fields: Any) -> None:
    game.apply(seat, {"type": kind, **fields})


def types_of(actions: Iterable[dict]) -> set[str]:
    return {a["type"] for a in actions}


def cards_in_play(game: Holmes) -> Counter:
    cards = Counter(game.deck)
    cards.update(game.discard)
    cards.update(c for c in game.line if c)
    for area in game.areas:
        cards.update(area.clues)
        cards[WILDCARD] += len(area.wild_on) + area.free_wild
        cards.update(area.hidden)
        if area.reserved:
            cards[area.reserved] += 1
    for pending in game.queue:
        cards.update(pending.drawn)
    return +cards


_ALL_CARDS = Counter(COPIES)


def check_conservation(game: Holmes) -> None:
    assert cards_in_play(game) == _ALL_CARDS, f"cards not conserved: {game!r}"
    assert game.reserve + sum(a.im for a in game.areas) == IM_TOTAL, f"IM: {game!r}"
    assert game.reserve >= 0 and all(a.im >= 0 for a in game.areas), repr(game)


def arrange(
    game: Holmes,
    *,
    line: list[str | None] | None = None,
    deck_top: list[str] = (),
    day_one: tuple[str, str] | None = None,
    char_top: list[str] = (),
) -> None:
    """Set the line, the next clues to be drawn (first listed is drawn first), the Day-1
    characters and the next characters to arrive; the rest of the deck stays in its order."""
    if day_one is not None:
        old = game.board[3:]
        game.board[3:] = list(day_one)
        game.day_of = {c: 1 for c in day_one}
        # The replaced Day-1 characters rejoin the bottom of the character deck.
        game.char_deck = [c for c in old if c not in day_one] + [
            c for c in game.char_deck if c not in day_one
        ]
    if char_top:
        game.char_deck = [c for c in game.char_deck if c not in char_top] + list(reversed(char_top))
    if line is not None:
        game.line = list(line)
    _rebuild_deck(game, list(deck_top))


def _rebuild_deck(game: Holmes, top: list[str]) -> None:
    elsewhere = Counter(game.discard) + Counter(c for c in game.line if c)
    for area in game.areas:
        elsewhere += area.physical_cards()
    free = Counter(COPIES) - elsewhere
    assert not Counter(top) - free, "the arranged cards are not all available"
    free -= Counter(top)
    rest = []
    for card in game.deck:  # keep the current order of what stays in the deck
        if free[card] > 0:
            free[card] -= 1
            rest.append(card)
    rest += list(free.elements())
    game.deck = rest + list(reversed(top))


def set_area(
    game: Holmes,
    seat: int,
    *,
    clues: dict[str, int] | None = None,
    wild_on: Iterable[str] = (),
    free_wild: int = 0,
    hidden: Iterable[str] = (),
    im: int | None = None,
    reserved: str | None = None,
) -> None:
    area = game.areas[seat]
    area.clues = {t: 0 for t in area.clues}
    area.clues.update(clues or {})
    area.wild_on = set(wild_on)
    area.free_wild = free_wild
    area.hidden = list(hidden)
    area.reserved = reserved
    if im is not None:
        game.reserve += area.im - im
        area.im = im
    _rebuild_deck(game, [])


def set_im(game: Holmes, im: tuple[int, int], reserve: int) -> None:
    game.areas[S].im, game.areas[M].im = im
    game.reserve = reserve
    assert sum(im) + reserve == IM_TOTAL


def jump_to_day(game: Holmes, day: int, markers: list[dict[str, bool]],
                board: list[str] | None = None, spent: Iterable[str] = ()) -> None:
    """Start `day`'s investigation with the given board and markers (all standing)."""
    game.day = day
    if board is not None:
        game.board = list(board)
        game.day_of = {c: min(i - 2, day) if i > 3 else 1 for i, c in enumerate(board) if i >= 3}
        game.char_deck = [c for c in DECK_CHARACTERS if c not in board]
    game.markers = [dict(m) for m in markers]
    game.spent = set(spent)
    game.stage = "action"
    game.actions_done = 0
    game.actions_each = 3
    game.queue = [Pending("move", game.active())]


def playout(options: dict, seed: int, bots=None) -> Holmes:
    game = engine.new_game("holmes", 2, options, seed)
    rng = random.Random(seed)
    while game.outcome is None:
        seat = min(game.to_act())
        legal = game.legal_actions(seat)
        game.apply(seat, rng.choice(legal))
    return game



FULL_BOARD = ["watson", "hudson", "lestrade", *DECK_CHARACTERS]


def visit(game: Holmes, seat: int, character: str, day: int = 3) -> None:
    """Make `seat` the active player of `day` with every character in play, and move a
    marker onto `character`: its skill is then pending, if usable."""
    source = "hudson" if character != "hudson" else "watson"
    game.day = day
    game.board = list(FULL_BOARD)
    game.day_of = {c: 1 for c in DECK_CHARACTERS}
    game.char_deck = []
    game.markers = [{}, {}]
    game.markers[seat][source] = True
    game.spent = set()
    game.stage = "action"
    game.actions_each = 3
    game.actions_done = 0 if seat == game.first else 1
    game.queue = [Pending("move", seat)]
    game.reserved_this_action = False  # a new action, as `begin_turn` starts one
    act(game, seat, "move", **{"from": source, "to": character})

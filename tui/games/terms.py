"""What the words, abbreviations, symbols and numbers on a game's screens mean, kept once per
game (`tui/games/<game_id>/terms.py`), beside the table's own: what `?` lists at a table, and
what a test reads every game's screens against (`tests/tui/test_terms.py`).

A game's terms module holds `TERMS`, a tuple of `Term`s, and `goal(view)`: how the viewer's
role wins, in one line, for their own panel. Headless: no textual.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Iterable, Mapping

from tui.games import package_name


@dataclass(frozen=True)
class Term:
    """One thing a screen shows and a newcomer may not know: how the glossary shows it, its
    meaning in a line, and every way a screen writes it (`forms`, literal, whole words where
    they begin or end with a letter; `pattern`, a regular expression, for numbers written in a
    shape of the game's own, like `Round 2/4`). With neither, the screen writes it as shown
    (`terms_regex`)."""

    shown: str
    meaning: str
    forms: tuple[str, ...] = ()
    pattern: str = ""


def terms_regex(terms: Iterable[Term]) -> re.Pattern[str]:
    """One expression for every way a screen writes any of `terms`: their patterns, then their
    forms, longest first, so that "Wire Cutter" is read whole before "Wire"."""
    terms = list(terms)
    patterns = [term.pattern for term in terms if term.pattern]
    forms = {form for term in terms
             for form in (term.forms or (() if term.pattern else (term.shown,)))}
    return re.compile("|".join(patterns + [_literal(form) for form in
                                           sorted(forms, key=len, reverse=True)]))


def _literal(form: str) -> str:
    """`form` as a whole word at a letter's edge ("IM" is not the start of "IMPORTANT"),
    a space in it any run of spaces, and its case free where it is a word of three letters
    or more."""
    head = r"(?<![\w'])" if form[:1].isalnum() else ""
    tail = r"(?![\w])" if form[-1:].isalnum() else ""
    body = r"\s+".join(re.escape(word) for word in form.split(" "))
    if len(form) >= 3 and form[:1].isalpha():
        body = f"(?i:{body})"
    return head + body + tail


TABLE_TERMS = (
    Term("Coach:", "the coach's lines in the log, for your first games: what each move did "
         "and what your choice means", forms=("Coach:",)),
    Term("»", "a line of your app's own in the log, not the game's: the connection, an error",
         forms=("»",)),
    Term("Hint:", "what the strongest bot would play from your seat, and why: you asked, and "
         "the table was told you did", forms=("Hint:", "Why:", "hint")),
    Term("Bot 2", "a seat the computer plays", pattern=r"\bBot\s+\d+\b"),
    Term("(you)", "your own seat", forms=("(you)",)),
    Term("away", "a player whose connection dropped: their seat waits for them, and a bot "
                 "may play it meanwhile", forms=("away", "(away)")),
    Term("bot playing", "a bot plays an away player's seat until they come back",
         forms=("bot playing", "(bot playing)", "(bot)", "bot", "(bot's)")),
    Term("● connected", "your connection to the table's host", forms=("●",)),
    Term("★ won", "at the end: a winner", forms=("★",)),
    Term("↓+2 more", "choices of a dialog out of view: the arrows scroll to them",
         pattern=r"[↑↓]\+\d+( more)?"),
    Term("↑↓", "the arrows move the highlight", forms=("↑↓", "↑↓,")),
    Term("Esc", "closes a dialog, as its border says", forms=("Esc:", "Esc")),
    Term("Enter", "takes the highlighted choice", forms=("Enter:", "Enter")),
    Term("Ctrl+K", "a key: hold Ctrl and press K (`?` lists every key)",
         pattern=r"\bCtrl\+\s*[A-Z]\b"),
)
"""What every table shows whatever its game: seats, presence, the dialogs' keys."""


def terms_module(game_id: str) -> ModuleType:
    """The terms of `game_id`'s package (ModuleNotFoundError when the game keeps none)."""
    return importlib.import_module(f"{package_name(game_id)}.terms")


def terms_of(game_id: str) -> tuple[Term, ...]:
    """Every term a table of `game_id` may show: the game's own, then the table's."""
    return (*terms_module(game_id).TERMS, *TABLE_TERMS)


def goal(game_id: str, view: Mapping[str, Any]) -> str:
    """How the viewer's role wins, in a line; empty for a spectator or before roles are
    dealt."""
    return terms_module(game_id).goal(view)


def glossary(game_id: str) -> list[tuple[str, str]]:
    """The game's terms as `?` lists them: each as a screen shows it, and its meaning."""
    return [(term.shown, term.meaning) for term in terms_module(game_id).TERMS]

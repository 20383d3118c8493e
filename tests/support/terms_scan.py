"""Reading a screen for terms nobody explained: what is left of its text once every term of
the game (`tui.games.terms.terms_of`), every player's name and every plain word a newcomer
knows (`support.plain_words`) are taken out."""

from __future__ import annotations

import re
from typing import Iterable

from support.plain_words import PLAIN

from tui.games.terms import Term, terms_regex

FRAME = "─│╭╮╰╯┌┐└┘├┤┬┴┼═║▁▂▃▄▅▆▇█▔▏▕━┃┏┓┗┛▐▌"
"""Borders and scroll bars: the drawing, not the words."""

PUNCTUATION = "()[]{},.:;!?\"'“”‘’·"
"""What may stand around a word, or between words, and mean nothing of its own."""


def unexplained(text: str, terms: Iterable[Term], names: Iterable[str]) -> list[str]:
    """The pieces of `text` that no term, name or plain word explains, in order, once each."""
    text = re.sub(r"(?<=\w)'s(?![\w])", "", text)  # a possessive reads as its noun
    for name in sorted(set(names), key=len, reverse=True):
        words = r"\s+".join(re.escape(word) for word in name.split())
        text = re.sub(rf"(?<![\w]){words}(?:'s)?(?![\w])", " ", text)
    terms = list(terms)
    text = terms_regex(terms).sub(" ", text)
    # A column's line may wrap inside a term ("Mrs." at a line's end, "Hudson" at the next
    # one's start, with other panels between): each word of a term's name counts as it.
    text = terms_regex([Term(word, "") for term in terms for form in term.forms
                        for word in form.split(" ")[1:] + form.split(" ")[:1]
                        if " " in form]).sub(" ", text)
    left: list[str] = []
    for token in re.findall(rf"[^\s{FRAME}]+", text):
        word = token.strip(PUNCTUATION)
        if word.endswith("'s"):
            word = word[:-2]
        if not word or word.lower() in PLAIN or re.fullmatch(r"[\d.,%+\-]+", word):
            continue
        if word not in left:
            left.append(word)
    return left

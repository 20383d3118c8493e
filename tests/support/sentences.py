"""Sentences as people type them at a table, generated from a seed: the typing tests' and the
typing benchmark's (issue 41)."""

from __future__ import annotations

import random

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACCENTS = "éèêàçüöñßÉÀœ"
DIGITS = "0123456789"
PUNCTUATION = ",.;:!?'-()\"/&"


def sentences(seed: int, count: int) -> list[str]:
    """`count` sentences of 1 to 120 characters: words of letters, accents, digits and
    punctuation, starting with any of them. None is only a number or only `?` (a table takes
    those as a pick and as the keys' question, not as sentences), and none starts or ends with
    a space or holds two in a row (the chat trims them)."""
    rng = random.Random(seed)
    made: list[str] = []
    starts = (LETTERS, DIGITS, PUNCTUATION, ACCENTS)
    while len(made) < count:
        length = rng.choice((1, 2, 3, rng.randint(4, 40), rng.randint(40, 120)))
        first = rng.choice(rng.choice(starts))
        rest = "".join(rng.choice(LETTERS * 6 + ACCENTS + DIGITS * 2 + PUNCTUATION + " " * 12)
                       for _ in range(length - 1))
        text = (first + rest).strip()
        if not text or text.isdigit() or text == "?" or "  " in text:
            continue
        made.append(text)
    return made

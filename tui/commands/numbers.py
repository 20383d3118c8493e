"""Whole numbers on the command line: each option names its least value, and what to say of a
number below it."""

from __future__ import annotations

import argparse
from typing import Callable


def whole_number(least: int, too_small: Callable[[int], str],
                 unit: str = "") -> Callable[[str], int]:
    """An argparse `type` for a whole number of at least `least`; `too_small(n)` says why a
    smaller one is refused, and `unit` names what the number counts ("of seconds")."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number{f' {unit}' if unit else ''}") from None
        if number < least:
            raise argparse.ArgumentTypeError(too_small(number))
        return number

    return parse

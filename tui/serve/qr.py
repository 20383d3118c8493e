"""The page's address as a QR code drawn in text, for a phone's camera: in `gaslight serve`'s
output, in the waiting room of a table and on `?` (the symbol is `segno`'s).

Each character holds two modules, one above the other (the half blocks ▀ ▄ █ and a space), so
a module is about square in a terminal's cell, which is twice as high as it is wide. The
blocks draw the *light* modules, and the quiet zone around the symbol is light too: drawn
light on dark, the code reads as printed black on white wherever the dark is really dark (the
app and the server's output paint it black, not the terminal's own background).
"""

from __future__ import annotations

from typing import Final

import segno

QUIET: Final = 2
"""Modules of light margin around the symbol: the standard asks for 4, phone readers find a
code with 2 on a dark screen, and every module counts on a phone's 40 columns."""
HALF_BLOCKS: Final = {(True, True): "█", (True, False): "▀", (False, True): "▄",
                      (False, False): " "}
"""A character for each pair of modules (upper light, lower light)."""
ON_BLACK: Final = "\x1b[97;40m"
RESET: Final = "\x1b[0m"


def qr_rows(text: str) -> list[str]:
    """`text` as a QR code (medium error correction at least, a larger symbol only when the
    text needs one), one string a row of characters, each two rows of modules."""
    symbol = segno.make(text, error="m", micro=False)
    light = [[not dark for dark in row] for row in symbol.matrix_iter(border=QUIET)]
    if len(light) % 2:
        light.append([True] * len(light[0]))  # the quiet zone, a module deeper
    return ["".join(HALF_BLOCKS[upper, lower] for upper, lower in zip(light[y], light[y + 1]))
            for y in range(0, len(light), 2)]


def qr_for_terminal(text: str, colours: bool) -> str:
    """The code as lines to print; with `colours`, on black whatever the terminal's theme."""
    if not colours:
        return "\n".join(qr_rows(text))
    return "\n".join(ON_BLACK + row + RESET for row in qr_rows(text))

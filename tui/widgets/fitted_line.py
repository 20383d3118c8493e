"""One line that gives way by whole parts, never mid-word (issue 46).

A status line is parts joined by " · " ("Round 1/4 · 5 cuts left · ◆ 0/5 found"), the most
needed first. Where the line has less room than its text, the parts that do not fit are left
out whole, from the end; a single part too long for the room keeps its first whole words and
says the rest with "…". A narrow terminal reads "Round 1/4 · 5 cuts left", never "◆ 0/5 fo…".
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

SEPARATOR = " · "


def fit_words(text: str, width: int) -> str:
    """`text` within `width` cells: whole, or its first whole words and "…"."""
    if cell_len(text) <= width:
        return text
    words = text.split(" ")
    while words and cell_len(" ".join(words) + " …") > width:
        words.pop()
    return " ".join(words) + " …" if words else ""


def fit_parts(parts: list[str], width: int) -> str:
    """As many of `parts` as fit in `width` cells, whole and in order; the first alone, cut
    at a word, when not even it fits."""
    shown: list[str] = []
    for part in parts:
        if cell_len(SEPARATOR.join([*shown, part])) > width:
            break
        shown.append(part)
    if not shown and parts:
        return fit_words(parts[0], width)
    return SEPARATOR.join(shown)


class FittedLine(Widget):
    DEFAULT_CSS = "FittedLine { height: 1; width: 1fr; text-wrap: nowrap; }"

    def __init__(self, text: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.parts = text.split(SEPARATOR) if text else []

    def show(self, text: str) -> None:
        parts = text.split(SEPARATOR) if text else []
        if parts != self.parts:
            self.parts = parts
            self.refresh(layout=True)  # a line of auto width takes its new words' width

    @property
    def whole(self) -> str:
        return SEPARATOR.join(self.parts)

    def get_content_width(self, container, viewport) -> int:
        # The room it would like is its whole text's; a max-width caps it, and `render` fits
        # the parts to the room it gets.
        return cell_len(self.whole)

    def render(self) -> Text:
        # Text, never markup: a line may hold a player's or a table's name.
        return Text(fit_parts(self.parts, self.content_region.width or 10_000))

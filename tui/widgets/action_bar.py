"""A button for every key the footer shows, for a finger: on a touch screen and on a narrow
one, in the footer's place, under every screen (the app puts one in each).

The buttons are made from the screen's active bindings, as Textual's footer makes its keys
(the screen's binding chain: at a table, the table keyboard's, so a button does what its key
does), and a tap on one is that key pressed (`App.simulate_key`): the key goes where a typed
one would, through the table's keyboard at a table. A page with no keyboard never needs Ctrl,
Esc or an F key. With a keyboard (a narrow terminal) each button names its key too.

The bar wraps its buttons onto as many rows as they need, so that none is cut. On a tall
screen each is three rows high, a thumb's size, and its words may take two lines.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Click
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static


PRESSED_SHOWN = 0.2
"""Seconds a tapped button stays lit."""


class ActionButton(Static, can_focus=False):
    """One key of the screen, as a button: a tap presses it."""

    DEFAULT_CSS = """
    ActionButton { width: 1fr; height: 1; content-align: center middle; text-wrap: nowrap;
                   text-overflow: ellipsis; background: $panel; color: $text;
                   text-style: bold; }
    ActionButton:hover { background: $panel-lighten-2; }
    ActionButton.-pressed { background: $accent; }
    """

    def __init__(self, key: str, words: str | Text, tooltip: str = "") -> None:
        super().__init__(words, markup=False)
        self.key = key
        self.words = str(words)
        if tooltip:
            self.tooltip = tooltip

    def on_click(self, event: Click) -> None:
        event.stop()
        # A finger hides what it taps: the button lights up after, for a moment.
        self.add_class("-pressed")
        self.set_timer(PRESSED_SHOWN, lambda: self.remove_class("-pressed"))
        self.app.simulate_key(self.key)


GUTTER = 1
"""Columns between two buttons."""
TALL_BUTTON = 14
"""The width of a tall button: its words, on two lines if need be, and a margin."""


def columns_for(width: int, labels: list[int], tall: bool) -> int:
    """How many buttons a row of `width` cells holds: each as wide as the widest label (a
    cell either side) on one line, or TALL_BUTTON cells when a label may take two; the labels
    are never cut, and the rows are as few as that allows."""
    if not labels:
        return 1
    each = TALL_BUTTON if tall else max(labels) + 2
    return max(1, min(len(labels), (width + GUTTER) // (each + GUTTER)))


class ActionBar(Widget):
    """The screen's keys as buttons, as many to a row as their words allow."""

    DEFAULT_CSS = """
    ActionBar { dock: bottom; height: auto; layout: grid; grid-size: 4; grid-rows: 1;
                grid-gutter: 0 1; background: $footer-background; display: none; }
    """

    def on_mount(self) -> None:
        # Kept: at unmount the bar may already be out of its screen's tree.
        self.watched = self.screen
        self.watched.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.watched.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)

    def on_resize(self) -> None:
        self.fit_columns()

    def fit_columns(self) -> None:
        if not self.is_attached:  # its screen went (a dialog answered) before this refresh
            return
        labels = [cell_len(button.words) for button in self.query(ActionButton)]
        tall = self.screen.has_class("-tall")
        self.styles.grid_size_columns = columns_for(self.size.width, labels, tall)

    def compose(self) -> ComposeResult:
        touch = self.app.has_class("-touch")
        for binding, tooltip in self.actions():
            words = binding.description
            if not touch:
                words = f"{self.app.get_key_display(binding)} {words}"
            yield ActionButton(binding.key, words, tooltip)
        self.call_after_refresh(self.fit_columns)

    def actions(self) -> list[tuple[Binding, str]]:
        """The footer's keys that may be pressed now, one per action (its first key), in the
        footer's order."""
        seen: dict[str, tuple[Binding, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and enabled and binding.description:
                seen.setdefault(binding.action, (binding, tooltip or binding.tooltip))
        return list(seen.values())

"""Pick one of a player's face-down wires to cut. Which one does not matter (TB-5), but it is
the gesture of the game, and it gives the cutter a moment to change their mind."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.widgets.gives_way import GivesWayToTyping
from tui.widgets.sentence_start import refuse


class CutScreen(GivesWayToTyping, ModalScreen[bool]):
    DEFAULT_CSS = """
    CutScreen { align: center middle; }
    CutScreen > Vertical { width: auto; max-width: 76; height: auto; border: thick $accent;
                           background: $surface; padding: 1 2; }
    CutScreen #cut-wires { height: auto; width: auto; }
    CutScreen #cut-wires Button { min-width: 7; width: 7; margin: 0 1 0 0; }
    CutScreen #cut-hint { color: $text-muted; margin: 1 0 0 0; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "focus_previous", "Previous wire", show=False),
        Binding("right", "focus_next", "Next wire", show=False),
        *(Binding(str(n), f"wire({n})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, target_name: str, face_down: int) -> None:
        super().__init__()
        self.target_name = target_name
        self.face_down = face_down

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Cut one of {self.target_name}'s {self.face_down} face-down wires:"))
            with Horizontal(id="cut-wires"):
                for n in range(1, self.face_down + 1):
                    yield Button(f"▮ {n}", id=f"wire-{n}", compact=True)
            yield Static("←/→ or a digit, then Enter · Esc to cancel", id="cut-hint")

    def action_wire(self, n: int) -> None:
        """A digit picks a wire, as an arrow would; Enter cuts it."""
        if 1 <= n <= self.face_down:
            self.query_one(f"#wire-{n}", Button).focus()
        else:
            refuse(self, f"{self.target_name} has {self.face_down} face-down wires.")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if not self.closing:
            self.dismiss(True)

    def action_cancel(self) -> None:
        if not self.closing:
            self.dismiss(False)

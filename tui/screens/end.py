"""The end of a game: the game's own account of it, then play again or back to the lobby."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static


class EndScreen(Screen[str | None]):
    DEFAULT_CSS = """
    EndScreen { align: center top; }
    EndScreen #end-body { width: 100%; max-width: 100; height: 1fr; padding: 1 2; }
    EndScreen #end-buttons { height: auto; width: auto; margin: 1 0 0 0; }
    EndScreen #end-buttons Button { margin: 0 2 0 0; }
    EndScreen #end-you { width: 100%; content-align: center middle; text-style: bold;
                         height: 1; margin: 0 0 1 0; }
    EndScreen #end-you.-won { background: $success 30%; }
    EndScreen #end-you.-lost { background: $error 20%; }
    """

    BINDINGS = [
        Binding("p", "again", "Play again"),
        Binding("l", "lobby", "Back to lobby"),
        Binding("escape", "table", "Look at the table"),
    ]

    def __init__(
        self, body: Widget, *, can_play_again: bool, you_won: bool | None = None
    ) -> None:
        super().__init__()
        self.body = body
        self.can_play_again = can_play_again
        self.you_won = you_won
        """None for a spectator, who neither won nor lost."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="end-body"):
            if self.you_won is not None:
                yield Static(
                    "★ You won" if self.you_won else "You lost", id="end-you",
                    classes="-won" if self.you_won else "-lost",
                )
            yield self.body
            with Horizontal(id="end-buttons"):
                if self.can_play_again:
                    yield Button("Play again (p)", id="again", variant="primary")
                yield Button("Back to lobby (l)", id="lobby")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            return self.can_play_again
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)

    def action_again(self) -> None:
        self.dismiss("again")

    def action_lobby(self) -> None:
        self.dismiss("lobby")

    def action_table(self) -> None:
        self.dismiss(None)

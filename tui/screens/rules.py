"""The rules of a game, rendered from the Markdown that ships in the `engine` package."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, MarkdownViewer


def rules_markdown(game_id: str) -> str:
    """The game's rules for players, or a short note when that game ships no rules text."""
    from engine.catalogue import InvalidSetup, game_info

    try:
        return game_info(game_id).rules_text()
    except (InvalidSetup, FileNotFoundError, NotADirectoryError, OSError):
        return f"# Rules\n\nNo rules text ships for `{game_id}` in this version."


class RulesScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen MarkdownViewer { width: 100%; max-width: 100; height: 1fr;
                                 border: thick $accent; background: $surface; }
    """

    BINDINGS = [Binding("escape", "close", "Close"), Binding("q", "close", "Close", show=False)]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(rules_markdown(self.game_id), show_table_of_contents=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).document.focus()

    def action_close(self) -> None:
        self.dismiss(None)

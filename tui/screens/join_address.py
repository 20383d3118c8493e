"""Type a host's address to find its tables without discovery."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.address import Address, AddressError, parse_address


class JoinAddressScreen(ModalScreen[Address | None]):
    DEFAULT_CSS = """
    JoinAddressScreen { align: center middle; }
    JoinAddressScreen > Vertical { width: 64; height: auto; border: thick $accent;
                                   background: $surface; padding: 1 2; }
    JoinAddressScreen #address-error { color: $error; height: auto; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("The host's address, as HOST:PORT (the host's screen shows it):")
            yield Input(placeholder="192.168.1.20:7777", id="address-input")
            yield Static("", id="address-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            address = parse_address(event.value)
        except AddressError as error:
            self.query_one("#address-error", Static).update(str(error))
            return
        self.dismiss(address)

    def action_cancel(self) -> None:
        self.dismiss(None)

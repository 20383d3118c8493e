"""A QR code of Gaslight's page for browsers, to scan with a phone's camera, with the address
written under it (tui/serve/qr.py draws the code, tui/serve/page_address.py finds the
address)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui.serve.qr import qr_rows

LIGHT_ON_DARK = "#ffffff on #000000"
"""The code's own colours, whatever the theme's: a camera needs black and white."""


def qr_text(address: str) -> Text:
    """The code, then its address, as text to show."""
    text = Text()
    for row in qr_rows(address):
        text.append(row, style=LIGHT_ON_DARK)
        text.append("\n")
    text.append(address, style="bold")
    return text


class QrCode(Static):
    """The page's address as a QR code; `address` None: nothing to show, and no room taken."""

    DEFAULT_CSS = """
    QrCode { width: auto; height: auto; }
    """

    def __init__(self, address: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.address: str | None = None
        self.text = Text()
        self.show(address)

    def show(self, address: str | None) -> None:
        if address == self.address:
            return
        self.address = address
        self.display = address is not None
        self.text = qr_text(address) if address else Text()
        self.update(self.text)

    @property
    def columns(self) -> int:
        """The cells it takes across."""
        return self.text.cell_len and max(line.cell_len for line in self.text.split())

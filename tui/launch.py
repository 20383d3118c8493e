"""Run the app from the command line: the lobby, or straight to a table at an address."""

from __future__ import annotations

import os

from tui.address import Address

INTERFACES_ENV = "GASLIGHT_INTERFACES"
"""Comma-separated addresses zeroconf may use, e.g. 127.0.0.1 on development machines."""


def interfaces_from(cli: list[str] | None) -> list[str] | None:
    if cli:
        return cli
    env = os.environ.get(INTERFACES_ENV, "")
    return [part.strip() for part in env.split(",") if part.strip()] or None


def run_app(
    initial: tuple[Address, bool] | None = None, interfaces: list[str] | None = None,
    code: str | None = None,
) -> int:
    """`code`: the table code of the host at `initial`, given on the command line."""
    from tui.app import create_app
    from tui.backend import Backend

    backend = Backend(interfaces=interfaces_from(interfaces))
    if initial is not None and code is not None:
        backend.remember_code(initial[0], code)
    app = create_app(backend, initial=initial)
    app.run()
    return app.return_code or 0

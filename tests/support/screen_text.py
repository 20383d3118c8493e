"""The text a player would read on the app's screen right now, for assertions."""

from __future__ import annotations

import io

from rich.console import Console


def screen_text(app) -> str:
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True,
        color_system=None, record=True, legacy_windows=False, safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def footer_misses(app) -> list[str]:
    """The shown keys of the screen that its footer line does not show whole ("^g Play vs
    bots"); a binding of several keys (Ctrl+W or F3, for browsers) counts as shown when one of
    its keys is."""
    footer = screen_text(app).rstrip("\n").splitlines()[-1]
    keys_of: dict[tuple[str, str], list[str]] = {}
    for active in app.screen.active_bindings.values():
        if active.binding.show and active.enabled:
            keys_of.setdefault((active.binding.action, active.binding.description),
                               []).append(app.get_key_display(active.binding))
    assert keys_of, "the screen shows no key"
    return [f"{keys[0]} {description}" for (_, description), keys in keys_of.items()
            if not any(f"{key} {description}" in footer for key in keys)]

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


def region_text(app, widget) -> str:
    """The words `widget` shows on the screen, its lines joined: a choice wrapped over two rows
    of a narrow dialog reads as one sentence, without the borders of the panels beside it."""
    lines = screen_text(app).splitlines()
    region = widget.region
    return " ".join(" ".join(lines[y][region.x:region.right].split())
                    for y in range(region.y, region.bottom)).strip()


def footer_misses(app) -> list[str]:
    """The shown keys of the screen that its footer line (on a narrow or touch screen, its bar
    of buttons) does not show whole ("^g Play vs bots"); a binding of several keys (Ctrl+W or
    F3, for browsers) counts as shown when one of its keys is. A touch screen's buttons name
    no key."""
    footer = bar_text(app) or screen_text(app).rstrip("\n").splitlines()[-1]
    if app.has_class("-touch"):
        return [description for (_, description) in keys_of_screen(app)
                if description not in footer.splitlines()]
    return [f"{keys[0]} {description}" for (_, description), keys in keys_of_screen(app).items()
            if not any(f"{key} {description}" in footer for key in keys)]


def keys_of_screen(app) -> dict[tuple[str, str], list[str]]:
    """The keys shown in a footer, by action and words."""
    keys_of: dict[tuple[str, str], list[str]] = {}
    for active in app.screen.active_bindings.values():
        if active.binding.show and active.enabled:
            keys_of.setdefault((active.binding.action, active.binding.description),
                               []).append(app.get_key_display(active.binding))
    assert keys_of, "the screen shows no key"
    return keys_of


def bar_text(app) -> str:
    """The words of each button of the screen's bar of buttons, as the screen shows them (a
    tall button's may take two lines), one button a line; empty when the bar is not shown."""
    from tui.widgets.action_bar import ActionBar, ActionButton

    bars = [bar for bar in app.screen.query(ActionBar) if bar.region.height]
    if not bars:
        return ""
    lines = screen_text(app).splitlines()
    buttons = []
    for button in bars[0].query(ActionButton):
        region = button.region
        shown = " ".join(lines[y][region.x:region.right].strip()
                         for y in range(region.y, region.bottom))
        buttons.append(" ".join(shown.split()))
    return "\n".join(buttons)

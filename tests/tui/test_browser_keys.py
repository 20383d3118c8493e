"""Every key the app binds works in a browser (`gaslight serve`): each one Chromium keeps for
itself has another key on the same binding, and a page shows that one."""

from __future__ import annotations

import importlib
import pkgutil

from textual.binding import Binding
from textual.widgets import Input

import tui
from tui.app import BROWSER_KEYS, GaslightApp


def every_bindings_list() -> dict[str, list[Binding]]:
    """Each class's own BINDINGS in the app's package, its keys one per binding."""
    found = {}
    for module_info in pkgutil.walk_packages(tui.__path__, "tui."):
        if module_info.name in ("tui.__main__", "tui.screenshots"):
            continue  # running them is their import
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            own = getattr(value, "__dict__", {}).get("BINDINGS")
            if isinstance(value, type) and own and value.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = [
                    expanded for binding in own if isinstance(binding, Binding)
                    for expanded in binding.make_bindings([binding])]
    return found


def test_each_key_a_browser_keeps_has_a_second_key_on_its_binding():
    lists = every_bindings_list()
    assert "tui.screens.lobby.LobbyScreen" in lists
    # The chat box keeps Textual's own editing keys (Ctrl+W deletes a word in a terminal):
    # they are the text box's, not the app's, and a browser's page loses no command by them.
    editing = {(key.key, key.action) for binding in Input.BINDINGS
               if isinstance(binding, Binding) for key in binding.make_bindings([binding])}
    checked = 0
    for owner, bindings in lists.items():
        keys = {(binding.key, binding.action) for binding in bindings}
        for binding in bindings:
            if binding.key in BROWSER_KEYS and (binding.key, binding.action) not in editing:
                assert (BROWSER_KEYS[binding.key], binding.action) in keys, (owner, binding)
                checked += 1
    assert checked >= 6


async def test_a_page_shows_the_second_key(app_factory, monkeypatch):
    app = app_factory()
    async with app.run_test(size=(80, 24)):
        host = Binding("ctrl+n", "host", "Host")
        assert app.get_key_display(host) == "^n"
        monkeypatch.setattr(GaslightApp, "is_web", property(lambda self: True))
        assert app.get_key_display(host) == "f2"

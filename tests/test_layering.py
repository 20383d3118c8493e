"""The layers hold: each module, imported alone in a fresh interpreter, loads nothing from the
layers above it or the libraries it must not need (design.md, "Layout and layering").

    engine       pure rules: no asyncio, msgpack, zeroconf or textual, no netplay or tui
    netplay      protocol, host, client, discovery: no textual, no tui
    tui headless the modules a textual app is built on (backend, config, models...): no textual

The app itself may load the engine's static catalogue only, never a game: the host it runs in
process loads those, not the screens (`test_the_app_loads_no_game`).
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import textwrap

import pytest

import engine
import netplay
import tui.commands
import tui.games
import tui.models


def modules_of(package, *, prefix: str) -> list[str]:
    found = pkgutil.walk_packages(package.__path__, prefix + ".")
    return sorted({prefix} | {m.name for m in found})


def game_models() -> list[str]:
    """Each game's package and its model: the headless half of a game at the client."""
    packages = [m.name for m in pkgutil.iter_modules(tui.games.__path__, "tui.games.") if m.ispkg]
    return sorted({*packages, *(f"{p}.model" for p in packages)})


LAYERS = {
    "engine": (modules_of(engine, prefix="engine"),
               ("asyncio", "msgpack", "zeroconf", "textual", "netplay", "tui")),
    "netplay": (modules_of(netplay, prefix="netplay"), ("textual", "tui")),
    "tui headless": (
        ["tui.address", "tui.background", "tui.config", "tui.backend", "tui.launch", "tui.cli",
         "tui.listing", "tui.local_hosts", "tui.finding", "tui.played_games",
         "tui.past_games", "tui.replaying", "tui.kept_games",
         "tui.games",
         "tui.quick_play", "tui.table_request", "tui.seat_book", *modules_of(tui.commands, prefix="tui.commands"),
         *modules_of(tui.models, prefix="tui.models"), *game_models()],
        ("textual",),
    ),
}

CASES = [
    pytest.param(module, forbidden, id=f"{layer}:{module}")
    for layer, (modules, forbidden) in LAYERS.items()
    for module in modules
]


def loaded_after(code: str) -> set[str]:
    """The top-level packages loaded once `code` has run in a fresh interpreter."""
    script = code + "\nimport sys\nprint(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("module, forbidden", CASES)
def test_a_module_loads_nothing_above_its_layer(module, forbidden):
    loaded = loaded_after(f"import importlib\nimportlib.import_module({module!r})")
    assert not loaded & set(forbidden), f"{module} loads {sorted(loaded & set(forbidden))}"


def test_every_game_module_is_checked():
    engine_modules = LAYERS["engine"][0]
    for cls in engine.GAMES.values():
        assert cls.__module__ in engine_modules
    assert {"engine.core", "engine.registry", "engine.simulate"} <= set(engine_modules)


def test_gaslight_help_stays_light():
    """`gaslight --help` loads neither textual nor zeroconf, so it answers at once."""
    loaded = loaded_after(textwrap.dedent("""
        import contextlib, io
        from tui.cli import main
        with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
            main(["--help"])
    """))
    assert not loaded & {"textual", "zeroconf"}


APP_RUN = textwrap.dedent("""
    import asyncio, importlib, pkgutil, sys, tempfile
    import tui
    for found in pkgutil.walk_packages(tui.__path__, "tui."):
        if found.name != "tui.__main__":
            importlib.import_module(found.name)

    from tui.app import create_app
    from tui.backend import Backend
    from tui.games import board_for, game_ids

    async def run():
        data = tempfile.mkdtemp()
        app = create_app(Backend(interfaces=["127.0.0.1"], discover=False, data_dir=data),
                         player_name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            screens = (["b", "2"], ["escape", "n"], ["escape", "f1"], ["escape", "question_mark"])
            for keys in screens:
                await pilot.press(*keys)
                await pilot.pause()
        for game in game_ids():
            board_for(game)

    asyncio.run(run())
    games = sorted(m for m in sys.modules if m.startswith("engine.")
                   and (m.split(".")[-1] in ("game", "bots") or m in ("engine.registry",
                                                                       "engine.simulate")))
    print("loaded:", games)
""")


def test_the_app_loads_no_game():
    """Every tui module imported, the app started (lobby, quick play, host form, rules, keys)
    and every game's board loaded: no `engine.<game>.game` is, only the catalogue."""
    out = subprocess.run([sys.executable, "-c", APP_RUN], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip().splitlines()[-1] == "loaded: []", out.stdout


def imported_modules(path) -> set[str]:
    """Every module a source file imports, inner imports included, read from its syntax."""
    import ast

    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package, forbidden", [
    ("games", ("tui.screens",)),
    ("widgets", ("tui.screens", "tui.games")),
])
def test_games_and_widgets_never_import_the_screens(package, forbidden):
    """The screens build on the games' boards and the shared widgets (dialogs included), never
    the other way: no import cycle, at the top of a module or inside a function."""
    from pathlib import Path

    root = Path(tui.games.__file__).parent.parent / package
    wrong = {
        f"{path.relative_to(root.parent)} imports {module}"
        for path in root.rglob("*.py")
        for module in imported_modules(path)
        if module.startswith(forbidden)
    }
    assert not wrong

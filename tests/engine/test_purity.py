"""The engine is pure: each of its modules imports in a fresh interpreter without loading any
outer layer (asyncio, msgpack, textual, zeroconf)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import engine

FORBIDDEN = ("asyncio", "msgpack", "textual", "zeroconf")

ENGINE_MODULES = sorted(
    {"engine"} | {m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")}
)


def test_every_game_module_is_found():
    for cls in engine.GAMES.values():
        assert cls.__module__ in ENGINE_MODULES
    assert {"engine.core", "engine.registry", "engine.simulate"} <= set(ENGINE_MODULES)


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_module_imports_no_outer_layer(module):
    code = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        f"print(sorted(set({FORBIDDEN!r}) & {{m.split('.')[0] for m in sys.modules}}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"{module} loads {out.stdout.strip()}"

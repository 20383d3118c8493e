"""The headless modules of the TUI never import textual (Harlequin's layering test)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEADLESS = [
    "tui.address",
    "tui.config",
    "tui.backend",
    "tui.launch",
    "tui.cli",
    "tui.commands.join",
    "tui.commands.watch",
    "tui.models.seats",
    "tui.models.timebomb",
    "tui.tables",
]


@pytest.mark.parametrize("module", HEADLESS)
def test_headless_module_does_not_import_textual(module):
    code = f"import sys, {module}; print(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", f"{module} pulls in textual"


def test_gaslight_help_stays_light():
    """`gaslight --help` loads neither textual nor zeroconf, so it answers at once."""
    code = (
        "import sys, contextlib, io\n"
        "from tui.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'zeroconf'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

"""The unit suite's short soak: `benchmarks/soak.py` for about 30 seconds, in its own xdist
group so that it does not share a worker with the other timing-sensitive tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.xdist_group("soak")


def test_a_short_soak_completes_every_game_without_errors_or_memory_growth():
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--tables", "10",
         "--duration", "25", "--warmup", "8", "--client-processes", "2"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("error frames:      0; lost links: 0; host warnings: 0; stalled clients: 0"
            in result.stdout)
    assert "every table ended over" in result.stdout

"""Once the app is up, the cycle collector walks only what came after, and less often
(tui/collector.py): checked in a fresh interpreter, since the collector is the process's."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tui.collector import YOUNG_THRESHOLD

SCRIPT = textwrap.dedent("""
    import asyncio, gc, json
    from support.offline import offline_app
    from tui.collector import settle_collector

    async def main():
        before = gc.get_freeze_count(), gc.get_threshold()[0]
        app = offline_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            ready = gc.get_freeze_count(), gc.get_threshold()[0]
            settle_collector()  # a second app in the same process, say
            again = gc.get_freeze_count()
        print(json.dumps({"before": before, "ready": ready, "again": again}))

    asyncio.run(main())
""")


def test_the_app_sets_the_collector_aside_once_its_first_screen_is_up(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path,
                          env={"PYTHONPATH": ":".join(sys.path), "HOME": str(tmp_path),
                               "XDG_CONFIG_HOME": str(tmp_path / "config"),
                               "XDG_DATA_HOME": str(tmp_path / "data")})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == [0, 700]
    frozen, threshold = seen["ready"]
    assert frozen > 10_000  # the modules and classes loaded, at least
    assert threshold == YOUNG_THRESHOLD
    assert seen["again"] == frozen

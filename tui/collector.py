"""Python's cycle collector set for an app that draws frames: its pauses short and rare.

With the interpreter's defaults, a Textual app's caches and screens make the collector walk
the whole heap every few dozen key presses, and a full collection walks every object the
process holds, each module and class included: 80-150 ms at 80x24 while the replay
benchmark stepped, longer than a step's whole redraw, and the steps it fell on were its p95.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""New container objects (net of those freed) before a young collection; the default 700
makes one every few frames, and every tenth of those every tenth time a full one. A young
collection over 10,000 objects takes a tenth of a millisecond here."""


def settle_collector() -> None:
    """Once the app is up: set aside what it has loaded so far (modules, classes, the first
    screen, which live as long as the process), so full collections walk only what came
    after, and collect young objects less often. Once a process: what a later app (a test's)
    holds at its start is not there for good."""
    if gc.get_freeze_count():
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)

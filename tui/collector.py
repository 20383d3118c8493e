"""Python's cycle collector set for an app that draws frames: its pauses short and rare.

With the interpreter's defaults, a Textual app's caches and screens make the collector walk
the whole heap every few dozen key presses, and a full collection walks every object the
process holds, each module and class included: 80-150 ms (load 2-4) while the replay
benchmark stepped at 80x24, longer than a step's whole redraw, and the steps it fell on were
its p95.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""New container objects (net of those freed) before a young collection. The default, 700,
makes one every few frames, and every hundredth collection a full one. At 10,000 a full
collection comes about fourteen times less often; the price is longer young ones: stepping
the replay benchmark (load 0.8) they took up to 5-8 ms, and one in ten, which also walks the
middle generation, up to 36 ms, against 80-150 ms for a full one before."""


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

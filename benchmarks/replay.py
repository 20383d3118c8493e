"""Stepping through a replay at 80x24: from a key to the first frame that shows the step whole.

    uv run python benchmarks/replay.py [--seeds 30] [--steps 60]

For each game, bots play `--seeds` games at the game's largest table and the longest is kept
(the longest game of each kind the bots make). It opens as a replay file would: a replay host
on 127.0.0.1 in this process and the real app's replay screen, headless (Textual's `run_test`)
at 80x24. Then `--steps` presses of → (and as many of ← back), through a seat's eyes and
through everything.

What a step's time is: from the key's delivery to the app (sent through the driver, as a
terminal's key would be) to the end of the first paint whose frame shows the new step whole.
Each paint is what Textual's compositor hands the driver (`App._display`); headless, Textual
skips turning it into the terminal's bytes, so the benchmark does that itself, inside the
time (`render_segments`, what a terminal's driver writes). The step is whole when the screen
the compositor holds after that paint (board, log, chat, status bar, footer: every cell and
its style) equals the frame of the same step in a first, untimed pass through the same keys,
where each step was left to settle completely. So the time holds the request to the replay
host and its answer, the screen's handlers, every layout and every paint until the step is
all there, and nothing of the test harness: no idle waits (Pilot's `press` sleeps until the
process is idle, 40 ms or more), no polling. The time spent comparing frames is taken out.
The app is left to settle between presses, as between a person's key presses.

Printed per game: its length, and for each eyes the median, p95 and max milliseconds, and the
layouts and paints a step took (mean). The goal (issue 24) is under 50 ms. Quote the load
average (printed) with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from netplay.game_record import GameRecord, Move, Player  # noqa: E402

GOAL_MS = 50.0
EYES = ((0, "1"), ("all", "a"))
"""Through seat 1's eyes, then through everything: the key that picks each."""


def longest_game(kind: str, seeds: int) -> GameRecord:
    cls = engine.GAMES[kind]
    players = cls.max_players
    best: tuple[int, int, list] | None = None
    for seed in range(seeds):
        game = engine.new_game(kind, players, {}, seed)
        rng = random.Random(seed)
        bot = cls.BOTS.get("smart", cls.BOTS["random"])
        while game.outcome is None:
            seat = min(game.to_act())
            legal = [a for a in game.legal_actions(seat) if a["type"] not in game.FREE_ACTIONS]
            game.apply(seat, bot(game.view(seat), legal, rng))
        if best is None or len(game.history) > best[0]:
            best = (len(game.history), seed, list(game.history))
    assert best is not None
    _, seed, history = best
    now = time.time()
    return GameRecord(
        game="bench000-1", table="bench000", name="Benchmark", kind=kind, players=players,
        options=cls.validate_options(players, {}), seed=seed, bot_level="smart",
        turn_timer=0, started=now,
        seats=[Player(f"Player {i + 1}", "human" if i == 0 else "bot") for i in range(players)],
        moves=[Move(s, a, now + i, "bot") for i, (s, a) in enumerate(history)])


class Terminal:
    """What a terminal shows: every cell's character and style, as the paints wrote them.

    Built from the paints themselves (each `CompositorUpdate` is a list of cursor moves and
    styled text), so checking a frame touches nothing of the app: no widget renders a line for
    it. Styles are kept without Textual's mouse metadata, which a terminal never sees."""

    def __init__(self, width: int, height: int) -> None:
        self.cells = [[(" ", None)] * width for _ in range(height)]
        self.styles: dict[Any, Any] = {}

    def apply(self, update: Any, console: Any) -> None:
        from rich.segment import ControlType

        x = y = 0
        cells, styles = self.cells, self.styles
        for segment in update.__rich_console__(console, console.options):
            if segment.control:
                for control in segment.control:
                    if control[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = control[1], control[2]
                continue
            if segment.text == "\n":
                continue
            style = segment.style
            if style not in styles:
                styles[style] = style.clear_meta_and_links() if style else None
            plain = styles[style]
            row = cells[y] if 0 <= y < len(cells) else None
            for character in segment.text:
                if row is not None and 0 <= x < len(row):
                    row[x] = (character, plain)
                x += 1

    def frame(self) -> Frame:
        return tuple(tuple((character, style_number(style)) for character, style in row)
                     for row in self.cells)


Frame = tuple[tuple[tuple[str, int], ...], ...]
"""Each cell's character and its style's number. Numbers, not the styles: a frame of strings
and ints is no work for Python's cycle collector, while one of style objects is 1,920 tracked
tuples, and the reference frames of a run (one per step) would triple the heap every full
collection in the app walks, making the pauses the timed steps see the benchmark's own."""

STYLE_NUMBERS: dict[Any, int] = {}


def style_number(style: Any) -> int:
    return STYLE_NUMBERS.setdefault(style, len(STYLE_NUMBERS))


def frame_text(frame: Frame) -> list[str]:
    return ["".join(text for text, _ in line) for line in frame]


class Watch:
    """Times the paints: from `start` to the end of the first paint after which the terminal
    shows `expected`."""

    def __init__(self, app: Any) -> None:
        from textual._compositor import CompositorUpdate
        from textual.screen import Screen

        self.app = app
        self.terminal = Terminal(*app.size)
        self.expected: Frame | None = None
        self.started = 0.0
        self.checking = 0.0
        self.done: asyncio.Future[float] | None = None
        self.paints = self.layouts = 0
        display = app._display

        def timed_display(screen: Screen, renderable: Any) -> None:
            display(screen, renderable)
            if not isinstance(renderable, CompositorUpdate) or app._batch_count:
                return  # nothing was painted
            renderable.render_segments(app.console)  # the bytes a terminal would be sent
            self.painted(renderable, time.perf_counter())

        app._display = timed_display

    def count_layouts(self, screen: Any) -> None:
        layout = screen._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            if self.done is not None and not self.done.done():
                self.layouts += 1
            layout(*args, **kwargs)

        screen._refresh_layout = counted

    def start(self, expected: Frame) -> None:
        self.expected, self.checking = expected, 0.0
        self.paints = self.layouts = 0
        self.done = asyncio.get_running_loop().create_future()
        self.started = time.perf_counter()

    def painted(self, update: Any, ended: float) -> None:
        checked = time.perf_counter()
        self.terminal.apply(update, self.app.console)
        if self.done is None or self.done.done():
            return
        self.paints += 1
        if self.terminal.frame() == self.expected:
            self.done.set_result((ended - self.started - self.checking) * 1000)
        else:
            self.checking += time.perf_counter() - checked


def key_event(key: str) -> Any:
    from textual import events

    return events.Key(key, None)


async def run(record: GameRecord, steps: int, data: Path,
              expected: dict[tuple, Frame] | None) -> dict[str, list[tuple[float, int, int]]]:
    """Step through `record`. Without `expected`: untimed, every step settled, and its frame
    kept in a new `expected`. With it: each step timed to its expected frame."""
    from tui.backend import Backend
    from tui.commands.replay import replay_app
    from tui.screens.replay import ReplayScreen

    app = replay_app(Backend(interfaces=["127.0.0.1"], data_dir=data, discover=False), record)
    frames: dict[tuple, Frame] = {}
    times: dict[str, list[tuple[float, int, int]]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        watch = Watch(app)

        async def drawn(step: int, eyes: Any) -> None:
            while not (isinstance(app.screen, ReplayScreen) and app.screen.drawn == (step, eyes)):
                await asyncio.sleep(0.001)

        async def settle() -> None:
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            await asyncio.sleep(0.05)
            await pilot.pause()

        async with asyncio.timeout(30):
            await drawn(0, "spectator")
        watch.count_layouts(app.screen)
        app.screen.refresh()  # a whole frame, to start the terminal from
        await settle()
        for eyes, key in EYES:
            await pilot.press(key)
            async with asyncio.timeout(30):
                await drawn(0, eyes)
            await settle()
            count = min(steps, len(record.moves))
            for index, step in enumerate([*range(1, count + 1), *range(count - 1, -1, -1)]):
                press = "right" if index < count else "left"
                if expected is None:
                    app._driver.send_message(key_event(press))
                    async with asyncio.timeout(30):
                        await drawn(step, eyes)
                    await settle()
                    frames[(eyes, index)] = watch.terminal.frame()
                    continue
                watch.start(expected[(eyes, index)])
                app._driver.send_message(key_event(press))
                try:
                    async with asyncio.timeout(30):
                        spent = await watch.done
                except TimeoutError:
                    shown = frame_text(watch.terminal.frame())
                    wanted = frame_text(expected[(eyes, index)])
                    raise SystemExit(f"{record.kind} eyes {eyes} step {step}: no paint showed "
                                     f"the settled frame.\nwanted:\n" + "\n".join(wanted)
                                     + "\nlast painted:\n" + "\n".join(shown))
                times.setdefault(str(eyes), []).append((spent, watch.layouts, watch.paints))
                await settle()
    if expected is None:
        return {"frames": frames}  # type: ignore[dict-item]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--games", nargs="*", default=list(engine.GAMES),
                        help="which games (default: all four)")
    args = parser.parse_args()
    os.environ.setdefault("GASLIGHT_CONFIG_DIR", tempfile.mkdtemp(prefix="gaslight-bench-"))
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for kind in args.games:
        record = longest_game(kind, args.seeds)
        with tempfile.TemporaryDirectory() as data:
            expected = asyncio.run(run(record, args.steps, Path(data), None))["frames"]
        with tempfile.TemporaryDirectory() as data:
            times = asyncio.run(run(record, args.steps, Path(data), expected))  # type: ignore[arg-type]
        for eyes, measured in times.items():
            spent = sorted(ms for ms, _, _ in measured)
            layouts = statistics.mean(n for _, n, _ in measured)
            paints = statistics.mean(n for _, _, n in measured)
            p95 = spent[max(0, int(len(spent) * 0.95) - 1)]
            verdict = "ok" if p95 < GOAL_MS else "MISSED"
            print(f"{kind:20} {record.players:2} players, {len(record.moves):4} steps, eyes "
                  f"{eyes:>3}: median {statistics.median(spent):5.1f} ms, p95 {p95:5.1f} ms, "
                  f"max {spent[-1]:5.1f} ms, {layouts:.1f} layouts and {paints:.1f} paints a "
                  f"step ({len(spent)} steps) {verdict}")
        sys.stdout.flush()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

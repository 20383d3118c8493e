"""Stepping through a replay at 80x24: how long from a key to the next step drawn whole.

    uv run python benchmarks/replay.py [--seeds 30] [--steps 60]

For each game, bots play `--seeds` games at the game's largest table and the longest is kept
(the longest game of each kind the bots make). It opens as a replay file would: a replay host
on 127.0.0.1 in this process and the real app's replay screen, headless (Textual's `run_test`)
at 80x24. Then `--steps` presses of → (and as many of ← back), each timed from the key to the
step drawn whole (board, log, chat and status bar), through a seat's eyes and through
everything. Printed per game: its length, and the median, p95 and max milliseconds. The goal
(issue 24) is under 50 ms. Quote the load average (printed) with the figures.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from netplay.game_record import GameRecord, Move, Player  # noqa: E402

GOAL_MS = 50.0


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


async def measure(record: GameRecord, steps: int, data: Path) -> dict[str, list[float]]:
    from tui.backend import Backend
    from tui.screens.replay import ReplayScreen, replay_app

    app = replay_app(Backend(interfaces=["127.0.0.1"], data_dir=data, discover=False), record)
    times: dict[str, list[float]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        async def drawn(step: int, eyes) -> None:
            while not (isinstance(app.screen, ReplayScreen) and app.screen.drawn == (step, eyes)):
                await asyncio.sleep(0.0005)

        await asyncio.wait_for(drawn(0, "spectator"), 30)
        for eyes, key in ((0, "1"), ("all", "a")):
            await pilot.press(key)
            await asyncio.wait_for(drawn(0, eyes), 30)
            spent = times.setdefault(f"{eyes}", [])
            count = min(steps, len(record.moves))
            for step in [*range(1, count + 1), *range(count - 1, -1, -1)]:
                started = time.perf_counter()
                await pilot.press("right" if step > app.screen.step else "left")
                await asyncio.wait_for(drawn(step, eyes), 30)
                spent.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    os.environ.setdefault("GASLIGHT_CONFIG_DIR", tempfile.mkdtemp(prefix="gaslight-bench-"))
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for kind in engine.GAMES:
        record = longest_game(kind, args.seeds)
        with tempfile.TemporaryDirectory() as data:
            times = asyncio.run(measure(record, args.steps, Path(data)))
        for eyes, spent in times.items():
            spent.sort()
            p95 = spent[int(len(spent) * 0.95) - 1]
            verdict = "ok" if p95 < GOAL_MS else "MISSED"
            print(f"{kind:20} {record.players:2} players, {len(record.moves):4} steps, eyes "
                  f"{eyes:>3}: median {statistics.median(spent):5.1f} ms, p95 {p95:5.1f} ms, "
                  f"max {spent[-1]:5.1f} ms ({len(spent)} steps) {verdict}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""Each benchmark runs with its shortest settings and prints its figures: the long runs in
`benchmarks/` stay runnable as the code under them changes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
MILLISECONDS = r"\d+\.\d\d ms"


def run(script: str, *arguments: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *arguments],
                          capture_output=True, text=True, timeout=60, cwd=BENCHMARKS.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.xdist_group("benchmarks")
def test_latency_prints_p50_and_p99_per_table_size():
    out = run("latency.py", "--players", "4", "--runs", "1", "--actions", "5", "--warmup", "0")
    assert "timebomb at 4 players" in out
    assert re.search(r"this machine's own stalls, a busy thread, 2 s: (no stall|\d+ stalls)", out)
    assert re.search(rf"action to last view, p50: {MILLISECONDS}", out)
    assert re.search(rf"action to last view, p99: {MILLISECONDS}", out)


@pytest.mark.xdist_group("benchmarks")
def test_capacity_prints_each_step_and_the_verdict():
    out = run("capacity.py", "--tables", "2", "--runs", "1", "--duration", "1", "--warmup",
              "0.2", "--think", "0.05")
    assert re.search(rf"   2 tables: p50 +{MILLISECONDS}, p99 +{MILLISECONDS}", out)
    assert re.search(r"host memory \d+ KiB per table", out)
    assert out.splitlines()[-1].startswith("capacity: ")


def test_frames_prints_a_row_per_player_count_and_mode():
    out = run("frames.py", "--game", "timebomb", "--games", "1", "--flood", "3")
    rows = [line.split() for line in out.splitlines() if line.startswith("timebomb ")]
    assert [(int(row[1]), row[2]) for row in rows] == [
        (players, mode) for players in range(4, 9) for mode in ("plain", "flood")]
    assert all(int(row[4]) > 0 for row in rows)
    assert re.search(r"largest frame: \d+ bytes, within the 16384-byte bound", out)


@pytest.mark.xdist_group("benchmarks")
def test_bot_decisions_prints_each_games_percentiles():
    out = run("bot_decisions.py", "--games", "1", "--runs", "1")
    for game_id in ("timebomb", "timebomb_evolution", "machinations", "holmes"):
        for bot in engine.GAMES[game_id].BOTS:
            assert re.search(rf"^{re.escape(game_id)} +{bot} +\d+ +\d+ +\d+\.\d\d +\d+\.\d\d",
                             out, re.M), (game_id, bot)


@pytest.mark.xdist_group("benchmarks")
def test_bots_prints_each_games_cross_table_with_intervals():
    out = run("bots.py", "--games", "2")
    assert re.search(r"load average at start: [\d.]+ [\d.]+ [\d.]+", out)
    for title in ("Time Bomb, 5 players", "Time Bomb Évolution, 5 players",
                  "Moriarty's Machinations, 8 players", "Holmes: Sherlock & Mycroft"):
        assert title in out
    # Every cell of the Time Bomb table: a rate and its 95% interval.
    rows = [line for line in out.splitlines() if line.startswith(("smart ", "reference "))]
    assert all(len(re.findall(r"\d+\.\d% ±\d+\.\d%", row)) >= 2 for row in rows) and rows


@pytest.mark.xdist_group("benchmarks")
def test_random_sim_plays_every_combination_of_a_game():
    out = run("random_sim.py", "--seeds", "1", "--game", "timebomb")
    assert re.search(r"^timebomb +4 +first_player=random-claims=True +1 games", out, re.M)
    assert out.splitlines()[-1].startswith("26 combinations, 1 seeds each, every invariant held")


@pytest.mark.xdist_group("benchmarks")
def test_replay_times_each_step_to_its_whole_frame():
    out = run("replay.py", "--seeds", "1", "--steps", "2", "--games", "timebomb")
    for eyes in ("0", "all"):
        assert re.search(rf"^timebomb +8 players, +\d+ steps, eyes +{eyes}: median +\d+\.\d ms, "
                         rf"p95 +\d+\.\d ms, max +\d+\.\d ms, \d+\.\d layouts and \d\.\d paints a "
                         rf"step \(4 steps\) (ok|MISSED)$", out, re.M), out

"""How strong each game's bots are: a cross table per game, win rates with 95% intervals.

    uv run python benchmarks/bots.py [--games 4000] [--game timebomb] [--jobs 2]

Every game is played by `engine.simulate.play`, which asks bots exactly as the host does
(claims after every deal included), and every bot sees only its own seat's view.

- Time Bomb and Évolution, 5 players: one bot plays Sherlock's team (rows) and one Moriarty's
  (columns); a cell is Sherlock's win rate. Besides the game's own levels, "silent" cuts at
  random and never claims, "truthful" cuts at random and claims the truth after each deal, and
  (Time Bomb) "reference" is the public reference bot (benchmarks/timebomb_reference.py).
- Machinations, 8 players (Irene is at the table): each team in turn is played by the smart
  bot among random ones, then by the random bot among smart ones, next to the all-random and
  all-smart tables; a cell is a team's win rate.
- Holmes: the row bot against the column bot, seats alternating; a cell is the row bot's win
  rate (draws count half).

Game i of a cell uses seed i, so cells of a column meet the same deals.

`--people` prints instead how bots share the Wire Cutter with people (Time Bomb and Évolution,
5 players: 2 smart bots in random seats and 3 people, who cut at random and either claim the
truth after every deal or never claim, saying their wires out loud where bots cannot hear): at
each bot's cut, the share of the wires it may cut that people hold, against whether it cut a
person. Goal (issue 22): within 10 points when people claim the truth, 20 when they never do.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engine  # noqa: E402
from engine.bots import Bot  # noqa: E402
from engine.core import random_bot  # noqa: E402
from engine.simulate import play  # noqa: E402
from engine.timebomb.bots import novice_speak  # noqa: E402
from timebomb_reference import REFERENCE  # noqa: E402

SILENT = Bot(random_bot(frozenset({"claim"})))
TRUTHFUL_TIMEBOMB = Bot(SILENT.act, novice_speak)


def _truthful_evolution(view, legal_actions, rng):
    if view["claims"][view["viewer"]] is not None:
        return None
    mine = view["hand"]
    return {"type": "claim", "defusing": mine["defusing"], "colour": ""}


BENCH_BOTS: dict[str, dict[str, Bot]] = {
    "timebomb": {"silent": SILENT, "truthful": TRUTHFUL_TIMEBOMB, "reference": REFERENCE},
    "timebomb_evolution": {"silent": SILENT, "truthful": Bot(SILENT.act, _truthful_evolution)},
}


@dataclass(frozen=True)
class Table:
    game: str
    players: int
    options: dict
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    kind: str
    """"teams" (row plays Sherlock, column Moriarty), "roles" (Machinations), "duel" (Holmes)."""


TABLES = {
    "timebomb": Table("timebomb", 5, {}, ("silent", "truthful", "novice", "reference", "smart"),
                      ("silent", "truthful", "novice", "reference", "smart"), "teams"),
    "timebomb_evolution": Table("timebomb_evolution", 5, {},
                                ("silent", "truthful", "novice", "smart"),
                                ("silent", "truthful", "novice", "smart"), "teams"),
    "machinations": Table("machinations", 8, {},
                          ("all random", "robbers", "cops", "neutral", "all smart",
                           "random robbers", "random cops", "random neutral"),
                          ("robbers", "cops", "neutral"), "roles"),
    "holmes": Table("holmes", 2, {}, ("smart", "lookahead", "random"),
                    ("random", "lookahead", "smart"), "duel"),
}


def bot(game_id: str, name: str) -> Bot:
    return BENCH_BOTS.get(game_id, {}).get(name) or engine.GAMES[game_id].BOTS[name]


def play_teams(table: Table, row: str, column: str, seed: int) -> float:
    """Sherlock's result (1 or 0) with `row` for Sherlock's team and `column` for Moriarty's."""
    game = engine.new_game(table.game, table.players, table.options, seed)
    sides = {"sherlock": bot(table.game, row), "moriarty": bot(table.game, column)}
    play(game, [sides[team] for team in game.seat_teams()], random.Random(seed))
    return float(game.outcome.winning_team == "sherlock")


def play_roles(table: Table, row: str, seed: int) -> dict[str, float]:
    """Each team's result for a row: "TEAM" plays smart among random bots, "random TEAM"
    plays random among smart ones, "all smart" or "all random"."""
    game = engine.new_game(table.game, table.players, table.options, seed)
    teams = game.seat_teams()
    bots = engine.GAMES[table.game].BOTS
    among, _, odd = row.rpartition(" ")

    def name(team: str) -> str:
        if row in ("all smart", "all random"):
            return row.split()[1]
        if among == "random":
            return "random" if team == odd else "smart"
        return "smart" if team == odd else "random"

    play(game, [bots[name(team)] for team in teams], random.Random(seed))
    won = {teams[s] for s in game.outcome.winners}
    return {team: float(team in won) for team in set(teams)}


def play_duel(table: Table, row: str, column: str, seed: int) -> float:
    game = engine.new_game(table.game, table.players, table.options, seed)
    mine = seed % 2
    names = [row, column] if mine == 0 else [column, row]
    play(game, [bot(table.game, name) for name in names], random.Random(seed))
    if not game.outcome.winners:
        return 0.5
    return float(game.outcome.won(mine))


def run_cell(table: Table, row: str, column: str, games: int) -> list:
    if table.kind == "teams":
        return [play_teams(table, row, column, seed) for seed in range(games)]
    if table.kind == "duel":
        return [play_duel(table, row, column, seed) for seed in range(games)]
    return [play_roles(table, row, seed) for seed in range(games)]


def interval(results: list[float]) -> str:
    """The mean with its 95% interval (normal approximation), as a percentage."""
    if not results:
        return "-"
    n = len(results)
    rate = sum(results) / n
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 0.0) / n)
    return f"{rate:6.1%} ±{half:4.1%}"


def print_table(table: Table, games: int, jobs: int) -> None:
    started = time.perf_counter()
    if table.kind == "roles":
        cells = [(row, "", games) for row in table.rows]
    else:
        cells = [(row, column, games) for row in table.rows for column in table.columns]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {(row, column): pool.submit(run_cell, table, row, column, n)
                   for row, column, n in cells}
        results = {key: future.result() for key, future in futures.items()}
    title = engine.GAMES[table.game].title
    width = 16
    if table.kind == "teams":
        print(f"\n{title}, {table.players} players, {games} games a cell: Sherlock's win rate "
              "(rows: Sherlock's team, columns: Moriarty's team)")
    elif table.kind == "duel":
        print(f"\n{title}, {games} games a cell: the row bot's win rate against the column bot "
              "(draws count half)")
    else:
        print(f"\n{title}, {table.players} players, {games} games a cell: each team's win rate "
              "(rows: a team played smart among random bots, or random among smart ones)")
    print(f"{'':<16}" + "".join(f"{c:>{width}}" for c in table.columns))
    for row in table.rows:
        if table.kind == "roles":
            outcomes = results[row, ""]
            line = []
            for team in table.columns:
                got = [o[team] for o in outcomes if team in o]
                line.append(interval(got))
        else:
            line = [interval(results[row, column]) for column in table.columns]
        print(f"{row:<16}" + "".join(f"{c:>{width}}" for c in line), flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


PEOPLE = {"never claim": "silent", "claim the truth": "truthful"}
"""The people at a `--people` table, by how they claim: their bench bot."""


def people_cell(game_id: str, people: str, games: int) -> tuple[int, int, float]:
    """Over `games` games: (bot cuts, bot cuts that went to a person, the sum over bot cuts of
    the people's share of the wires the bot could cut)."""
    cuts = to_people = 0
    share = 0.0
    smart = engine.GAMES[game_id].BOTS["smart"]
    person = bot(game_id, PEOPLE[people])
    for seed in range(games):
        game = engine.new_game(game_id, 5, {}, seed)
        rng = random.Random(seed)
        bot_seats = set(rng.sample(range(game.players), 2))

        def watched(view, legal_actions, rng):
            nonlocal cuts, to_people, share
            action = smart.act(view, legal_actions, rng)
            if action["type"] == "cut":
                others = [s for s in range(game.players) if s != view["viewer"]]
                wires = sum(view["face_down"][s] for s in others)
                held = sum(view["face_down"][s] for s in others if s not in bot_seats)
                cuts += 1
                to_people += action["target"] not in bot_seats
                share += held / wires
            return action

        watcher = Bot(watched, smart.speak)
        play(game, [watcher if s in bot_seats else person for s in range(game.players)], rng)
    return cuts, to_people, share


def print_people(games: int, jobs: int) -> None:
    started = time.perf_counter()
    cells = [(g, p) for g in ("timebomb", "timebomb_evolution") for p in PEOPLE]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = dict(zip(cells, pool.map(people_cell, *zip(*cells), [games] * len(cells))))
    print(f"\n2 smart bots and 3 people, 5 players, {games} games a row: the share of the bots' "
          "cuts that go to people, against the people's share of the wires a bot may cut")
    print(f"{'game':<22}{'people':<18}{'cuts to people':>16}{'their wires':>13}{'gap':>8}"
          f"{'bot cuts':>10}")
    for (game_id, people), (cuts, to_people, share) in results.items():
        got, due = to_people / cuts, share / cuts
        print(f"{game_id:<22}{people:<18}{got:>16.1%}{due:>13.1%}{100 * (due - got):>6.1f} pt"
              f"{cuts:>10}", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int,
                        help="games a cell (default 4000; 400 a row with --people)")
    parser.add_argument("--game", choices=sorted(TABLES), action="append",
                        help="only this game (repeatable; default: every game)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--people", action="store_true",
                        help="how bots share the Wire Cutter with people, instead of the cross "
                             "tables (--games defaults to 400 here)")
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.people:
        print_people(args.games or 400, args.jobs)
    for game_id in [] if args.people else args.game or list(TABLES):
        print_table(TABLES[game_id], args.games or 4000, args.jobs)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

"""How well the Machinations bots play: each team's win rate with "smart" bots against
"random" ones, next to the all-random baseline.

    uv run python benchmarks/machinations_bots.py [games per cell, default 400]

Until `gaslight simulate` is on main this is the measurement; bots see their own view only.
"""

from __future__ import annotations

import random
import sys
import time

import engine
from engine.machinations.roles import COPS, NEUTRAL, ROBBERS

TEAMS = (ROBBERS, COPS, NEUTRAL)


def play(players: int, seed: int, smart_teams: frozenset[str]) -> tuple[set[str], bool]:
    """One game; returns the teams that won and whether Irene was at the table."""
    game = engine.new_game("machinations", players, {}, seed)
    teams = game.seat_teams()
    bots = {
        seat: engine.GAMES["machinations"].BOTS["smart" if team in smart_teams else "random"]
        for seat, team in enumerate(teams)
    }
    rngs = [random.Random(seed * 100 + seat) for seat in range(players)]
    while game.outcome is None:
        for seat in sorted(game.to_act()):
            if game.outcome is not None:
                break
            if seat not in game.to_act():
                continue
            action = bots[seat](game.view(seat), game.legal_actions(seat), rngs[seat])
            game.apply(seat, action)
    won = {teams[s] for s in game.outcome.winners}
    return won, NEUTRAL in teams


def table(games: int) -> None:
    setups = {
        "all random": frozenset(),
        "smart Robbers": frozenset({ROBBERS}),
        "smart Cops": frozenset({COPS}),
        "smart Irene": frozenset({NEUTRAL}),
        "all smart": frozenset(TEAMS),
    }
    print(f"Win rates over {games} games per cell (Robbers / Cops / Irene where present)")
    print(f"{'N':>3}  " + "  ".join(f"{name:>22}" for name in setups))
    started = time.perf_counter()
    for players in range(5, 11):
        cells = []
        for smart in setups.values():
            wins = {team: 0 for team in TEAMS}
            irene_games = 0
            for seed in range(games):
                won, irene = play(players, seed, smart)
                irene_games += irene
                for team in won:
                    wins[team] += 1
            cell = f"{wins[ROBBERS] / games:.2f}/{wins[COPS] / games:.2f}"
            cell += f"/{wins[NEUTRAL] / irene_games:.2f}" if irene_games else "/  - "
            cells.append(cell)
        print(f"{players:>3}  " + "  ".join(f"{c:>22}" for c in cells), flush=True)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    table(int(sys.argv[1]) if len(sys.argv) > 1 else 400)

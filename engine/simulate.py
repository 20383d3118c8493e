"""Bot-only games played in-process, for strength and balance figures (`gaslight simulate`).

The runner is pure: no I/O and no clock. It meets the games only through the public contract
(`new_game`, `to_act`, `legal_actions`, `view`, `apply`, `outcome`), so it works for every game
in `engine.GAMES`, and it hands each bot nothing but its own seat's view and legal actions.
Which bot plays which seat comes from `Game.seat_teams()`, so each team may get its own bot.
Timing and progress display belong to the caller, through the `progress` callback.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Mapping

from engine.bots import Bot, BotError, BotTurns, Choose, as_bot
from engine.core import Game, InvalidSetup
from engine.registry import game_class, new_game

__all__ = ["BotError", "SimulationResult", "parse_bots", "play", "simulate"]


@dataclass
class SimulationResult:
    game: str
    players: int
    games: int
    bots: dict[str, str]
    """Each team's bot name."""
    seed: int
    team_seats: Counter[str] = field(default_factory=Counter)
    """Seats each team held, summed over the games (their average is the team's size)."""
    wins: Counter[str] = field(default_factory=Counter)
    """Games each team won."""
    reasons: Counter[str] = field(default_factory=Counter)
    """How the games ended: `Outcome.reason` counts."""
    actions: int = 0
    """Actions applied, free ones included."""

    def win_rate(self, team: str) -> float:
        return self.wins[team] / self.games if self.games else 0.0

    @property
    def teams(self) -> list[str]:
        return sorted(self.team_seats)


def parse_bots(spec: str | Mapping[str, str], game_id: str) -> dict[str, str] | str:
    """`"smart"` (every team) or `"sherlock=smart,moriarty=random"`, checked against the game's
    bots. Returns the bot name, or a map of team to bot name."""
    cls = game_class(game_id)
    if isinstance(spec, Mapping):
        pairs = dict(spec)
    elif "=" not in spec:
        _check_bot(cls, spec.strip())
        return spec.strip()
    else:
        pairs = {}
        for part in spec.split(","):
            team, sep, bot = part.partition("=")
            team, bot = team.strip(), bot.strip()
            if not sep or not team or not bot:
                raise InvalidSetup(f"cannot read {part!r}: write TEAM=BOT, e.g. sherlock=smart")
            if team in pairs:
                raise InvalidSetup(f"team {team!r} is given twice")
            pairs[team] = bot
    for bot in pairs.values():
        _check_bot(cls, bot)
    return pairs


def _check_bot(cls: type[Game], bot: str) -> None:
    if bot not in cls.BOTS:
        raise InvalidSetup(
            f"{cls.title} has no bot {bot!r}; its bots are: " + ", ".join(sorted(cls.BOTS))
        )


def simulate(
    game_id: str,
    players: int,
    games: int,
    bots: str | Mapping[str, str] = "random",
    seed: int = 0,
    options: Mapping | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play `games` bot-only games and count who won and how.

    Game i uses seed `seed + i` for the deal and its own `random.Random` for the bots, so any
    single game can be replayed. `bots` is one bot name for every seat, or a map of team to bot
    name (teams not named play "random"). `progress(done)` is called after every game.
    """
    if type(games) is not int or games < 0:
        raise InvalidSetup(f"the number of games must be a whole number >= 0, not {games!r}")
    cls = game_class(game_id)
    chosen = parse_bots(bots, game_id)
    per_team = chosen if isinstance(chosen, dict) else {}
    default_bot = "random" if per_team else chosen
    if per_team:
        known = set(new_game(game_id, players, options, seed).seat_teams())
        unknown = sorted(set(per_team) - known)
        if unknown:
            raise InvalidSetup(
                f"{cls.title} has no team {unknown[0]!r}; its teams are: " + ", ".join(sorted(known))
            )
    result = SimulationResult(game_id, players, games, {}, seed)
    for i in range(games):
        game = new_game(game_id, players, options, seed + i)
        teams = game.seat_teams()
        seat_bots = [cls.BOTS[per_team.get(team, default_bot)] for team in teams]
        for team in teams:
            result.bots.setdefault(team, per_team.get(team, default_bot))
            result.team_seats[team] += 1
        result.actions += play(game, seat_bots, random.Random(seed + i))
        outcome = game.outcome
        result.reasons[outcome.reason] += 1
        for team in {outcome.teams[s] for s in outcome.winners}:
            result.wins[team] += 1
        if progress is not None:
            progress(i + 1)
    return result


def play(game: Game, seat_bots: list[Bot | Choose], rng: random.Random) -> int:
    """Play `game` to its end with one bot per seat, asked exactly as the host asks its bots
    (`engine.bots.BotTurns`); return the number of actions applied, free ones included."""
    turns = BotTurns(game)
    bots = {seat: as_bot(bot) for seat, bot in enumerate(seat_bots)}
    applied = 0
    while game.outcome is None:
        move = turns.next_move(bots, rng)
        if move is None:
            raise BotError(f"the game waits for nobody but is not over: {game!r}")
        try:
            game.apply(move.seat, move.action)
        except ValueError as error:
            raise BotError(f"seat {move.seat}'s bot chose {move.action!r}: {error}") from error
        applied += 1
    return applied

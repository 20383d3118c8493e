"""The group's record across evenings: each player's games, wins per game and role, and a
rating per game, made from the replay files a person keeps (`tui.kept_games`), never stored as
a second truth, so it can always be made again.

Who is who. A person is told apart by the id their app proved at the table
(`netplay.person`), which each game's record keeps with the seat: two friends both called Ann
are two players, each shown with the first digits of their id beside the name, and one person
who changed their name is one player, under the name they used last. A seat whose app proved
no id (a record of protocol 4) is known by its name alone. A bot is a player too, one per game
and level, under its level's name ("Inspector (bot)"); a bot covering an away person's seat
plays for that person. The hosts are trusted for what happened at their tables: a record says
who played, and the game's own moves say who won.

The ratings. Each game kind has its own, OpenSkill's Plackett-Luce model (many players, teams
of unequal size), updated game by game in the order the games ended: the seats of a game are
grouped by their role at the end and whether they won (Time Bomb's Sherlock team, Moriarty's
team...), the winners ranked first. A player starts at the model's own (mu 25, sigma 25/3),
and the uncertainty, sigma, is shown beside mu. A bot level with several seats in one game is
one player in several places: each seat is rated as a copy of the level, and the level moves
by the mean of the copies' changes.

Reading a file plays its game through the engine to its end, as `netplay.replay_file` does
when it is opened, so a damaged file is a problem named in words, never a wrong record.
"""

from __future__ import annotations

import contextlib
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import engine
from engine.catalogue import CATALOGUE
from netplay.game_record import GameRecord, RecordError
from netplay.replay_file import MAX_FILE, SUFFIX, ReplayFileError, record_in
from netplay.table import BOT

SEAT_NUMBER: Final = re.compile(r" \(\d+\)$")
"""How a host tells apart two seats of one name at a table ("Ann (2)"): not the person's
name, which the record shows."""
ID_SHOWN: Final = 4
"""Hex digits of a person's id shown beside a name that two players share."""


@dataclass(frozen=True, slots=True)
class Seat:
    player: str
    """Who played it, as the record tells players apart (`player_key`)."""
    name: str
    role: str
    """The seat's team or role, as the end revealed it."""
    won: bool


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One kept game, as the record reads it: who played, in which role, and who won."""

    game: str
    kind: str
    ended: float
    seats: tuple[Seat, ...]
    table: str = ""
    """The table it was played at, and that table's name: a table's games are its evening."""
    table_name: str = ""


@dataclass
class Standing:
    """One player's record at one game kind."""

    player: str
    name: str
    games: int = 0
    wins: int = 0
    roles: dict[str, list[int]] = field(default_factory=dict)
    """For each role: games played in it, and won."""
    mu: float = 0.0
    sigma: float = 0.0
    last: float = 0.0
    """When they last played it: the name shown is the one used then."""

    @property
    def ordinal(self) -> float:
        """The rating one may be sure of: mu less three sigmas, how the players are ordered."""
        return self.mu - 3 * self.sigma


@dataclass
class GroupRecord:
    """Every game kind's standings, best rated first, and the kept files that could not be
    read (each a line saying which and why)."""

    games: dict[str, list[Standing]]
    played: int
    problems: list[str]


def player_key(record: GameRecord, seat: int) -> tuple[str, str]:
    """Who played `seat`, as the record tells players apart, and the name they went by."""
    player = record.seats[seat]
    if player.kind == BOT:
        info = CATALOGUE.get(record.kind)
        level = record.bot_level
        with contextlib.suppress(Exception):
            level = info.bot_level(record.bot_level).name if info else level
        return f"bot:{record.bot_level}", f"{level} (bot)"
    name = SEAT_NUMBER.sub("", player.name)
    if player.person:
        return f"person:{player.person}", name
    return f"name:{name.casefold()}", name


def played_game(record: GameRecord) -> PlayedGame:
    """The game a record holds, played through the engine to its end; RecordError if it does
    not end."""
    try:
        game = engine.replay(record.kind, record.players, record.options, record.seed,
                             ((move.seat, move.action) for move in record.moves))
    except (engine.IllegalAction, engine.InvalidSetup, KeyError, ValueError,
            TypeError) as error:
        raise RecordError(f"the engine cannot play it again: {error}") from None
    outcome = game.outcome
    if outcome is None:
        raise RecordError("its moves stop before the end")
    seats = []
    for number in range(record.players):
        key, name = player_key(record, number)
        role = outcome.teams[number] if number < len(outcome.teams) else ""
        seats.append(Seat(key, name, str(role), outcome.won(number)))
    moves = record.moves
    ended = next((m.time for m in reversed(moves) if m.time is not None), record.started)
    return PlayedGame(record.game, record.kind, float(ended or 0.0), tuple(seats),
                      record.table, record.name)


def read_folder(folders: Iterable[Path | str]) -> tuple[list[PlayedGame], list[str]]:
    """Every game kept in the replay files of `folders` (each game once, however many files
    hold it), oldest first, and a line for each file that could not be read."""
    games: dict[str, PlayedGame] = {}
    problems = []
    for folder in folders:
        for path in sorted(Path(folder).glob(f"*{SUFFIX}")):
            try:
                with path.open("rb") as file:
                    data = file.read(MAX_FILE + 1)
                game = played_game(record_in(data))
            except (OSError, ReplayFileError, RecordError) as error:
                problems.append(f"{path.name}: {error}")
                continue
            games.setdefault(game.game, game)
    return sorted(games.values(), key=lambda g: (g.ended, g.game)), problems


def group_record(games: Iterable[PlayedGame], kind: str | None = None,
                 problems: Iterable[str] = ()) -> GroupRecord:
    """The standings of every game kind (or of `kind` only) from `games`, oldest first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    standings: dict[str, dict[str, Standing]] = defaultdict(dict)
    played = 0
    for game in games:
        if kind is not None and game.kind != kind:
            continue
        played += 1
        table = standings[game.kind]
        for seat in game.seats:
            standing = table.get(seat.player)
            if standing is None:
                standing = table[seat.player] = Standing(seat.player, seat.name,
                                                         mu=model.mu, sigma=model.sigma)
            if game.ended >= standing.last:
                standing.name, standing.last = seat.name, game.ended
        for player in {seat.player for seat in game.seats}:
            mine = [seat for seat in game.seats if seat.player == player]
            standing = table[player]
            standing.games += 1
            standing.wins += any(seat.won for seat in mine)
            for seat in mine:
                counts = standing.roles.setdefault(seat.role, [0, 0])
                counts[0] += 1
                counts[1] += seat.won
        rate(model, game, table)
    return GroupRecord({game_kind: ranked(list(table.values()))
                        for game_kind, table in standings.items()}, played, list(problems))


def rate(model, game: PlayedGame, table: dict[str, Standing]) -> None:
    """Update the ratings of `game`'s players (its seats grouped by role and win, winners
    ranked first); a player in several seats moves by the mean of their seats' changes."""
    sides: dict[tuple[str, bool], list[int]] = defaultdict(list)
    for number, seat in enumerate(game.seats):
        sides[seat.role, seat.won].append(number)
    if len(sides) < 2:
        return  # everyone on one side: nothing to learn
    order = list(sides.values())
    teams = [[model.rating(mu=table[game.seats[n].player].mu,
                           sigma=table[game.seats[n].player].sigma) for n in side]
             for side in order]
    ranks = [1 if game.seats[side[0]].won else 2 for side in order]
    rated = model.rate(teams, ranks=ranks)
    after: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for side, ratings in zip(order, rated):
        for number, rating in zip(side, ratings):
            after[game.seats[number].player].append((rating.mu, rating.sigma))
    for player, moved in after.items():
        standing = table[player]
        standing.mu = statistics.fmean(mu for mu, _ in moved)
        standing.sigma = statistics.fmean(sigma for _, sigma in moved)


def ranked(standings: list[Standing]) -> list[Standing]:
    """Best rated first; a name two players share is told apart by the first digits of each
    person's id."""
    names = defaultdict(list)
    for standing in standings:
        names[standing.name.casefold()].append(standing)
    for alike in names.values():
        if len(alike) > 1:
            for standing in alike:
                kind, _, ident = standing.player.partition(":")
                standing.name += f" #{ident[:ID_SHOWN]}" if kind == "person" else " (no id)"
    return sorted(standings, key=lambda s: (-s.ordinal, s.name.casefold()))

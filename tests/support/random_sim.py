"""One random-play harness for every game, after OpenSpiel's `random_sim_test`.

`play(game_id, players, options, seed)` plays one game with random legal actions and checks, at
every step, what every game promises (the engine contract):

- someone is waiting, and every seat the game waits for has a move that advances play, listed
  before its free actions;
- a legal action is accepted (a sample of them, each on its own copy, on deep steps);
- an action outside the legal list is refused with `IllegalAction` and changes nothing:
  malformed maps, unknown types, wrong field types, non-seats, actions out of turn, and legal
  actions with a number changed;
- every view encodes with msgpack and never holds the seed;
- no viewer's view changes when only what it cannot see is dealt again (information sets);
- the game ends with a valid outcome, and `engine.replay` rebuilds the same state.

Each game adds only its own invariants (`CHECKS`): what it conserves, what its outcome must
say, and how to deal again what a viewer cannot see. A failure prints `repr(game)`, a runnable
`engine.replay(...)` call. tests/engine/test_random_sim.py runs a sample of seeds for every
game, player count and option combination; benchmarks/random_sim.py runs the long version.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import msgpack

import engine
from engine.core import REFEREE, SPECTATOR, Game
from support.holmes import check_conservation as holmes_conserved
from support.holmes_secrets import perturb_secrets as holmes_perturb

FIRST_SEED = 7_100_000_000
"""Seeds start here, above 2**32: msgpack writes such a number in nine bytes that no count,
seat or text of a view holds, so finding them means the view holds the seed."""
MAX_STEPS = 5_000
"""No game of ours lasts this long; a game that does is stuck."""
PACK = msgpack.Packer(use_bin_type=True)


def snapshot(game: Game) -> tuple:
    """Everything a refused action must leave alone."""
    return (msgpack.packb(game.view(REFEREE)), game.rng.getstate(), len(game.history),
            len(game.events))


def replica(game: Game) -> Game:
    return engine.replay(game.id, game.players, game.options, game.seed, game.history)


# -- options ------------------------------------------------------------------------------


def option_combinations(game_id: str, players: int, most_values: int = 5) -> list[dict]:
    """Every combination of the game's options at this player count, each option taking its
    default and, where it has many values, its first and last choice (`most_values` in all):
    a first player's seat or a set of colours has too many to try every one."""
    cls = engine.GAMES[game_id]
    values = []
    for option in cls.OPTIONS:
        allowed = list(option.allowed(players))
        if len(allowed) > most_values:
            allowed = [v for i, v in enumerate([option.default, allowed[0], allowed[-1]])
                       if v not in [option.default, allowed[0], allowed[-1]][:i]]
        values.append([(option.name, value) for value in allowed])
    return [dict(combo) for combo in itertools.product(*values)]


def combination_id(options: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "default"


# -- illegal actions ----------------------------------------------------------------------


def _wrong_values(spec: Any) -> list[Any]:
    if isinstance(spec, list):
        return [None, 1, "x", {}, [_wrong_values(spec[0])[-1]]]
    return [None, 1.5, [], {}, *{int: ["1", True], str: [1, False], bool: [1, "yes"]}[spec]]


def illegal_actions(game: Game, seat: int, legal: list[dict]) -> Iterator[tuple[Any, Any]]:
    """(seat, action) pairs that must be refused now: the shape checks every game shares,
    actions of a seat the game is not waiting for, and legal actions with a number changed
    (the legal list is complete, so whatever it lacks is illegal)."""
    n = game.players
    yield seat, None
    yield seat, "cut"
    yield seat, ["type", "claim"]
    yield seat, {}
    yield seat, {"type": 3}
    yield seat, {"type": "no such action"}
    for kind, fields in game.ACTIONS.items():
        sample = {"type": kind, **{name: _example(spec) for name, spec in fields.items()}}
        yield seat, {**sample, "unexpected": 0}
        for name, spec in fields.items():
            yield seat, {k: v for k, v in sample.items() if k != name}
            for value in _wrong_values(spec):
                yield seat, {**sample, name: value}
    for action in legal[:3]:
        for who in (-1, n, True, "0", None, SPECTATOR, REFEREE):
            yield who, action
    waiting = game.to_act()
    for other in range(n):
        if other not in waiting:
            for action in legal:
                if action["type"] not in game.FREE_ACTIONS and action not in \
                        game.legal_actions(other):
                    yield other, action
                    break
    seen = {_key(a) for a in legal}
    for action in legal[:8]:
        for name, value in action.items():
            if value.__class__ is int:
                for changed in (value + 1, value - 1, -1, n, 99):
                    variant = {**action, name: changed}
                    if _key(variant) not in seen:
                        yield seat, variant


def _example(spec: Any) -> Any:
    if isinstance(spec, list):
        return [_example(spec[0])]
    return {int: 0, str: "", bool: False}[spec]


def _key(action: dict) -> bytes:
    return PACK.pack(sorted(action.items(), key=lambda item: item[0]))


# -- each game's own invariants -----------------------------------------------------------


@dataclass(frozen=True)
class GameChecks:
    conserved: Callable[[Game], None]
    """What the game conserves, checked after every step."""
    outcome: Callable[[Game], None]
    """What its outcome must say, checked at the end."""
    redeal: Callable[[Game, int, random.Random], None]
    """Deal again, in place and consistently, everything `viewer` (a seat or SPECTATOR)
    cannot see."""


def _wires_conserved(game: Game) -> None:
    # The public deck, less the wires Évolution removes unseen (Time Bomb removes none).
    removed = getattr(game, "removed", None) or [0] * len(game.kinds)
    pool = [count - r for count, r in zip(game.build_wire_deck_public(), removed)]
    for kind, count in enumerate(pool):
        assert all(hand[kind] >= 0 for hand in game.hands), repr(game)
        held = sum(hand[kind] for hand in game.hands)
        assert held + game.revealed_counts[kind] == count, f"wires of kind {kind}: {game!r}"
    assert sum(e.type == "cut" for e in game.events) == sum(game.revealed_counts), repr(game)


def _wires_outcome(game: Game) -> None:
    outcome = game.outcome
    winning = {"defused": "sherlock"}.get(outcome.reason, "moriarty")
    assert outcome.winning_team == winning, repr(game)
    assert outcome.teams == tuple(game.roles), repr(game)
    assert outcome.winners == {s for s, r in enumerate(game.roles) if r == winning}, repr(game)
    assert outcome.winners, repr(game)
    found = game.revealed_counts[game.defusing_index]
    assert (found == game.defusing_total) == (outcome.reason == "defused"), repr(game)


def redeal_wires(game: Game, viewer: int, rng: random.Random) -> None:
    """Roles and face-down wires of the other seats (and Évolution's removed pile), dealt again
    with the same counts."""
    hidden = [s for s in range(game.players) if s != viewer]
    roles = [game.roles[s] for s in hidden]
    if game.set_aside is not None:
        roles.append(game.set_aside)
    rng.shuffle(roles)
    for s, role in zip(hidden, roles):
        game.roles[s] = role
    if game.set_aside is not None:
        game.set_aside = roles[-1]
    removed = getattr(game, "removed", None)
    wires = [k for s in hidden for k, c in enumerate(game.hands[s]) for _ in range(c)]
    if removed is not None:
        # The removed pile holds bombs only: it trades with the hidden bombs.
        bombs = [k for k in wires if k != game.defusing_index]
        bombs += [k for k, c in enumerate(removed) for _ in range(c)]
        rng.shuffle(bombs)
        game.removed = [0] * len(removed)
        for k in bombs[:sum(removed)]:
            game.removed[k] += 1
        wires = [k for k in wires if k == game.defusing_index] + bombs[sum(removed):]
    rng.shuffle(wires)
    for s in hidden:
        size = sum(game.hands[s])
        game.hands[s] = [0] * len(game.kinds)
        for k in wires[:size]:
            game.hands[s][k] += 1
        del wires[:size]


def _machinations_conserved(game: Game) -> None:
    from engine.machinations.cards import TAKE_THE_FALL
    from engine.machinations.roles import COPS, ROBBERS

    falls = 0
    for heist in game.heists:
        assert sum(heist["cards"].values()) == len(heist["crew"]), repr(game)
        falls += heist["cards"][TAKE_THE_FALL]
    assert falls <= 1 and falls == game.fall_used, repr(game)
    assert sum(map(len, game.own_cards)) == sum(len(h["crew"]) for h in game.heists), repr(game)
    assert game.scores[COPS] + game.scores[ROBBERS] == max(0, 2 * len(game.heists) - 1)


def _machinations_outcome(game: Game) -> None:
    """The win matrix (MM-34), read off the end."""
    from engine.machinations.roles import (
        COPS,
        IRENE,
        MORIARTY,
        ROBBERS,
        SHERLOCK,
        team_of,
    )

    roles, scores = game.roles, game.scores
    points = COPS if scores[COPS] >= scores[ROBBERS] else ROBBERS
    if game.outcome.reason == "streak":
        team, irene = COPS, False
    else:
        arrested = roles[game.arrest] == MORIARTY
        murdered = game.murder is not None and roles[game.murder] == SHERLOCK
        if arrested != murdered:
            team, irene = (COPS, True) if arrested else (ROBBERS, False)
        else:
            targets = [t for t in (game.arrest, game.murder) if t is not None]
            spared = not {roles[t] for t in targets} & {MORIARTY, SHERLOCK}
            team, irene = points, not arrested and points == ROBBERS and spared
    expected = {s for s, r in enumerate(roles) if team_of(r) == team or (r == IRENE and irene)}
    assert set(game.outcome.winners) == expected, repr(game)
    assert game.outcome.winning_team == team, repr(game)


def indistinguishable_roles(game: Game, seat: int, rng: random.Random,
                           fixed: Iterable[int] = ()) -> list[str]:
    """Another deal of Machinations roles that `seat` (or SPECTATOR) cannot tell from this
    one (MM-9): its own role, the roles it was shown by identity and the seats in `fixed`
    stay; a pair it was shown may swap; every other seat takes a random one of the rest."""
    roles = list(game.roles)
    keep = {*fixed}
    pairs = []
    if seat >= 0:
        keep.add(seat)
        for entry in game.knowledge[seat]:
            if entry["form"] == "id":
                keep.update(entry["seats"])
            else:
                pairs.append(entry["seats"])
    paired = {s for p in pairs for s in p}
    free = [s for s in range(game.players) if s not in keep and s not in paired]
    moved = [roles[s] for s in free]
    rng.shuffle(moved)
    for s, role in zip(free, moved):
        roles[s] = role
    for a, b in pairs:
        if a not in keep and b not in keep and rng.random() < 0.5:
            roles[a], roles[b] = roles[b], roles[a]
    return roles


def _redeal_machinations(game: Game, viewer: int, rng: random.Random) -> None:
    """The roles `viewer` cannot tell apart (the revealed ones stay), and the other seats'
    secret votes, cards and accusations, chosen again."""
    game.roles = indistinguishable_roles(game, viewer, rng, game.revealed)
    game.seat_of = {role: s for s, role in enumerate(game.roles)}
    for secret in (game.votes, game.cards_in, game.targets):
        others = [s for s in secret if s != viewer]
        values = [secret[s] for s in others]
        rng.shuffle(values)
        secret.update(zip(others, values))


def _holmes_outcome(game: Game) -> None:
    from engine.holmes.catalogue import DAYS, FIRST, SECOND

    outcome = game.outcome
    assert game.day == DAYS, repr(game)
    days = [e.data["day"] for e in game.events if e.type == "day"]
    assert days == list(range(1, DAYS + 1)), repr(game)
    assert len(outcome.winners) <= 1 and outcome.winners <= {0, 1}, repr(game)
    assert sorted(outcome.teams) == [FIRST, SECOND], repr(game)
    assert outcome.reason in ("score", "investigation_markers", "draw"), repr(game)


def _redeal_holmes(game: Game, viewer: int, rng: random.Random) -> None:
    holmes_perturb(game, viewer, rng)


CHECKS: dict[str, GameChecks] = {
    "timebomb": GameChecks(_wires_conserved, _wires_outcome, redeal_wires),
    "timebomb_evolution": GameChecks(_wires_conserved, _wires_outcome, redeal_wires),
    "machinations": GameChecks(_machinations_conserved, _machinations_outcome,
                               _redeal_machinations),
    "holmes": GameChecks(holmes_conserved, _holmes_outcome, _redeal_holmes),
}


# -- the harness ----------------------------------------------------------------------------


def check_views(game: Game, rng: random.Random, checks: GameChecks) -> None:
    """Every viewer's view encodes, holds no seed, and is the same under a deal again of what
    that viewer cannot see."""
    seed = PACK.pack(game.seed)  # nine bytes no other number of a view packs to
    for viewer in (*range(game.players), SPECTATOR):
        view = msgpack.packb(game.view(viewer))
        assert seed not in view, f"view({viewer}) holds the seed: {game!r}"
        if game.outcome is None:
            twin = replica(game)
            checks.redeal(twin, viewer, rng)
            assert msgpack.packb(twin.view(viewer)) == view, (
                f"view({viewer}) depends on what it cannot see: {game!r}")


def check_refusals(game: Game, seat: int, legal: list[dict]) -> None:
    before = snapshot(game)
    for who, action in illegal_actions(game, seat, legal):
        try:
            game.apply(who, action)
        except engine.IllegalAction:
            continue
        raise AssertionError(f"seat {who!r} got {action!r} accepted: {game!r}")
    # One comparison after them all: the state only grows, so any change would still show.
    assert snapshot(game) == before, f"a refused action changed the state: {game!r}"


def check_legal(game: Game, seat: int, legal: list[dict], rng: random.Random) -> None:
    for action in rng.sample(legal, min(len(legal), 4)):
        replica(game).apply(seat, dict(action))


def play(game_id: str, players: int, options: dict, seed: int, *, deep_every: int = 8,
         views_every: int = 8) -> Game:
    """One random game from `seed`, every invariant checked; returns the finished game.
    Deep checks (illegal actions, legal ones on copies) run every `deep_every` steps, view
    checks every `views_every`, both from a step that depends on the seed."""
    game = engine.new_game(game_id, players, options, seed)
    checks = CHECKS[game_id]
    rng = random.Random(seed)
    step = seed
    while game.outcome is None:
        waiting = sorted(game.to_act())
        assert waiting, f"nobody to act: {game!r}"
        moves = {}
        for seat in waiting:
            legal = game.legal_actions(seat)
            moves[seat] = [a for a in legal if a["type"] not in game.FREE_ACTIONS]
            assert moves[seat], f"seat {seat} is waited for but cannot move: {game!r}"
            assert legal[:len(moves[seat])] == moves[seat], (
                f"seat {seat}'s free actions come before its moves: {game!r}")
        seat = rng.choice(waiting)
        if step % deep_every == 0:
            legal = game.legal_actions(seat)
            check_refusals(game, seat, legal)
            check_legal(game, seat, legal, rng)
        if step % views_every == 0:
            check_views(game, rng, checks)
        if game.FREE_ACTIONS and rng.random() < 0.2:
            # A free action (a claim) from anybody, waited for or not: it never advances play.
            speaker = rng.randrange(players)
            free = [a for a in game.legal_actions(speaker) if a["type"] in game.FREE_ACTIONS]
            if free:
                game.apply(speaker, rng.choice(free))
                assert sorted(game.to_act()) == waiting, repr(game)
        game.apply(seat, rng.choice(moves[seat]))
        checks.conserved(game)
        step += 1
        assert len(game.history) < MAX_STEPS, f"the game does not end: {game!r}"
    assert game.to_act() == frozenset(), repr(game)
    assert all(game.legal_actions(s) == [] for s in range(players)), repr(game)
    outcome = game.outcome
    assert outcome.teams == game.seat_teams() and len(outcome.teams) == players, repr(game)
    assert outcome.winners <= set(range(players)) and outcome.text, repr(game)
    checks.outcome(game)
    check_views(game, rng, checks)
    assert snapshot(replica(game)) == snapshot(game), f"replay differs: {game!r}"
    return game


def cases(seeds_for: Callable[[str, int], int]) -> Iterator[tuple[str, int, dict, range]]:
    """(game id, players, options, seeds) for every game, player count and option combination,
    with `seeds_for(game_id, players)` seeds each."""
    for game_id, cls in sorted(engine.GAMES.items()):
        for players in range(cls.min_players, cls.max_players + 1):
            for options in option_combinations(game_id, players):
                count = seeds_for(game_id, players)
                yield game_id, players, options, range(FIRST_SEED, FIRST_SEED + count)


def reasons(games: list[Game]) -> Counter:
    return Counter(g.outcome.reason for g in games)

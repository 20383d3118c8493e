"""Seeded positions of each game for the screen tests, the same every run, with the lobby
message a host would send beside them: the tests of one game's screens and the tests across
games (typing, texts, the board) build the same positions from here."""

from __future__ import annotations

import random

import engine
from engine.machinations.bots import BOTS as MACHINATIONS_BOTS
from engine.timebomb_evolution.bots import BOTS as EVOLUTION_BOTS
from support.offline import lobby, seeded_game
from tui.models.seats import SeatInfo

# -- Time Bomb ---------------------------------------------------------------------------------


def cutter_game() -> engine.Game:
    """Mid-game, with the turn at a human seat: that seat sees targets to pick."""
    # The first seed, then the fewest cuts, that gives a human seat the cutter mid-game.
    for seed in range(7, 40):
        for cuts in range(6, 12):
            game = seeded_game(cuts, seed)
            if game.cutter in (0, 2, 4) and game.outcome is None:
                return game
    raise AssertionError("no human cutter in the seeded games")


# -- Time Bomb Évolution -----------------------------------------------------------------------

TIMEBOMB_EVOLUTION = "timebomb_evolution"


def variante_game(steps: int, seed: int = 3, players: int = 5) -> engine.Game:
    """A Variante game after `steps` actions, each the first legal move: the same every run."""
    game = engine.new_game(TIMEBOMB_EVOLUTION, players, {"variante": True}, seed)
    for _ in range(steps):
        if game.outcome is None:
            (seat,) = game.to_act()
            game.apply(seat, next(a for a in game.legal_actions(seat) if a["type"] != "claim"))
    return game


def shows_every_fact(view) -> bool:
    return bool(
        view["set_apart"] and view["moved_apart"] and view["defused"] and view["draws"]
        and view["designated"] is not None and view["pending"] is None and view["round"] < 4
        and "orange" in view["colours"] and view["revealed_counts"]["orange"]
        and view["cutter"] == 0
    )


def arranged_game() -> engine.Game:
    """Mid-game, seat 0 to cut, with every Variante fact on the table: a defused colour, a
    wire set apart, a wire moved apart, Number cards drawn, a forced target, Orange out. The
    first seeded random-bot game that gets there: the same every run."""
    for seed in range(5000):
        game = engine.new_game(TIMEBOMB_EVOLUTION, 5, {"variante": True}, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            if shows_every_fact(game.view(0)):
                return game
            (seat,) = game.to_act()
            game.apply(seat, EVOLUTION_BOTS["random"](game.view(seat), game.legal_actions(seat), rng))
    raise AssertionError("no seeded game shows every Variante fact")


def evolution_lobby(players: int = 5) -> dict:
    return lobby(players=players, game=TIMEBOMB_EVOLUTION)


# -- Moriarty's Machinations -------------------------------------------------------------------

MACHINATIONS_NAMES = [
    "Ada", "Basil", "Cyril", "Dora", "Edith", "Fred", "Gwen", "Hugo", "Iris", "Jules",
]


def machinations_seats(n: int = 7) -> list[SeatInfo]:
    return [SeatInfo(s, MACHINATIONS_NAMES[s], "human" if s in (0, 2) else "bot", True)
            for s in range(n)]


def machinations_lobby(n: int = 7) -> dict:
    return {"t": "lobby", "table": "t1", "name": "Baker Street", "game": "machinations",
            "players": n, "options": {}, "phase": "playing", "host_seat": 0,
            "bot_level": "smart", "turn_timer": 0,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": True}
                      for s in machinations_seats(n)]}


def machinations_game(stop, seed: int = 11, n: int = 7) -> engine.Game:
    """A game of smart bots, stopped where `stop(game)` first holds."""
    game = engine.new_game("machinations", n, {"first_proposer": 1}, seed)
    rngs = [random.Random(seed * 10 + s) for s in range(n)]
    while game.outcome is None and not stop(game):
        seat = min(game.to_act())
        game.apply(seat, MACHINATIONS_BOTS["smart"](game.view(seat), game.legal_actions(seat),
                                                    rngs[seat]))
    return game


def proposing_at_0() -> engine.Game:
    return machinations_game(lambda g: g.phase == "proposal" and g.proposer == 0 and g.heists)


# -- Holmes ------------------------------------------------------------------------------------

HOLMES_SEATS = [SeatInfo(0, "Ada", "human", True), SeatInfo(1, "Bot 2", "bot", True)]


def holmes_game(steps: int, seed: int = 3, options: dict | None = None) -> engine.Game:
    """A game after `steps` actions, each the first legal one: the same every run."""
    game = engine.new_game("holmes", 2, {"first_player": "chosen", **(options or {})}, seed)
    for _ in range(steps):
        if game.outcome is not None:
            break
        seat = min(game.to_act())
        game.apply(seat, game.legal_actions(seat)[0])
    return game


def holmes_lobby(**overrides) -> dict:
    return lobby(2, game="holmes", name="Diogenes Club", **overrides)

"""The bot drivers: each plays the bot seats of one table.

It sleeps until the table changes, waits about as long as a person would (the table's pace;
the wait is drawn from a source of its own, so a seeded game's bots choose the same whatever
their pace), then asks
its bots what to do by the rule the simulator uses too (`engine.bots.BotTurns`): bots that have
seen something new may speak (claim), then a bot the game waits for acts. Each move goes
through the host, one at a time, like any player's. A bot sees only its own seat's view and
legal actions, and its claims keep to the rate a person's connection is allowed, so the host
never refuses one.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import Any, Awaitable, Callable, Final, Mapping

import engine
from engine.bots import Bot, BotError, BotTurns, Move
from netplay.limits import HostLimits
from netplay.ratelimit import RateLimit
from netplay.table import BOT_PACES, Table

log = logging.getLogger("gaslight.host")

PACE_SPREAD: Final = 0.3
"""A bot's wait varies this much either side of its pace, as a person's would."""

Apply = Callable[[Table, int, dict], Awaitable[None]]
"""The host's way to apply an action at a table: store, tell, raise IllegalAction."""


class Bots:
    """The bot drivers of every table at one host."""

    def __init__(self, apply: Apply, limits: HostLimits) -> None:
        self.apply = apply
        self.limits = limits
        self._drivers: dict[str, BotDriver] = {}

    def start(self, table: Table) -> None:
        driver = self._drivers.get(table.id)
        if driver is None:
            limits = self.limits
            driver = self._drivers[table.id] = BotDriver(
                table, self.apply, limits.bot_delay,
                lambda: RateLimit(limits.claim_burst, limits.claim_per_second))
        driver.start()

    def wake(self, table: Table) -> None:
        """The table changed: a bot may have something to do."""
        driver = self._drivers.get(table.id)
        if driver is not None:
            driver.wake()

    def seed(self, table_id: str, seed: int) -> None:
        self._drivers[table_id].rng.seed(seed)

    def stop(self, table: Table) -> None:
        driver = self._drivers.pop(table.id, None)
        if driver is not None:
            driver.stop()

    def stop_all(self) -> None:
        for driver in self._drivers.values():
            driver.stop()


class BotDriver:
    def __init__(self, table: Table, apply: Apply, delay: float | None,
                 free_action_limit: Callable[[], RateLimit]) -> None:
        self.table = table
        self.apply = apply
        self.delay = delay
        self.rng = random.Random(secrets.randbits(64))
        """The bots' choices: seeded to replay a game."""
        self._pace_rng = random.Random(secrets.randbits(64))
        self._free_action_limit = free_action_limit
        self._limits: dict[int, RateLimit] = {}
        """Per seat, the free-action rate a person's connection has: bots keep to it."""
        self._turns: BotTurns | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        self.wake()

    def wake(self) -> None:
        """The table changed: a bot may have something to do."""
        self._wake.set()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _wait(self) -> float:
        """Seconds to wait before the next move: the host's fixed delay, else about the
        table's pace, within `PACE_SPREAD` either side."""
        if self.delay is not None:
            return self.delay
        return BOT_PACES[self.table.bot_pace] * self._pace_rng.uniform(1 - PACE_SPREAD,
                                                                        1 + PACE_SPREAD)

    def _turns_for(self, game: engine.Game) -> BotTurns:
        if self._turns is None or self._turns.game is not game:
            self._turns = BotTurns(game)
        return self._turns

    def _seat_bots(self) -> dict[int, Bot]:
        table = self.table
        bots = engine.GAMES[table.game_id].BOTS
        return {
            seat.seat: guarded(table.id, seat.seat, bots.get(seat.bot or "", bots["random"]),
                                 bots["random"])
            for seat in table.seats if seat.bot_plays
        }

    def _may_speak(self, seat: int) -> bool:
        limit = self._limits.get(seat)
        if limit is None:
            limit = self._limits[seat] = self._free_action_limit()
        return limit.take()

    async def _run(self) -> None:
        table = self.table
        while True:
            await self._wake.wait()
            self._wake.clear()
            while (game := table.game) is not None and game.outcome is None:
                turns = self._turns_for(game)
                if not turns.due(self._seat_bots()):
                    break
                await asyncio.sleep(self._wait())
                if table.game is not game or game.outcome is not None:
                    continue
                try:
                    # At a deal the bots only claim until the people have (or the wait ran
                    # out): the host wakes them then.
                    move = turns.next_move(self._seat_bots(), self.rng, self._may_speak,
                                           act=not table.claim_wait)
                except BotError as error:
                    log.error("table %s: %s; playing a random move", table.id, error)
                    move = self._random_move(game)
                if move is None:
                    break
                await self._play(game, move)

    def _random_move(self, game: engine.Game) -> Move | None:
        bots = self._seat_bots()
        for seat in sorted(game.to_act()):
            if seat in bots:
                random_bot = engine.GAMES[self.table.game_id].BOTS["random"]
                return Move(seat, random_bot(game.view(seat), game.legal_actions(seat),
                                             self.rng), False)
        return None

    async def _play(self, game: engine.Game, move: Move) -> None:
        table = self.table
        try:
            await self.apply(table, move.seat, move.action)
        except engine.IllegalAction as error:
            if move.free:
                log.error("table %s: bot at seat %d made an illegal claim (%s); it keeps quiet",
                          table.id, move.seat, error)
                return
            log.error("table %s: bot at seat %d chose an illegal move (%s); playing a random "
                      "move", table.id, move.seat, error)
            fallback = self._random_move(game)
            if fallback is not None:
                await self.apply(table, fallback.seat, fallback.action)


def guarded(table_id: str, seat: int, bot: Bot, fallback: Bot) -> Bot:
    """A seat's bot whose bugs cannot stall the table: a failing `act` plays a random move and
    a failing `speak` keeps quiet, logged without the view (it holds the seat's secrets)."""

    def act(view: Mapping[str, Any], legal: list[dict], rng: random.Random) -> dict:
        try:
            return bot.act(view, legal, rng)
        except Exception:
            log.exception("table %s: bot at seat %d failed; playing a random move",
                          table_id, seat)
            return fallback.act(view, legal, rng)

    def speak(view: Mapping[str, Any], legal: list[dict], rng: random.Random) -> dict | None:
        try:
            return bot.speak(view, legal, rng)  # type: ignore[misc]
        except Exception:
            log.exception("table %s: bot at seat %d failed to speak", table_id, seat)
            return None

    return Bot(act, speak if bot.speak is not None else None)

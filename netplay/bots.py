"""The bot driver: plays the bot seats of one table.

It sleeps until the table changes, waits `delay` seconds so that people can follow, and applies
each bot's move through the host, one at a time, like any player's. A bot sees only its own
seat's view and legal actions.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import Awaitable, Callable

import engine
from netplay.tables import Table

log = logging.getLogger("gaslight.host")

Apply = Callable[[Table, int, dict], Awaitable[None]]
"""The host's way to apply an action at a table: store, tell, raise IllegalAction."""


class BotDriver:
    def __init__(self, table: Table, apply: Apply, delay: float) -> None:
        self.table = table
        self.apply = apply
        self.delay = delay
        self.rng = random.Random(secrets.randbits(64))
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

    async def _run(self) -> None:
        table = self.table
        while True:
            await self._wake.wait()
            self._wake.clear()
            while (game := table.game) is not None and game.outcome is None:
                due = [s for s in sorted(game.to_act()) if table.seats[s].bot_plays]
                if not due:
                    break
                await asyncio.sleep(self.delay)
                if table.game is not game or game.outcome is not None:
                    break
                seat = due[0]
                if seat not in game.to_act() or not table.seats[seat].bot_plays:
                    continue
                await self._act(game, seat)

    async def _act(self, game: engine.Game, seat: int) -> None:
        table = self.table
        bots = engine.GAMES[table.game_id].BOTS
        legal = game.legal_actions(seat)
        bot = bots.get(table.seats[seat].bot or "", bots["random"])
        try:
            action = bot(game.view(seat), legal, self.rng)
        except Exception:
            # A bot bug must not stall the table: log it (without the view) and play randomly.
            log.exception("table %s: bot at seat %d failed; playing a random move", table.id, seat)
            action = bots["random"](game.view(seat), legal, self.rng)
        try:
            await self.apply(table, seat, action)
        except engine.IllegalAction as error:
            log.error("table %s: bot at seat %d chose an illegal move (%s); playing a random "
                      "move", table.id, seat, error)
            await self.apply(table, seat, bots["random"](game.view(seat), legal, self.rng))

"""Hints: what the table's strongest bot would play from a person's seat, and why.

The bot is the one the game's bots play with (`engine.bots.Bot.advise`, whose move is the
bot's own by construction), handed exactly what a bot at that seat is handed: the seat's view
and its legal actions, never the game itself. Its rng is a fresh one, so a hint never changes
what the table's bots go on to choose. Everyone at the table is told that a hint was asked
(`Table.hints_asked`, in the lobby), never what it said (PROTOCOL.md, "Hints").
"""

from __future__ import annotations

import logging
import random
import secrets

import engine
from engine.catalogue import game_info
from netplay.errors import Refusal
from netplay.protocol import Hint
from netplay.table import PLAYING, Table

log = logging.getLogger("gaslight.host")


def hint_rng() -> random.Random:
    """A fresh rng for one hint: the table's bots keep theirs to themselves."""
    return random.Random(secrets.randbits(64))


def advise(table: Table, seat: int) -> Hint:
    """The hint for `seat` at `table` now; Refusal, in words, where none may be given."""
    game = table.game
    if table.phase != PLAYING or game is None:
        raise Refusal("no game is running at this table")
    if not table.hints_offered:
        raise Refusal("this table's host did not allow hints")
    if seat not in game.to_act():
        raise Refusal("a hint is for a move, and the game is not waiting for yours")
    bot = engine.GAMES[table.game_id].BOTS[game_info(table.game_id).default_bot]
    try:
        advice = bot.advise(game.view(seat), game.legal_actions(seat), hint_rng())
    except Exception:
        # Logged without the view: it holds the seat's secrets.
        log.exception("table %s: the bot failed to advise seat %d", table.id, seat)
        raise Refusal("no hint can be given now") from None
    table.hints_asked[seat] += 1
    return Hint(action=advice.action, reason=advice.reason, seats=list(advice.seats))

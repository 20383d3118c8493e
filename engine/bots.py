"""What a bot is, and which bot seat is asked what and when: the one rule that the host's bot
driver (`netplay.bots`) and the simulator (`engine.simulate`) share, so that the simulator
measures the table people play at.

A bot answers two questions, each from nothing but its own seat's view, its legal actions and
an rng:

- `act(view, legal_actions, rng)`: the game waits for this seat; choose a move that advances
  it. Calling the bot itself does this, so `bot(view, legal_actions, rng)` stays a bot.
- `speak(view, legal_actions, rng)`: something this seat can see has changed (a deal, a claim,
  a cut); is there anything to say now? A free action (a claim), or None to keep quiet. People
  announce their wires right after a deal without waiting for the Wire Cutter, and so do bots.

A bot may also say why (`advise`): the move it would make, with a reason in one line, for a
person who asks for a hint. A bot that explains makes its move through its explanation
(`Bot.explained`), so the hint and the move are one computation and can never differ.

The rule (`BotTurns.next_move`): first every bot seat that has seen something new since it was
last asked is offered speech, in seat order; then the bot seats the game waits for are asked to
act, in seat order. A seat may take at most `SPEECHES_PER_MOVE` free actions between two moves
that advance the game, so chatter always settles: a claim may prompt other bots' claims, but
each bot runs out of words until the game moves on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from engine.core import Action, Game

Choose = Callable[[Mapping[str, Any], list[Action], random.Random], Action]
Speak = Callable[[Mapping[str, Any], list[Action], random.Random], Optional[Action]]


@dataclass(frozen=True)
class Advice:
    """A move and why, in one line a person can read: what a bot tells the seat it plays for,
    from that seat's view only. As in an event's text, `{0}`, `{1}`... in the reason stand for
    the players in `seats`, whose names only a client knows."""

    action: Action
    reason: str
    seats: tuple[int, ...] = ()


Explain = Callable[[Mapping[str, Any], list[Action], random.Random], Advice]

SPEECHES_PER_MOVE = 2
"""Free actions one bot seat may take between two moves that advance the game: a claim after a
deal and one change of mind. It is what makes bot chatter finite."""


@dataclass(frozen=True)
class Bot:
    """A bot: `act` when the game waits for its seat, `speak` (if it talks) when what its seat
    knows has changed."""

    act: Choose
    speak: Speak | None = None
    explain: Explain | None = None
    """The same choice as `act`, with its reason: `act` is made from it (`explained`)."""

    @classmethod
    def explained(cls, explain: Explain, speak: Speak | None = None) -> "Bot":
        """A bot whose every move is the one its explanation gives: the hint a person asks
        for is the move this bot would play, by construction."""

        def act(view: Mapping[str, Any], legal_actions: list[Action],
                rng: random.Random) -> Action:
            return explain(view, legal_actions, rng).action

        return cls(act, speak, explain)

    def __call__(
        self, view: Mapping[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        return self.act(view, legal_actions, rng)

    def advise(self, view: Mapping[str, Any], legal_actions: list[Action],
               rng: random.Random) -> Advice:
        """What this bot would play now, and why (no reason from a bot that gives none)."""
        if self.explain is not None:
            return self.explain(view, legal_actions, rng)
        return Advice(self.act(view, legal_actions, rng), "")


def as_bot(bot: Bot | Choose) -> Bot:
    """A `Bot`, from a bot or from a plain `act` function (a bot that never speaks)."""
    return bot if isinstance(bot, Bot) else Bot(bot)


class BotError(RuntimeError):
    """A bot answered with something the game refused, or spoke when it may only act."""


@dataclass(frozen=True)
class Move:
    """What a bot seat chose: `free` for a claim spoken, not a move the game waited for."""

    seat: int
    action: Action
    free: bool


class BotTurns:
    """The asking rule for one game: who has been offered speech since what they last saw."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._heard = [0] * game.players
        """Per seat, `len(game.events)` when it was last offered speech."""

    def spoken_since_last_move(self, seat: int) -> int:
        """Free actions `seat` took since the game last advanced (from the history alone)."""
        free_types = self.game.FREE_ACTIONS
        count = 0
        for who, action in reversed(self.game.history):
            if action["type"] not in free_types:
                break
            count += who == seat
        return count

    def due(self, bots: Mapping[int, Bot]) -> bool:
        """Whether `next_move` would ask any of `bots` anything (without asking them)."""
        game = self.game
        if game.outcome is not None:
            return False
        if any(seat in bots for seat in game.to_act()):
            return True
        return any(
            bot.speak is not None and self._heard[seat] < len(game.events)
            for seat, bot in bots.items()
        )

    def next_move(
        self,
        bots: Mapping[int, Bot],
        rng: random.Random,
        may_speak: Callable[[int], bool] | None = None,
        *,
        act: bool = True,
    ) -> Move | None:
        """The next thing a bot seat does, or None when the game waits only for people.

        `bots` maps each seat that a bot plays now to its bot. `may_speak(seat)` is asked just
        before a bot's words are used (the host's rate limit); a False drops them, as if the
        bot had kept quiet. Without `act`, the bots only speak (a host pausing at a deal for
        the people's claims). Each call asks the bots afresh: call it again after any change.
        """
        game = self.game
        if game.outcome is not None:
            return None
        events = game.events
        for seat in sorted(bots):
            bot = bots[seat]
            heard = self._heard[seat]
            if bot.speak is None or heard == len(events):
                continue
            self._heard[seat] = len(events)
            if not any(e.visible_to(seat) for e in events[heard:]):
                continue
            if self.spoken_since_last_move(seat) >= SPEECHES_PER_MOVE:
                continue
            legal = game.legal_actions(seat)
            action = bot.speak(game.view(seat), legal, rng)
            if action is None:
                continue
            if action["type"] not in game.FREE_ACTIONS:
                raise BotError(f"seat {seat}'s bot spoke {action!r}, which is not a free action")
            if may_speak is None or may_speak(seat):
                return Move(seat, action, True)
        if not act:
            return None
        for seat in sorted(game.to_act()):
            bot = bots.get(seat)
            if bot is None:
                continue
            action = bot.act(game.view(seat), game.legal_actions(seat), rng)
            free = action.get("type") in game.FREE_ACTIONS
            if free and self.spoken_since_last_move(seat) >= SPEECHES_PER_MOVE:
                raise BotError(
                    f"seat {seat}'s bot took {SPEECHES_PER_MOVE + 1} free actions in a row "
                    "without advancing the game"
                )
            return Move(seat, action, free)
        return None

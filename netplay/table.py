"""One table: its seats, its game, its chat, and the public facts the lobby and the LAN see.

Synchronous and without sockets: a seat holds an opaque `client` (the host's connection, or
None while its player is away). Every change the table makes to itself it records in the
host's store (`record`), so that `netplay.tables.restore_table` can bring it back.
"""

from __future__ import annotations

import collections
import heapq
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final

import engine
from netplay.errors import Refusal
from netplay.journal import (
    BOT_MOVE,
    BY_HOST,
    DEFAULT_PACE,
    PERSON,
    Acted,
    Chatted,
    GameStarted,
    Record,
    SeatSet,
)
from netplay.protocol import MAX_CHAT, MAX_NAME, ChatLine, Lobby
from netplay.store import Store
from netplay.text import clean_text

log = logging.getLogger("gaslight.host")

WAITING, PLAYING, OVER = "waiting", "playing", "over"
HUMAN, BOT, EMPTY = "human", "bot", "empty"

BOT_PACES: Final = {"fast": 0.5, "normal": 5.0, "slow": 10.0}
"""Seconds a table's bots wait before each move, about (see `netplay.bots`), at each pace.
Normal is a person's: people at a tmux table of three took 3.8-6.9 s a cut, 5.5 s on
average, from the turn's start to the wire cut (reading the board, and now and then a claim
or a chat line first). Slow is twice that."""
DEAL_WAITS: Final = {"fast": 5.0, "normal": 15.0, "slow": 30.0}
"""Seconds a table's bots wait at a deal, at most, for its people to claim (PROTOCOL.md,
"Deals"): long enough to read the last round's end and one's wires."""
DEAL_EVENT: Final = "deal"
"""The event that begins a round, in the games that have claims."""
CHAT_TAIL: Final = 20
"""Chat lines a table keeps, per channel, for the people who join or come back."""
EVENING: Final = 30
"""Finished games a table tells of (`lobby.evening`): the latest."""
COVER_PAUSE: Final = 30.0
"""Seconds the game waits for an away player before anyone at the table may let a bot cover
them (PROTOCOL.md, "Covered seats"); the person holding the host's powers may at once."""
CHANNELS: Final = ("table", "spectators")
"""Players talk on the table's channel, which spectators read too; spectators on their own."""


def game_ref(table_id: str, number: int) -> str:
    """The id of a table's `number`th game (from 1): what a replay asks for."""
    return f"{table_id}-{number}"


def bot_name(seat: int) -> str:
    return f"Bot {seat + 1}"


@dataclass
class Seat:
    seat: int
    kind: str = EMPTY
    name: str = ""
    token_hash: str | None = None
    bot: str | None = None
    """The bot playing this seat: a bot's own, or one covering an away player's."""
    covered: bool = False
    """A bot plays this person's seat while they are away; their token still holds it."""
    cover_by: str | None = None
    """While covered: who set the bot on (`BY_HOST` or `BY_TIMER`)."""
    client: Any = None
    """The connection of the player sitting here now; None while they are away."""
    person: str | None = None
    """The id of the person who took this seat (`netplay.person`), if their app said."""

    @property
    def bot_plays(self) -> bool:
        return self.kind == BOT or self.covered

    @property
    def mover(self) -> str:
        """Who makes this seat's moves now, as the record says it."""
        if self.covered:
            return self.cover_by or BY_HOST
        return BOT_MOVE if self.kind == BOT else PERSON

    @property
    def away(self) -> bool:
        """A person holds this seat but is not connected."""
        return self.kind == HUMAN and self.client is None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "connected": self.kind == BOT or self.client is not None,
            "covered": self.covered,
        }

    def record(self) -> SeatSet:
        return SeatSet(seat=self.seat, kind=self.kind, name=self.name,
                       token_hash=self.token_hash, bot=self.bot, covered=self.covered,
                       cover_by=self.cover_by, person=self.person)


@dataclass
class Table:
    id: str
    name: str
    game_id: str
    players: int
    options: dict[str, Any]
    seats: list[Seat]
    bot_level: str = ""
    """The bot that plays this table's bot seats and covers its away players."""
    bot_pace: str = DEFAULT_PACE
    """How long its bots wait before a move: a key of `BOT_PACES`."""
    turn_timer: int = 0
    public_replays: bool = False
    """Whether everyone at the host may watch this table's finished games again."""
    private: bool = False
    """Whether everyone who sits or watches here must give the table code (PROTOCOL.md)."""
    start_when_full: bool = False
    """The game starts once every seat is taken (quick play, unattended tables); otherwise
    when the table's host says so."""
    hints: bool = False
    """Its people may ask for hints (PROTOCOL.md, "Hints"), as they always may in a game
    against bots (`hints_offered`)."""
    hints_asked: list[int] = field(default_factory=list)
    """Per seat, the hints its player asked for in the current game: everyone is told."""
    seed: int | None = None
    game: engine.Game | None = None
    games: int = 0
    """Games started at this table so far: the current one is `game_ref(games)`."""
    evening: list[dict] = field(default_factory=list)
    """The games this table finished, oldest first, as the lobby tells them (the evening's
    record): each game's id, result, winning team and winners' names."""
    host_seat: int | None = None
    created_by: str | None = None
    """The address of the client that created the table; None when the host made it."""
    play_again: set[int] = field(default_factory=set)
    """Seats that asked for a new game since this one ended."""
    chat: dict[str, collections.deque[tuple[int, ChatLine]]] = field(default_factory=lambda: {
        channel: collections.deque(maxlen=CHAT_TAIL) for channel in CHANNELS})
    """The latest chat lines of each channel, each with its place in the table's chat, told
    again to whoever joins or comes back."""
    chat_lines: int = 0
    """Chat lines said at this table so far, on every channel."""
    spectators: set[Any] = field(default_factory=set)
    store: Store | None = None
    published: dict | None = None
    """The public summary last told to the lobby and the LAN."""
    turn_deadline: float | None = None
    """When the turn timer runs out (monotonic seconds); None while it does not run."""
    empty_since: float | None = None
    """When the table was last left with no person connected."""
    claim_wait: set[int] = field(default_factory=set)
    """At a deal, the seats of the connected people the bots wait for, to claim or pass."""
    claim_deadline: float | None = None
    """When the bots stop waiting for `claim_wait` (monotonic seconds); None: no wait."""
    events_seen: int = 0
    """The game's events looked through for a deal so far."""
    cover_pause_ends: float | None = None
    """While the game waits for an away player: when anyone at the table may let a bot cover
    them (monotonic seconds); None otherwise."""
    anyone_covers: bool = False
    """The game has waited `COVER_PAUSE` for an away player: anyone seated may cover."""

    @property
    def phase(self) -> str:
        if self.game is None:
            return WAITING
        return PLAYING if self.game.outcome is None else OVER

    def seats_taken(self) -> int:
        return sum(1 for s in self.seats if s.kind != EMPTY)

    def seat_name(self, name: str) -> str:
        """The name a person called `name` goes by at this table: told apart by a number from
        a seat that already goes by it, so every screen shows the same."""
        taken = {s.name.casefold() for s in self.seats if s.kind != EMPTY}
        candidate, number = name, 1
        while candidate.casefold() in taken:
            number += 1
            suffix = f" ({number})"
            candidate = name[:MAX_NAME - len(suffix)] + suffix
        return candidate

    def summary(self) -> dict[str, Any]:
        """Public facts, for the `tables` message and the zeroconf TXT record. A seat a bot
        covers counts as its person's."""
        taken = self.seats_taken()
        bots = sum(1 for s in self.seats if s.kind == BOT)
        host = self.seats[self.host_seat].name if self.host_seat is not None else ""
        return {"id": self.id, "name": self.name, "by": host, "game": self.game_id,
                "players": self.players,
                "seats_taken": taken, "seats_free": self.players - taken,
                "people": taken - bots, "bots": bots, "phase": self.phase,
                "private": self.private, "options": dict(self.options),
                "bot_level": self.bot_level, "bot_pace": self.bot_pace,
                "turn_timer": self.turn_timer, "hints": self.hints}

    def clients(self) -> list[Any]:
        seated = [s.client for s in self.seats if s.client is not None]
        return seated + list(self.spectators)

    @property
    def acting_host(self) -> int | None:
        """The seat holding the host's powers now: the table's host, or while they are away,
        the first seated person, in seat order, who is connected (PROTOCOL.md, "The host's
        powers")."""
        host = self.host_seat
        if host is not None and self.seats[host].client is not None:
            return host
        return next((s.seat for s in self.seats if s.kind == HUMAN and s.client is not None),
                    None)

    def may_cover(self) -> list[int]:
        """The seats whose people may let a bot cover an away player now: none while nobody
        is away uncovered; the acting host; after the pause, every connected person."""
        if self.phase != PLAYING or not any(s.away and not s.covered for s in self.seats):
            return []
        if self.anyone_covers:
            return [s.seat for s in self.seats if s.kind == HUMAN and s.client is not None]
        acting = self.acting_host
        return [] if acting is None else [acting]

    def lobby(self) -> Lobby:
        return Lobby(
            table=self.id, name=self.name, game=self.game_id, players=self.players,
            options=dict(self.options), seats=[s.public() for s in self.seats],
            phase=self.phase, host_seat=self.host_seat, spectators=len(self.spectators),
            bot_level=self.bot_level, bot_pace=self.bot_pace, turn_timer=self.turn_timer,
            play_again=sorted(self.play_again), evening=self.evening[-EVENING:],
            private=self.private, start_when_full=self.start_when_full,
            claim_wait=sorted(self.claim_wait), acting_host=self.acting_host,
            may_cover=self.may_cover(), hints=self.hints_offered,
            hints_asked=list(self.hints_asked),
        )

    @property
    def hints_offered(self) -> bool:
        """People here may ask for hints: the table allows them, or it is a game against bots
        (one seat held by a person, every other by a bot), where nobody can be fooled."""
        return self.hints or sum(1 for s in self.seats if s.kind == HUMAN) == 1

    @property
    def full(self) -> bool:
        return self.seats_taken() == self.players

    @property
    def starts_now(self) -> bool:
        """A table made to start once full has just filled up."""
        return self.phase == WAITING and self.start_when_full and self.full

    # -- deals: a pause for claims (PROTOCOL.md, "Deals") ---------------------------------

    def open_claims(self, now: float, wait: float) -> bool:
        """Whether the game has dealt a round since last looked at: then the bots wait, at
        most `wait` seconds from `now`, for every connected person to claim or pass."""
        game = self.game
        if game is None or not game.FREE_ACTIONS:
            return False
        new_events, self.events_seen = game.events[self.events_seen:], len(game.events)
        if not any(event.type == DEAL_EVENT for event in new_events):
            return False
        self.claim_wait = {s.seat for s in self.seats
                           if s.kind == HUMAN and s.client is not None and not s.covered}
        self.claim_deadline = now + wait if self.claim_wait else None
        return bool(self.claim_wait)

    def claim_done(self, seat: int) -> bool:
        """`seat` claimed or passed at this deal: whether the bots were waiting for it."""
        if seat not in self.claim_wait:
            return False
        self.claim_wait.discard(seat)
        if not self.claim_wait:
            self.claim_deadline = None
        return True

    def end_claims(self) -> None:
        """The bots wait no longer: the wait ran out, or the game moved on."""
        self.claim_wait.clear()
        self.claim_deadline = None

    def forget_absent_claims(self) -> bool:
        """A person who is away, or whose seat a bot covers, is not waited for: whether the
        wait changed."""
        gone = {s for s in self.claim_wait
                if self.seats[s].client is None or self.seats[s].covered}
        for seat in gone:
            self.claim_done(seat)
        return bool(gone)

    def waiting_for_away(self) -> list[Seat]:
        """The uncovered seats of away players that the game is waiting for."""
        if self.game is None or self.game.outcome is not None:
            return []
        return [seat for seat in self.seats if seat.away and not seat.covered
                and seat.seat in self.game.to_act()]

    def ask_play_again(self, seat: int) -> bool:
        """`seat` asks for a new game; whether every connected person has now asked (bots,
        and bots covering a seat, agree at once)."""
        if self.phase != OVER:
            raise Refusal("the game is not over yet")
        self.play_again.add(seat)
        return self.everyone_asked()

    def everyone_asked(self) -> bool:
        present = {s.seat for s in self.seats if s.client is not None}
        return bool(present) and present <= self.play_again

    def cover(self, seat: Seat, by: str = BY_HOST) -> None:
        """A bot plays an away player's seat until they come back; `by` says who set it on
        (the replay tells a timer's moves apart)."""
        seat.covered, seat.bot, seat.cover_by = True, self.bot_level, by
        self.record(seat.record())
        self.forget_absent_claims()
        log.info("table %s: a bot covers seat %d", self.id, seat.seat)

    def uncover(self, seat: Seat) -> None:
        if seat.covered:
            seat.covered, seat.bot, seat.cover_by = False, None, None
            self.record(seat.record())
            log.info("table %s: seat %d is its player's again", self.id, seat.seat)

    def record(self, record: Record) -> None:
        if self.store is not None:
            self.store.append(self.id, record.to_dict())

    def note(self, record: Record) -> None:
        """Record what nobody need wait for (see `Store.note`)."""
        if self.store is not None:
            self.store.note(self.id, record.to_dict())

    def play(self, seat: int, action: dict) -> None:
        """Apply a seat's action to the game and record it; engine.IllegalAction changes
        nothing."""
        game = self.game
        if game is None or game.outcome is not None:
            raise engine.IllegalAction("no game is running at this table")
        game.apply(seat, action)
        mover = self.seats[seat].mover
        self.record(Acted(seat=seat, action=game.history[-1][1], time=round(time.time(), 3),
                          by=mover))
        if mover == PERSON:  # a claim, or a move, is as good as passing at this deal
            self.claim_done(seat)
        if game.outcome is not None:
            self.end_claims()
            self.game_over()
            log.info("table %s: game over (%s)", self.id, game.outcome.reason)

    def game_over(self) -> None:
        """Add the game that just ended to the evening's record."""
        assert self.game is not None and self.game.outcome is not None
        outcome = self.game.outcome
        self.evening.append({
            "game": game_ref(self.id, self.games), "result": outcome.text,
            "team": outcome.winning_team,
            "winners": [self.seats[seat].name for seat in sorted(outcome.winners)]})

    def seat_bot(self, seat: Seat) -> None:
        seat.kind, seat.name, seat.token_hash, seat.person = BOT, bot_name(seat.seat), None, None
        seat.bot, seat.covered, seat.cover_by = self.bot_level, False, None
        self.record(seat.record())

    def start_game(self, seed: int | None) -> None:
        """Bots fill the empty seats, a bot covers everyone away (the first turn never goes to
        someone who is not there), and a new game starts, with `seed` or a fresh one."""
        for seat in self.seats:
            if seat.kind == EMPTY:
                self.seat_bot(seat)
        self.play_again.clear()
        # Drawn from the OS for every game: a finished game's record, seed included, tells
        # nothing about the next one.
        self.seed = secrets.randbits(63) if seed is None else seed
        self.game = engine.new_game(self.game_id, self.players, self.options, self.seed)
        self.games += 1
        self.events_seen = 0
        self.hints_asked = [0] * self.players
        self.record(GameStarted(seed=self.seed, time=round(time.time(), 3),
                                seats=[{"name": s.name, "kind": s.kind, "person": s.person}
                                       for s in self.seats]))
        for seat in self.seats:  # covered from the new game's first step, in its record
            if seat.away and not seat.covered:
                self.cover(seat)
        log.info("table %s: game started", self.id)

    def say(self, text: str, seat: int | None, name: str,
            spectator: bool) -> tuple[ChatLine, list[Any]]:
        """A chat line, cleaned and kept for whoever joins later, and who hears it; Refusal
        for an empty or overlong one."""
        cleaned = clean_text(text)
        if not cleaned:
            raise Refusal("an empty chat message is not sent")
        if len(cleaned) > MAX_CHAT:
            raise Refusal(f"chat message is {len(cleaned)} characters; the limit is {MAX_CHAT}")
        if spectator:
            # Spectators may guess aloud at roles; that must not coach the players.
            channel, audience = "spectators", list(self.spectators)
        else:
            channel, audience = "table", self.clients()
        self.keep_chat(ChatLine(channel, cleaned, seat, name, past=True))
        if channel == "table":
            # The table's channel is part of its games' record; spectators' asides are not.
            self.note(Chatted(seat=seat, name=name, text=cleaned, time=round(time.time(), 3)))
        return ChatLine(channel, cleaned, seat, name), audience

    def keep_chat(self, line: ChatLine) -> None:
        self.chat[line.channel].append((self.chat_lines, line))
        self.chat_lines += 1

    def recent_chat(self, spectator: bool) -> list[ChatLine]:
        """The latest lines of the channels a newcomer reads, at most `CHAT_TAIL` of them
        all told, in the order they were said."""
        channels = CHANNELS if spectator else ("table",)
        lines = heapq.merge(*(self.chat[channel] for channel in channels))
        return [line for _, line in list(lines)[-CHAT_TAIL:]]

    def detach(self, client: Any) -> None:
        """`client` is no longer at this table (it left, dropped or moved elsewhere)."""
        self.spectators.discard(client)
        for seat in self.seats:
            if seat.client is client:
                seat.client = None
        self.forget_absent_claims()

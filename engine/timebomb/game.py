"""Time Bomb (Yusuke Sato, IELLO), 4-8 players, per its RULES.md (rules TB-n).

Sherlock's team must reveal every Defusing wire; Moriarty's team wants the Bomb revealed or the
four rounds to run out. Hands are kept as counts per wire kind, never as ordered rows: TB-5
makes a face-down position carry no information, so a cut draws a uniformly random wire of the
target's multiset (TB-5 Decision), and no slot identity exists to leak or to survive a redeal.

Time Bomb Évolution subclasses this class and overrides only the methods whose docstrings
begin "Hook:". Each hook has a neutral default here (Time Bomb opens no decision, so it has no
decision to offer). Hooks are of two kinds:

- **questions**, which change nothing: `wire_kinds`, `build_wire_pool`, `cut_actions`,
  `decision_actions`, `waiting_text`, `claim_actions`, `check_cut`, `round_length`,
  `public_view`, `reveal_view`, `build_wire_deck_public`;
- **steps**, which change the game: `setup`, `choose_wires` (a variant's draws, the one step
  that uses the random source before the deal), `act_claim`, `resolve_reveal`, `after_reveal`
  and `redeal`.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Sequence

from engine import catalogue
from engine.core import Event, Game, IllegalAction, Outcome

from engine.timebomb.cards import (
    BOMB,
    DEFUSING,
    FIRST_HAND,
    MORIARTY,
    ROUNDS,
    SAFE,
    SHERLOCK,
    TEAM_NAMES,
    claim_words,
)
from engine.timebomb.cards import TIMEBOMB_ROLE_DECKS as ROLE_DECKS


CLAIMS_BY_HELD: tuple[tuple[dict[str, Any], ...], ...] = tuple(
    tuple({"type": "claim", "defusing": d, "bomb": b} for b in (0, 1) for d in range(held - b + 1))
    for held in range(FIRST_HAND + 1)
)
"""Every claim a player holding so many face-down wires can make: shared, read-only (see
`Game.legal_actions`)."""


class _Texts:
    """The events of one game class and wire-kind set, each built once and shared by every
    game: a simulation logs tens of thousands of deals and cuts, and most of them look alike.
    Events are immutable values, so sharing them is safe; `Event.as_dict` copies their data
    into every view."""

    def __init__(self, kinds: tuple[str, ...], names: list[str], seats: int):
        self.kinds = kinds
        self.names = names
        self.cut_texts = ["{0} cuts a wire of {1}: " + name + "." for name in names]
        self._describe: dict[tuple[int, ...], str] = {}
        self._events: dict[tuple, Event] = {}
        self._role_events: dict[tuple[str, ...], tuple[Event, ...]] = {}
        self.hand_events: list[dict[tuple[int, ...], Event]] = [{} for _ in range(seats)]
        """Each seat's counts -> its hand event: a deal looks up one per seat."""
        self.outcomes: dict[tuple[tuple[str, ...], str], Outcome] = {}
        """(The seats' roles, why the game ended) -> its outcome: a few dozen at most."""

    def __deepcopy__(self, memo: dict) -> "_Texts":
        return self  # a cache of immutable events, shared by every game of its class

    def describe(self, counts: tuple[int, ...]) -> str:
        text = self._describe.get(counts)
        if text is None:
            parts = [f"{c} {name}" for name, c in zip(self.names, counts) if c]
            text = self._describe[counts] = ", ".join(parts) or "no wires"
        return text

    def role_events(self, roles: list[str]) -> tuple[Event, ...]:
        """Each seat's role event, for its seat alone."""
        key = tuple(roles)
        events = self._role_events.get(key)
        if events is None:
            events = self._role_events[key] = tuple(
                Event(
                    "role",
                    f"You are on {TEAM_NAMES.get(role, role.capitalize())}'s team.",
                    (),
                    {"role": role},
                    frozenset((seat,)),
                )
                for seat, role in enumerate(roles)
            )
        return events

    def deal_event(self, round: int, hand_size: int, cutter: int) -> Event:
        key = ("deal", round, hand_size, cutter)
        event = self._events.get(key)
        if event is None:
            starts = "takes the Wire Cutter." if round == 1 else "holds the Wire Cutter and starts."
            text = f"Round {round}: {hand_size} wires dealt to each player. {{0}} {starts}"
            event = self._events[key] = Event(
                "deal", text, (cutter,), {"round": round, "hand_size": hand_size}
            )
        return event

    def hand_event(self, seat: int, counts: tuple[int, ...]) -> Event:
        events = self.hand_events[seat]
        event = events.get(counts)
        if event is None:
            text = "You see your wires: " + self.describe(counts) + "."
            event = events[counts] = Event(
                "hand", text, (), {"hand": dict(zip(self.kinds, counts))}, frozenset((seat,))
            )
        return event

    def cut_event(self, kind: int, round: int, cut: int, cutter: int, target: int) -> Event:
        key = (kind, round, cut, cutter, target)
        event = self._events.get(key)
        if event is None:
            event = self._events[key] = Event(
                "cut",
                self.cut_texts[kind],
                (cutter, target),
                {"round": round, "cut": cut, "wire": self.kinds[kind]},
            )
        return event


_TEXTS: dict[tuple[type, tuple[str, ...]], _Texts] = {}


@functools.cache
def _cuts_by_seat(players: int) -> tuple[tuple[dict[str, Any], ...], ...]:
    """For each seat, the cut of each other seat's wire: shared, read-only (see
    `Game.legal_actions`)."""
    return tuple(
        tuple({"type": "cut", "target": target} for target in range(players) if target != seat)
        for seat in range(players)
    )


def _free_place(index: int, taken: list[int]) -> int:
    """The free place at `index` among the places in order, skipping the `taken` ones."""
    place = index
    for filled in sorted(taken):
        if filled > place:
            break
        place += 1
    return place


class TimeBomb(Game):
    INFO = catalogue.TIMEBOMB
    ACTIONS = {
        "cut": {"target": int},
        "claim": {"defusing": int, "bomb": int},
    }
    FREE_ACTIONS = frozenset({"claim"})

    ROLE_DECKS: ClassVar[dict[int, tuple[int, int]]] = ROLE_DECKS

    # -- setup (TB-2 to TB-6) -------------------------------------------------------------

    def setup(self) -> None:
        """Hook: TB-2 to TB-6. A variant sets its own state first, then calls this."""
        rng = self.rng
        players = self.players
        sherlocks, moriartys = self.ROLE_DECKS[players]
        # Shuffling the role deck and dealing it from the top is the same as putting each
        # Moriarty card at a uniformly random free place in the deck (TB-2).
        deck = [SHERLOCK] * (sherlocks + moriartys)
        random = rng.random
        free = list(range(sherlocks + moriartys))
        for _ in range(moriartys):
            i = int(random() * len(free))
            deck[free[i]] = MORIARTY
            free[i] = free[-1]
            free.pop()
        self.roles: list[str] = deck[:players]
        self.set_aside: str | None = deck[players] if len(deck) > players else None

        self.choose_wires()
        self.kinds: tuple[str, ...] = self.wire_kinds()
        # Keyed by class too: a variant may name its wires differently.
        texts = _TEXTS.get((self.__class__, self.kinds))
        if texts is None:
            names = [self.wire_name(kind) for kind in self.kinds]
            texts = _TEXTS[self.__class__, self.kinds] = _Texts(
                self.kinds, names, self.max_players)
        self._texts = texts
        self.defusing_index = self.kinds.index(DEFUSING)
        pool = self.build_wire_pool()
        self.defusing_total = pool[self.defusing_index]
        self.no_wires = [0] * len(self.kinds)
        """An empty hand, to compare hands with: cheaper than summing them."""
        self.revealed_counts = [0] * len(self.kinds)
        self.cuts_by_seat = _cuts_by_seat(players)
        self.round = 1
        self.cuts = 0
        self.pending: dict[str, Any] | None = None
        """A decision the game waits for before a cut's last steps (a variant's bomb powers):
        its `kind`, the `seat` that decides and its `choices`. Time Bomb itself opens none."""

        first = self.options["first_player"]
        self.cutter: int = int(random() * players) if first == "random" else first
        self.events += texts.role_events(self.roles)
        self.deal(pool, FIRST_HAND)

    def choose_wires(self) -> None:
        """Hook: draw what the variant's wires depend on (its colours, a pile removed unseen),
        once, before `wire_kinds` and `build_wire_pool` read it. Time Bomb draws nothing."""

    def wire_kinds(self) -> tuple[str, ...]:
        """Hook: the wire kinds, in the order hands and counts are kept."""
        return (SAFE, DEFUSING, BOMB)

    def build_wire_pool(self) -> list[int]:
        """Hook: how many wires of each kind go into the first deal (TB-3)."""
        n = self.players
        return [4 * n - 1, n, 1]

    def deal(self, pool: list[int], hand_size: int) -> None:
        """Deal `hand_size` wires to each player from `pool` (counts per kind), unseen (TB-4).

        Every hand starts as `hand_size` wires of the commonest kind, and each wire of the
        rarer kinds takes the place of one of them at a uniformly random free slot: the same
        distribution as shuffling the pile and dealing it (TB-5, TB-11), with a handful of
        draws instead of one per wire.
        """
        random = self.rng.random  # C-fast and deterministic; randrange costs several times more
        players = self.players
        slots = players * hand_size
        common = pool.index(max(pool))
        commonest_only = [0] * len(pool)
        commonest_only[common] = hand_size
        hands: list[list[int]] = [commonest_only.copy() for _ in range(players)]
        self.hands = hands
        """Each seat's face-down wires, as a count of each kind (see the module's docstring)."""
        taken: list[int] = []  # the places filled so far: a handful
        for kind, count in enumerate(pool):
            if kind != common:
                for _ in range(count):
                    slot = int(random() * slots)
                    if slot in taken:
                        # Taken: draw again among the free places only. Still uniform, and a
                        # deal never loops, whatever the generator.
                        slot = _free_place(int(random() * (slots - len(taken))), taken)
                    taken.append(slot)
                    hand = hands[slot // hand_size]
                    hand[kind] += 1
                    hand[common] -= 1
        self.claims: list[dict[str, int] | None] = [None] * players
        """Each seat's latest claim about the hand it holds: a new deal wipes them (RULES.md, "Talk and claims")."""
        self.log_deal(hand_size)

    def log_deal(self, hand_size: int) -> None:
        """Log a deal: publicly, then each hand to its owner alone (RULES.md, "Who sees what")."""
        events = self.events
        texts = self._texts
        events.append(texts.deal_event(self.round, hand_size, self.cutter))
        hand_events = texts.hand_events
        for seat, hand in enumerate(self.hands):
            counts = tuple(hand)
            event = hand_events[seat].get(counts)
            events.append(event if event is not None else texts.hand_event(seat, counts))

    # -- turns ----------------------------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        if self.outcome is not None:
            return frozenset()
        return self.only[self.cutter if self.pending is None else self.pending["seat"]]

    def may_act(self, seat: int) -> bool:
        pending = self.pending
        return self.outcome is None and seat == (
            self.cutter if pending is None else pending["seat"])

    def cut_actions(self, seat: int) -> Sequence[dict[str, Any]]:
        """Hook: a cut of each seat whose wire `seat` may cut now (TB-7, TB-16), to be copied
        into a legal list."""
        hands, empty = self.hands, self.no_wires
        cuts = self.cuts_by_seat[seat]
        if empty not in hands:
            return cuts
        return [cut for cut in cuts if hands[cut["target"]] != empty]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.outcome is not None:
            return []
        pending = self.pending
        if pending is not None:
            moves = self.decision_actions(pending) if seat == pending["seat"] else ()
        elif seat == self.cutter:
            moves = self.cut_actions(seat)
        else:
            moves = ()
        if self.options["claims"]:
            # A claim may be made or changed at any time, a decision pending too.
            return [*moves, *self.claim_actions(seat)]
        return list(moves)

    def decision_actions(self, pending: dict[str, Any]) -> list[dict[str, Any]]:
        """Hook: the actions that answer a pending decision. Time Bomb opens none."""
        return []

    def waiting_text(self) -> str:
        """Hook: what a pending decision waits for, in words a player can read."""
        return ""

    def claim_actions(self, seat: int) -> Sequence[dict[str, Any]]:
        """Hook: every claim `seat` may make now, to be added to a legal list. Time Bomb's are
        shared read-only dicts (see Game.legal_actions): a cutter's legal list is mostly claims,
        and copying them would be most of its cost."""
        return CLAIMS_BY_HELD[sum(self.hands[seat])]

    # -- actions --------------------------------------------------------------------------

    def act_claim(self, seat: int, action: dict[str, Any]) -> None:
        """Hook: a claim about one's own hand, public and never checked (RULES.md, "Talk and
        claims")."""
        defusing, bomb = action["defusing"], action["bomb"]
        if bomb not in (0, 1):
            raise IllegalAction("a claim holds 0 or 1 Bomb")
        self.check_claim(seat, defusing, bomb)
        self.claims[seat] = {"defusing": defusing, "bomb": bomb}
        self.log(
            "claim",
            "{0} claims " + claim_words(defusing, bomb=bomb) + ".",
            (seat,),
            defusing=defusing,
            bomb=bomb,
        )

    def check_claim(self, seat: int, defusing: int, special: int) -> int:
        """A claim of `defusing` Defusing wires and `special` other named ones (a Bomb, or an
        Évolution colour) is allowed at this table and fits in `seat`'s hand (IllegalAction if
        not); what the hand holds."""
        if not self.options["claims"]:
            raise IllegalAction("claims are switched off at this table")
        held = sum(self.hands[seat])
        if defusing < 0 or defusing + special > held:
            raise IllegalAction(f"you hold {held} face-down wires; the claim must fit in them")
        return held

    def act_cut(self, seat: int, action: dict[str, Any]) -> None:
        target = action["target"]
        self.check_cut(seat, target)
        kind = self.draw_wire(target)
        self.cuts += 1
        self.revealed_counts[kind] += 1
        key = (kind, self.round, self.cuts, seat, target)
        texts = self._texts
        event = texts._events.get(key)
        self.events.append(event if event is not None else texts.cut_event(*key))
        self.resolve_reveal(seat, target, kind)
        if self.outcome is None:
            self.after_reveal(target)

    def check_cut(self, seat: int, target: int) -> None:
        """Hook: TB-8 step 1: reject anything but another player's face-down wire, and any cut
        while a decision is pending."""
        if self.pending is not None:
            raise IllegalAction(self.waiting_text())
        if not 0 <= target < self.players:
            raise IllegalAction(f"there is no seat {target} at this table")
        if target == seat:
            raise IllegalAction("you may never cut your own wire")
        if self.hands[target] == self.no_wires:
            raise IllegalAction(f"seat {target} has no face-down wire to cut")

    def draw_wire(self, target: int) -> int:
        hand = self.hands[target]
        r = int(self.rng.random() * sum(hand))
        kind = 0
        for count in hand:
            if r < count:
                hand[kind] -= 1
                return kind
            r -= count
            kind += 1
        raise AssertionError("unreachable: r < sum(hand)")

    def resolve_reveal(self, cutter: int, target: int, kind: int) -> None:
        """Hook: TB-8 steps 3-5, the revealed wire's effect, which may end the game."""
        if kind == self.defusing_index:
            if self.revealed_counts[kind] == self.defusing_total:
                self.win(SHERLOCK, "defused", "Every Defusing wire is cut: Sherlock's team wins.")
        elif self.kinds[kind] == BOMB:
            self.win(MORIARTY, "bomb", "The Bomb goes off: Moriarty's team wins.")

    def after_reveal(self, target: int) -> None:
        """Hook: TB-8 steps 6-7: the target takes the Wire Cutter; the round may end."""
        self.cutter = target
        if self.cuts >= self.round_length():
            self.end_round()

    def round_length(self) -> int:
        """Hook: cuts in the current round (TB-9)."""
        return self.players

    def end_round(self) -> None:
        if self.round == ROUNDS:
            self.win(MORIARTY, "time", "Four rounds are over: Moriarty's team wins on time.")
            return
        self.redeal()

    def redeal(self) -> None:
        """Hook: TB-11 and TB-12: gather the face-down wires, shuffle, deal 5-r each."""
        pool = list(map(sum, zip(*self.hands)))
        self.round += 1
        self.cuts = 0
        self.deal(pool, FIRST_HAND + 1 - self.round)

    def seat_teams(self) -> tuple[str, ...]:
        return tuple(self.roles)

    def win(self, team: str, reason: str, text: str) -> None:
        roles = tuple(self.roles)
        outcomes = self._texts.outcomes
        outcome = outcomes.get((roles, text))
        if outcome is None:
            winners = frozenset(s for s, role in enumerate(roles) if role == team)
            outcome = outcomes[roles, text] = Outcome(winners, roles, reason, text, team)
        self.finish(outcome)

    # -- views (RULES.md, "Who sees what") ----------------------------------------------------------------

    def wire_name(self, kind: str) -> str:
        return kind.capitalize()

    def counts_dict(self, counts: list[int]) -> dict[str, int]:
        return dict(zip(self.kinds, counts))

    def public_view(self) -> dict[str, Any]:
        """Hook: what every seat and spectator sees (RULES.md, "Who sees what")."""
        sherlocks, moriartys = self.ROLE_DECKS[self.players]
        return {
            "role_deck": {SHERLOCK: sherlocks, MORIARTY: moriartys},
            "set_aside_count": sherlocks + moriartys - self.players,
            "wire_kinds": list(self.kinds),
            "wire_deck": self.counts_dict(self.build_wire_deck_public()),
            "round": self.round,
            "rounds": ROUNDS,
            "cuts": self.cuts,
            "round_length": self.round_length(),
            "cutter": self.cutter,
            "face_down": [sum(hand) for hand in self.hands],
            "revealed": self.revealed_wires(),
            "revealed_counts": self.counts_dict(self.revealed_counts),
            "defusing_found": self.revealed_counts[self.defusing_index],
            "defusing_total": self.defusing_total,
            "claims": [None if c is None else dict(c) for c in self.claims],
        }

    def seat_view(self, seat: int) -> dict[str, Any]:
        return {"role": self.roles[seat], "hand": self.counts_dict(self.hands[seat])}

    def reveal_view(self) -> dict[str, Any]:
        """Hook: what the end shows everyone (TB-15)."""
        return {
            "roles": list(self.roles),
            "set_aside": self.set_aside,
            "hands": [self.counts_dict(hand) for hand in self.hands],
        }

    def revealed_wires(self) -> list[dict[str, Any]]:
        """Every revealed wire, who held it, who cut it, round and cut: the public cut events."""
        return [
            {"round": e.data["round"], "cut": e.data["cut"], "cutter": e.seats[0],
             "target": e.seats[1], "wire": e.data["wire"]}
            for e in self.events
            if e.type == "cut"
        ]

    def build_wire_deck_public(self) -> list[int]:
        """Hook: the public make-up of the wire deck (TB-3)."""
        return self.build_wire_pool()



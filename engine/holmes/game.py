"""Holmes: Sherlock & Mycroft (Diego Ibáñez, Devir), 2 players, per its RULES.md (rules HO-n).

Players move action markers between characters and use their skills to gain investigation
markers (IM) and clues over 7 days, then score type majorities (HO-39). The game waits on one
`Pending` decision at a time (see `engine.holmes.pending`). This module holds the setup, whose
turn it is, the legal actions and the marker, reserve and Wildcard decisions; the flow of days
is in `engine.holmes.days`, the skills in `engine.holmes.skills`, the views in
`engine.holmes.views`, the scoring in `engine.holmes.scoring`.
"""

from __future__ import annotations

from typing import Any

from engine import catalogue
from engine.core import Game
from engine.holmes import views
from engine.holmes.area import PlayArea
from engine.holmes.catalogue import (
    CLUE_TYPES,
    COPIES,
    DECK_CHARACTERS,
    IM_START,
    IM_TOTAL,
    INITIAL,
    LINE_SIZE,
    MARKERS,
    FIRST,
    SECOND,
    SIDE_NAMES,
    SIDES,
    VILLAINS,
    character_name,
    a_clue,
    clue_name,
)
from engine.holmes.pending import BOTH, Pending, answers_decision, describe_pending
from engine.holmes.days import DaysMixin
from engine.holmes.skills import SkillsMixin

Action = dict[str, Any]

class Holmes(DaysMixin, SkillsMixin, Game):
    INFO = catalogue.HOLMES
    ACTIONS = {
        "pick_start": {"character": str},
        "choose_side": {"side": str},
        "place": {"character": str},
        "move": {"from": str, "to": str},
        "lay_down": {"character": str},
        "use": {},
        "take": {"slot": int},
        "take_reserved": {},
        "steal": {"card": str},
        "draw": {"count": int},
        "keep": {"index": int},
        "discard_line": {"slot": int},
        "discard": {"card": str},
        "swap": {"give": str, "slot": int},
        "decline": {},
        "done": {},
        "buy": {},
        "assign": {"clue": str},
        "keep_aside": {},
        "reserve": {"slot": int},
        "end_action": {},
        "return_im": {},
    }

    # -- setup (HO-8, HO-40, HO-42) -------------------------------------------------------

    def setup(self) -> None:
        rng = self.rng
        self.areas = [PlayArea(), PlayArea()]
        self.reserve = IM_TOTAL - 2 * IM_START
        self.first = rng.randrange(2) if self.options["first_player"] == "random" else 0
        self.order = (self.first, 1 - self.first)
        self.sides: list[str | None] = [None, None]
        self.board: list[str] = list(INITIAL)
        """Characters in play, in the order they came: initial, Day 1, Day 2, ..."""
        self.day_of: dict[str, int] = {}
        self.spent: set[str] = set()
        self.markers: list[dict[str, bool]] = [{}, {}]
        """Per seat, character -> standing? A colour holds at most one marker per character."""
        self.day = 1
        self.stage = "side"
        self.actions_done = 0
        self.actions_each = MARKERS
        self.moran_today = False
        self.villains_drawn: list[str] = []
        self.revealed: list[list[str]] | None = None
        self.scores = None
        self.queue: list[Pending] = []

        self.char_deck = list(DECK_CHARACTERS)
        rng.shuffle(self.char_deck)
        self.deck = [t for t in CLUE_TYPES for _ in range(COPIES[t])]
        rng.shuffle(self.deck)
        self.discard: list[str] = []
        self.line: list[str | None] = [None] * LINE_SIZE
        self.refill_line(quiet=True)
        self.log("line", "The line is dealt: " + self.describe_line() + ".",
                 line=list(self.line))
        self.reserve_holder = self.order[1] if self.options["reserve_card"] else None
        self.reserved_this_action = False
        """HO-41: a clue reserved during this action may be claimed only in a later one."""

        if self.options["alternative_start"]:
            offers = {seat: [self.char_deck.pop(), self.char_deck.pop()] for seat in self.order}
            self.stage = "pick"
            self.queue.append(Pending("pick_start", BOTH, offers=offers))
            for seat, pair in offers.items():
                self.log("start_offer",
                         "You may pick " + " or ".join(map(character_name, pair)) + " for Day 1.",
                         (seat,), audience=self.only[seat], characters=list(pair))
        else:
            self.reveal_day_one([self.char_deck.pop(), self.char_deck.pop()])
            self.queue.append(Pending("side", self.first))
        self.log("first_player", "{0} plays first and chooses Sherlock or Mycroft.",
                 (self.first,))

    def reveal_day_one(self, characters: list[str]) -> None:
        for character in characters:
            self.board.append(character)
            self.day_of[character] = 1
        self.log("day_one", "Day 1 brings " + " and ".join(map(character_name, characters)) + ".",
                 characters=list(characters))
        villains = self.options["villains"]
        if villains == "none":
            return
        if villains == "both":
            chosen = list(VILLAINS)
        elif villains == "random_one":
            chosen = [self.rng.choice(VILLAINS)]
        else:
            chosen = [villains]
        self.char_deck += chosen
        self.rng.shuffle(self.char_deck)

    # -- whose turn -----------------------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        if self.outcome is not None or not self.queue:
            return frozenset()
        head = self.queue[0]
        if head.kind == "pick_start":
            return frozenset(s for s in head.offers if s not in head.picks)
        return frozenset((head.seat,))

    def active(self) -> int:
        return self.order[self.actions_done % 2]

    def seat_teams(self) -> tuple[str, ...]:
        """"first" and "second" player: the game's only asymmetry (HO-10), fixed at setup.

        Sherlock and Mycroft play by the same rules (HO-1) and the side is chosen in play, so
        a side cannot name a seat's team before the game starts (as the simulator needs)."""
        return tuple(FIRST if s == self.first else SECOND for s in range(2))

    # -- legal actions --------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        head = self.queue[0]
        kind = head.kind
        if kind == "pick_start":
            return [{"type": "pick_start", "character": c} for c in head.offers[seat]]
        if kind == "side":
            return [{"type": "choose_side", "side": s} for s in SIDES]
        if kind == "move":
            actions = self.move_actions(seat)
        elif kind == "skill":
            actions = self.skill_legal(head)
        elif kind == "finish":
            actions = [{"type": "end_action"}]
        elif kind == "assign":
            return [{"type": "assign", "clue": t} for t in self.assign_options(head)] + [
                {"type": "keep_aside"}
            ]
        elif kind == "buy":
            return [{"type": "buy"}, {"type": "decline"}]
        elif kind == "moran":
            return [{"type": "lay_down", "character": c} for c in self.standing(seat)]
        elif kind == "moriarty":
            actions = [{"type": "discard", "card": c} for c in self.areas[seat].visible_cards()]
            if self.areas[seat].im >= 2:
                actions.append({"type": "return_im"})
            return actions
        else:
            raise AssertionError(f"unknown decision {kind!r}")
        return actions + self.reserve_actions(seat)

    def destinations(self, seat: int) -> list[str]:
        """HO-16: in play, not spent, and holding no marker of this seat's colour."""
        mine = self.markers[seat]
        return [c for c in self.board if c not in self.spent and c not in mine]

    def standing(self, seat: int) -> list[str]:
        return [c for c, up in self.markers[seat].items() if up]

    def move_actions(self, seat: int) -> list[Action]:
        targets = self.destinations(seat)
        if self.day == 1:
            return [{"type": "place", "character": c} for c in targets]
        return [{"type": "move", "from": s, "to": t} for s in self.standing(seat) for t in targets]

    def assign_options(self, p: Pending) -> list[str]:
        area = self.areas[p.seat]
        if not area.free_wild:
            return []
        eligible = area.eligible_types()
        if p.wild_gained > 0:
            return eligible
        return [t for t in eligible if t in p.new_types]

    def can_reserve(self, seat: int) -> bool:
        """HO-41: the holder, during their own action, with no reserved clue yet."""
        if self.reserve_holder != seat or self.areas[seat].reserved is not None:
            return False
        head = self.queue[0] if self.queue else None
        return (
            head is not None
            and head.kind in ("move", "skill", "finish")
            and head.seat == seat
            and any(card is not None for card in self.line)
        )

    def reserve_actions(self, seat: int) -> list[Action]:
        if not self.can_reserve(seat):
            return []
        return [{"type": "reserve", "slot": i} for i, c in enumerate(self.line) if c is not None]

    # -- applying -------------------------------------------------------------------------

    def explain(self, seat: int, action: Action) -> str:
        """Why `action` is not legal now, in words a player can read."""
        head = self.queue[0]
        kind = action["type"]
        awaited = describe_pending(self.day, head)
        if kind not in {a["type"] for a in self.legal_actions(seat)}:
            if kind == "reserve" and self.reserve_holder is not None:
                if self.reserve_holder != seat:
                    return "you do not hold the Sherlock/Mycroft reserve card"
                if self.areas[seat].reserved is not None:
                    return "you already hold a reserved clue; claim it before reserving again"
            return f"you cannot {kind!r} now: {awaited}"
        if kind == "move":
            if not self.markers[seat].get(action["from"]):
                return f"you have no standing marker on {action['from']!r}"
            return self.explain_target(seat, action["to"])
        if kind == "place":
            return self.explain_target(seat, action["character"])
        if "slot" in action and not (
            0 <= action["slot"] < LINE_SIZE and self.line[action["slot"]] is not None
        ):
            return f"there is no clue in slot {action['slot']} of the line"
        return f"that {kind!r} is not one of your choices now: {awaited}"

    def explain_target(self, seat: int, target: str) -> str:
        if target not in self.board:
            return f"{target!r} is not a character in play"
        if target in self.spent:
            return f"{character_name(target)} is spent today"
        if target in self.markers[seat]:
            return f"{character_name(target)} already holds one of your markers"
        return "you have no unplaced marker left"

    @answers_decision
    def act_pick_start(self, seat: int, action: Action) -> None:
        head = self.queue[0]
        head.picks[seat] = action["character"]
        self.log("start_picked", "{0} has picked a Day-1 character.", (seat,))
        if len(head.picks) < 2:
            return
        self.queue.pop(0)
        for s in self.order:
            self.char_deck += [c for c in head.offers[s] if c != head.picks[s]]
        self.rng.shuffle(self.char_deck)
        self.reveal_day_one([head.picks[s] for s in self.order])
        self.stage = "side"
        self.queue.append(Pending("side", self.first))

    @answers_decision
    def act_choose_side(self, seat: int, action: Action) -> None:
        self.queue.pop(0)
        self.sides[seat] = action["side"]
        self.sides[1 - seat] = SIDES[1] if action["side"] == SIDES[0] else SIDES[0]
        self.log("sides", "{0} plays " + SIDE_NAMES[self.sides[seat]] + ", {1} plays "
                 + SIDE_NAMES[self.sides[1 - seat]] + ".", (seat, 1 - seat),
                 sides=list(self.sides))
        self.stage = "action"
        self.actions_done = 0
        self.log("day", "Day 1 begins.", day=1)
        self.begin_turn()

    @answers_decision
    def act_place(self, seat: int, action: Action) -> None:
        target = action["character"]
        self.markers[seat][target] = False
        self.log("place", "{0} places a marker on " + character_name(target) + ".", (seat,),
                 to=target)
        self.after_marker(seat, target)

    @answers_decision
    def act_move(self, seat: int, action: Action) -> None:
        source, target = action["from"], action["to"]
        del self.markers[seat][source]
        self.markers[seat][target] = False
        self.log("move", "{0} moves a marker from " + character_name(source) + " to "
                 + character_name(target) + ".", (seat,), **{"from": source, "to": target})
        self.after_marker(seat, target)

    def after_marker(self, seat: int, target: str) -> None:
        self.queue.pop(0)
        self.queue.append(Pending("finish", seat))
        self.begin_skill(seat, target)

    @answers_decision
    def act_end_action(self, seat: int, action: Action) -> None:
        self.queue.pop(0)

    @answers_decision
    def act_reserve(self, seat: int, action: Action) -> None:
        slot = action["slot"]
        card = self.line[slot]
        self.line[slot] = None
        self.areas[seat].reserved = card
        self.reserved_this_action = True
        self.reserve_holder = 1 - seat
        self.log("reserve", "{0} reserves " + a_clue(card) + " from the line.", (seat,),
                 card=card)
        self.refill_line()

    @answers_decision
    def act_assign(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        clue = action["clue"]
        area = self.areas[seat]
        area.free_wild -= 1
        area.wild_on.add(clue)
        if clue in p.new_types:
            p.new_types.discard(clue)
        else:
            p.wild_gained -= 1
        self.log("assign", "{0} puts a Wildcard on " + clue_name(clue) + ".", (seat,), clue=clue)

    @answers_decision
    def act_keep_aside(self, seat: int, action: Action) -> None:
        self.queue.pop(0)
        self.log("keep_aside", "{0} keeps their unassigned Wildcards aside.", (seat,))

    # -- cards and markers ----------------------------------------------------------------

    def draw_card(self) -> str | None:
        """The top clue of the deck, reshuffling the discard pile when it runs out (HO-25)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.log("reshuffle", f"The discard pile ({len(self.deck)} cards) becomes the deck.",
                     size=len(self.deck))
        return self.deck.pop()

    def refill_line(self, quiet: bool = False) -> None:
        filled = []
        for i, card in enumerate(self.line):
            if card is None:
                card = self.draw_card()
                if card is None:
                    break
                self.line[i] = card
                filled.append(card)
        if filled and not quiet:
            self.log("refill", "The line is refilled with "
                     + ", ".join(map(clue_name, filled)) + ".", cards=filled,
                     line=list(self.line))

    def describe_line(self) -> str:
        return ", ".join(clue_name(c) for c in self.line if c is not None) or "empty"

    def gain(self, seat: int, amount: int) -> int:
        """HO-21: every gain is capped by the reserve."""
        amount = min(amount, self.reserve)
        self.reserve -= amount
        self.areas[seat].im += amount
        return amount

    def pay(self, seat: int, amount: int) -> None:
        self.areas[seat].im -= amount
        self.reserve += amount

    # -- views ----------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def seat_view(self, seat: int) -> dict[str, Any]:
        return views.seat_view(self, seat)

    def referee_view(self) -> dict[str, Any]:
        return views.referee_view(self)


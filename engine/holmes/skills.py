"""The twelve characters' skills (HO-7, HO-21, HO-24 to HO-37) as pending decisions.

A skill is offered after its marker lands (HO-21) when it can have an effect and its cost can
be paid; otherwise it is skipped and nothing is paid. While it is open, `skill_steps` lists its
next steps; a skill not yet started may be declined (HO-19), and Gregson and Shinwell may stop
("done") after their first card. A skill whose steps run out completes: the line is refilled
once (HO-24), and Wildcards gained during it may be assigned (HO-28).

This is a mixin of `engine.holmes.game.Holmes`; it reads and changes that game's state.
"""

from __future__ import annotations

from typing import Any

from engine.holmes.catalogue import (
    BILLY,
    GREGSON,
    HUDSON,
    IRENE,
    LANGDALE,
    LESTRADE,
    SHINWELL,
    TOBY,
    VALUE,
    VIOLET,
    VON_KRAMM,
    WATSON,
    WIGGINS,
    WILD_PREFIX,
    WILDCARD,
    character_name,
    a_clue,
    clue_name,
)
from engine.holmes.pending import Pending, answers_decision

Action = dict[str, Any]

IM_GAIN = {HUDSON: 3, WIGGINS: 5}
TAKE_LIMIT = {WATSON: 1, LESTRADE: 2, GREGSON: 3, VON_KRAMM: 1}
STOPPABLE = frozenset({GREGSON, SHINWELL})
"""Skills with a range (1-3 cards) that may stop after their first card (HO-19)."""


class SkillsMixin:
    # -- offering -------------------------------------------------------------------------

    def begin_skill(self, seat: int, character: str) -> None:
        pending = Pending("skill", seat, character)
        if self.skill_steps(pending):
            self.queue.insert(0, pending)
        else:
            self.log(
                "skill_unusable",
                "{0} cannot use " + character_name(character) + "'s skill now.",
                (seat,),
                character=character,
            )

    def line_takes(self, seat: int) -> list[Action]:
        takes: list[Action] = [
            {"type": "take", "slot": i} for i, card in enumerate(self.line) if card is not None
        ]
        if self.areas[seat].reserved is not None and not self.reserved_this_action:
            takes.append({"type": "take_reserved"})  # HO-41: in a later action only
        return takes

    def skill_steps(self, p: Pending) -> list[Action]:
        """The skill's next steps now, besides decline, done and reserve."""
        area = self.areas[p.seat]
        character, taken, im = p.character, p.taken, area.im
        if character in TAKE_LIMIT:
            if taken >= TAKE_LIMIT[character]:
                return []
            if character == WATSON and im < 1:
                return []
            if character == LESTRADE and taken == 0 and im < 3:
                return []
            if character == GREGSON and im < 2:
                return []
            return self.line_takes(p.seat)
        if taken:
            if character == LANGDALE and p.drawn:
                return [{"type": "keep", "index": i} for i in range(len(p.drawn))]
            if character == SHINWELL and taken < 3:
                return [
                    {"type": "discard_line", "slot": i}
                    for i, card in enumerate(self.line)
                    if card is not None
                ]
            return []
        if character in IM_GAIN:
            return [{"type": "use"}] if self.reserve else []
        if character == TOBY:
            return [{"type": "use"}] if self.reserve and area.toby_count() else []
        if character == IRENE:
            if im < self.day:
                return []
            target = self.areas[1 - p.seat]
            return [{"type": "steal", "card": card} for card in target.stealable()]
        if character == LANGDALE:
            most = min(3, im, len(self.deck) + len(self.discard))
            return [{"type": "draw", "count": k} for k in range(1, most + 1)]
        if character == SHINWELL:
            return [
                {"type": "discard_line", "slot": i}
                for i, card in enumerate(self.line)
                if card is not None
            ]
        if character == BILLY:
            return [{"type": "discard", "card": card} for card in area.valued_held()]
        if character == VIOLET:
            return self.swaps(p.seat)
        raise AssertionError(f"no skill for {character!r}")

    def swaps(self, seat: int) -> list[Action]:
        """HO-37: any visible card for any line card, except swaps that change nothing."""
        swaps = []
        for give in self.areas[seat].visible_cards():
            is_wild = give == WILDCARD or give.startswith(WILD_PREFIX)
            for slot, card in enumerate(self.line):
                if card is None or card == (WILDCARD if is_wild else give):
                    continue
                swaps.append({"type": "swap", "give": give, "slot": slot})
        return swaps

    def skill_legal(self, p: Pending) -> list[Action]:
        actions = self.skill_steps(p)
        if not p.started:
            actions.append({"type": "decline"})
        elif p.character in STOPPABLE:
            actions.append({"type": "done"})
        return actions

    def complete_skill(self, p: Pending) -> None:
        self.queue.remove(p)
        if p.touched_line:
            self.refill_line()
        follow = []
        if p.wild_gained or p.new_types:
            follow.append(
                Pending("assign", p.seat, wild_gained=p.wild_gained, new_types=p.new_types)
            )
        if p.character == VON_KRAMM:
            follow.append(Pending("buy", 1 - p.seat, VON_KRAMM))
        self.queue[0:0] = follow

    # -- steps ----------------------------------------------------------------------------

    def gain_visible(self, seat: int, card: str, p: Pending) -> None:
        area = self.areas[seat]
        area.add_visible(card)
        if card == WILDCARD:
            p.wild_gained += 1
        elif card in VALUE and card not in area.wild_on:
            p.new_types.add(card)

    def take_cost(self, p: Pending) -> int:
        if p.character == WATSON:
            return 1
        if p.character == LESTRADE:
            return 3 if p.taken == 0 else 0
        if p.character == GREGSON:
            return 2
        return 0

    @answers_decision
    def act_take(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        slot = action["slot"]
        card = self.line[slot]
        self.line[slot] = None
        p.touched_line = True
        self._take(seat, p, card, "from the line")

    @answers_decision
    def act_take_reserved(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        area = self.areas[seat]
        card, area.reserved = area.reserved, None
        self._take(seat, p, card, "from their reserved clue")

    def _take(self, seat: int, p: Pending, card: str, where: str) -> None:
        cost = self.take_cost(p)
        self.pay(seat, cost)
        self.gain_visible(seat, card, p)
        p.taken += 1
        paid = f", paying {cost} IM" if cost else ""
        self.log(
            "take",
            "{0} takes " + a_clue(card) + f" {where}{paid} ({character_name(p.character)}).",
            (seat,),
            card=card,
            character=p.character,
            cost=cost,
        )

    @answers_decision
    def act_use(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        if p.character == TOBY:
            wanted = self.areas[seat].toby_count()
        else:
            wanted = IM_GAIN[p.character]
        gained = self.gain(seat, wanted)
        p.taken = 1
        self.log(
            "gain",
            "{0} gains " + f"{gained} IM ({character_name(p.character)}).",
            (seat,),
            character=p.character,
            amount=gained,
        )

    @answers_decision
    def act_steal(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        card = action["card"]
        victim = 1 - seat
        self.pay(seat, self.day)
        self.areas[victim].remove_visible(card)
        self.areas[seat].hidden.append(card)
        p.taken = 1
        self.log(
            "steal",
            "{0} pays " + f"{self.day} IM and steals " + a_clue(card)
            + " from {1} into their hidden clues (Irene Adler).",
            (seat, victim),
            card=card,
            cost=self.day,
        )

    @answers_decision
    def act_draw(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        count = action["count"]
        self.pay(seat, count)
        p.drawn = [self.draw_card() for _ in range(count)]
        p.taken = count
        self.log(
            "rumours",
            "{0} pays " + f"{count} IM and draws {count} card{'s' * (count > 1)} (Langdale Pike).",
            (seat,),
            count=count,
        )
        self.log(
            "rumours_private",
            "You draw: " + ", ".join(clue_name(c) for c in p.drawn) + ".",
            (seat,),
            audience=self.only[seat],
            cards=list(p.drawn),
        )

    @answers_decision
    def act_keep(self, seat: int, action: Action) -> None:
        self.keep_drawn(seat, action["index"])

    def keep_drawn(self, seat: int, index: int) -> None:
        """Langdale Pike: keep one of the drawn clues, discard the rest face down but for the
        Wildcards, which are shown kept or not (HO-32)."""
        p = self.queue[0]
        kept = p.drawn.pop(index)
        rest, p.drawn = p.drawn, []
        self.discard.extend(rest)
        wildcards = rest.count(WILDCARD)
        area = self.areas[seat]
        if kept == WILDCARD:
            area.free_wild += 1
            p.wild_gained += 1
            text = "{0} keeps a Wildcard, face up"
        else:
            area.hidden.append(kept)
            text = "{0} keeps 1 hidden clue"
            self.log("hidden_gain", "You keep " + a_clue(kept) + " hidden.", (seat,),
                     audience=self.only[seat], card=kept)
        self.log(
            "keep",
            text + " and " + discarded_words(len(rest), wildcards) + ".",
            (seat,),
            wildcard=kept == WILDCARD,
            discarded=len(rest),
            wildcards_discarded=wildcards,
        )

    @answers_decision
    def act_discard_line(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        slot = action["slot"]
        card = self.line[slot]
        self.line[slot] = None
        self.discard.append(card)
        p.touched_line = True
        p.taken += 1
        self.log(
            "discard_line",
            "{0} discards " + a_clue(card) + " from the line (Shinwell Johnson).",
            (seat,),
            card=card,
        )

    @answers_decision
    def act_discard(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        card = action["card"]
        printed = self.areas[seat].remove_visible(card)
        self.discard.append(printed)
        if p.kind == "moriarty":
            self.queue.pop(0)
            self.log("moriarty_discard", "{0} discards " + a_clue(card) + " (Moriarty).",
                     (seat,), card=card)
            return
        gained = self.gain(seat, max(0, VALUE[card] - self.day))
        p.taken = 1
        self.log(
            "errand",
            "{0} discards " + a_clue(card) + f" and gains {gained} IM (Billy).",
            (seat,),
            card=card,
            amount=gained,
        )

    @answers_decision
    def act_swap(self, seat: int, action: Action) -> None:
        p = self.queue[0]
        slot, give = action["slot"], action["give"]
        taken = self.line[slot]
        given = self.areas[seat].remove_visible(give)
        self.line[slot] = given
        self.gain_visible(seat, taken, p)
        p.taken = 1
        self.log(
            "swap",
            "{0} gives " + a_clue(give) + " for " + a_clue(taken)
            + " from the line (Violet Hunter).",
            (seat,),
            give=give,
            card=taken,
        )

    @answers_decision
    def act_decline(self, seat: int, action: Action) -> None:
        p = self.queue.pop(0)
        if p.kind == "buy":
            self.log("no_buy", "{0} does not buy a card (Von Kramm).", (seat,))
        else:
            self.log(
                "decline",
                "{0} declines " + character_name(p.character) + "'s skill.",
                (seat,),
                character=p.character,
            )

    @answers_decision
    def act_done(self, seat: int, action: Action) -> None:
        self.complete_skill(self.queue[0])

    @answers_decision
    def act_buy(self, seat: int, action: Action) -> None:
        self.queue.pop(0)
        self.pay(seat, 1)
        card = self.draw_card()
        area = self.areas[seat]
        if card == WILDCARD:
            area.free_wild += 1
            self.queue.insert(0, Pending("assign", seat, wild_gained=1))
            self.log("buy", "{0} pays 1 IM and draws a Wildcard, face up (Von Kramm).", (seat,),
                     wildcard=True)
        else:
            area.hidden.append(card)
            self.log("buy", "{0} pays 1 IM and draws a hidden clue (Von Kramm).", (seat,),
                     wildcard=False)
            self.log("hidden_gain", "You draw " + a_clue(card) + " and keep it hidden.",
                     (seat,), audience=self.only[seat], card=card)


def discarded_words(count: int, wildcards: int) -> str:
    """What a Langdale Pike discard shows both players: how many cards, and which of them are
    Wildcards, which are never hidden (HO-32)."""
    if not wildcards:
        return f"discards {count} face down"
    if count == wildcards == 1:
        return "discards a Wildcard, face up"
    if count == wildcards:
        return f"discards {count} Wildcards, face up"
    shown = "one of them a Wildcard" if wildcards == 1 else f"{wildcards} of them Wildcards"
    return f"discards {count}, {shown} (face up)"

"""The smart bot's appraisal: a what-if model of the game built from one seat's view only.

`Model.value()` estimates the final score difference for the model's owner: each type's
majority weighted by how likely the current lead is to hold with the clues still unseen, the
complete-set bonus and its progress, the convex Map Fragment table, Wildcard and reserve
penalties, the opponent's unknown hidden clues, and investigation markers worth less as the
week runs out. Skills are appraised by applying their best use to a copy of the model.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.holmes.catalogue import (
    BILLY, COMPLETE_SET_BONUS, COPIES, DAYS, GREGSON, HUDSON, IRENE, LANGDALE, LESTRADE,
    MAP, MAP_SCORE, MARKERS, REAL_TYPES, SHINWELL, TOBY, VALUE, VALUED, VIOLET, VON_KRAMM,
    WATSON, WIGGINS, WILD_PREFIX, WILDCARD,
)

EARLY_MAP_SCORE = (0, -0.2, 1.4, 3.4, 6.2, 10)
"""Early on, one Map Fragment is a step towards the table's convex top, not a loss."""
HIDDEN_CLUE_WORTH = 1.0
"""What an opponent's unknown hidden clue is worth to them, on average."""
DENIAL = 0.35
"""How much of the opponent's gain from a line card counts when we take or discard it."""
IM_VALUE = 0.6
"""What one investigation marker is worth at the start of the week, above its floor: a
marker buys clues until the week runs out."""


@dataclass
class Model:
    me: int
    day: int
    left: float
    """The share of the week still to play, 1 at the start and 0 at the end."""
    im: list[int]
    reserve: int
    counts: list[Counter]
    wild_on: list[set]
    free: list[int]
    hidden: list[int]
    """Hidden clues the owner of the model cannot identify (the opponent's)."""
    reserved: list[str | None]
    line: list[str | None]
    unseen: Counter = field(default_factory=Counter)
    own_hidden: Counter = field(default_factory=Counter)
    """Our own hidden clues, also folded into `counts[me]` as they score at the end."""
    im_value: float = IM_VALUE
    memo: dict = field(default_factory=dict, repr=False)
    """Appraisals of this exact position; every what-if change clears it."""

    @property
    def opp(self) -> int:
        return 1 - self.me

    @classmethod
    def from_view(cls, view: Mapping[str, Any], seat: int, im_value: float = IM_VALUE) -> "Model":
        areas = view["areas"]
        counts, seen = [], Counter(c for c in view["line"] if c)
        for s, area in enumerate(areas):
            real = Counter(area["clues"])
            seen.update(area["clues"])
            seen[WILDCARD] += len(area["wildcards"]) + area["free_wildcards"]
            if area["reserved"]:
                seen[area["reserved"]] += 1
            if s == seat:
                real.update(area.get("hidden", ()))
                seen.update(area.get("hidden", ()))
            counts.append(real)
        unseen = Counter({t: COPIES[t] - seen[t] for t in COPIES if COPIES[t] > seen[t]})
        per_day = view["actions_per_player"]
        done_today = view["actions_done"] // 2 if view["active"] is not None else 0
        mine_left = (DAYS - view["day"]) * MARKERS + max(0, per_day - done_today)
        return cls(
            me=seat,
            day=view["day"],
            left=mine_left / (DAYS * MARKERS),
            im=[a["im"] for a in areas],
            reserve=view["reserve"],
            counts=counts,
            wild_on=[set(a["wildcards"]) for a in areas],
            free=[a["free_wildcards"] for a in areas],
            hidden=[0 if s == seat else a["hidden_count"] for s, a in enumerate(areas)],
            reserved=[a["reserved"] for a in areas],
            line=list(view["line"]),
            unseen=unseen,
            own_hidden=Counter(areas[seat].get("hidden", ())),
            im_value=im_value,
        )

    def copy(self) -> "Model":
        # The memo is not copied: it belongs to this exact position.
        return Model(self.me, self.day, self.left, list(self.im), self.reserve,
                     [Counter(c) for c in self.counts], [set(w) for w in self.wild_on],
                     list(self.free), list(self.hidden), list(self.reserved), list(self.line),
                     self.unseen, self.own_hidden, self.im_value)

    def mirrored(self) -> "Model":
        """The same position appraised for the opponent (their hidden clues stay unknown)."""
        if "mirror" not in self.memo:
            m = self.copy()
            m.me = self.opp
            self.memo["mirror"] = m
        return self.memo["mirror"]

    # -- appraisal ------------------------------------------------------------------------

    def value(self) -> float:
        memo = self.memo
        if "value" not in memo:
            memo["value"] = self._value()
        return memo["value"]

    def _value(self) -> float:
        me, opp, left = self.me, self.opp, self.left
        total = 0.0
        for clue_type in VALUED:
            v = VALUE[clue_type]
            real_a, real_b = self.counts[me][clue_type], self.counts[opp][clue_type]
            a = real_a + (clue_type in self.wild_on[me])
            b = real_b + (clue_type in self.wild_on[opp])
            flow = self.unseen[clue_type] * left
            margin = a - b
            if flow < 0.5:
                p = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
            else:
                p = 0.5 + 0.5 * math.tanh(margin / (0.5 + 0.45 * flow))
            if a or b:
                total += p * (v - b) - (1 - p) * (v - a)
            total += self._complete(real_a, real_b, v) - self._complete(real_b, real_a, v)
        total += self._maps(self.counts[me][MAP]) - self._maps(self.counts[opp][MAP])
        total += self._loose(me) - self._loose(opp)
        total -= HIDDEN_CLUE_WORTH * self.hidden[opp]
        total += (self.im[me] - self.im[opp]) * self.im_worth()
        return total

    def im_worth(self) -> float:
        return 0.04 + self.im_value * self.left

    def _complete(self, mine: int, theirs: int, v: int) -> float:
        if mine == v:
            return COMPLETE_SET_BONUS
        if theirs or not mine:
            return 0.0
        return COMPLETE_SET_BONUS * 0.6 * (mine / v) ** 2

    def _maps(self, held: int) -> float:
        held = min(held, 5)
        return EARLY_MAP_SCORE[held] * self.left + MAP_SCORE[held] * (1 - self.left)

    def _loose(self, seat: int) -> float:
        """Penalties that may still be avoided: unassignable Wildcards, a reserved clue."""
        late = 1 - self.left
        out = 0.0
        if self.free[seat]:
            eligible = [t for t in VALUED if self.counts[seat][t] and t not in self.wild_on[seat]]
            spare = max(0, self.free[seat] - len(eligible))
            out -= spare * (0.8 + 2.2 * late)
        if self.reserved[seat] is not None:
            out -= 0.3 + 2.7 * late
        return out

    # -- what-ifs -------------------------------------------------------------------------

    def gain(self, card: str) -> None:
        self.memo.clear()
        if card == WILDCARD:
            self.free[self.me] += 1
            self.assign_best()
        else:
            self.counts[self.me][card] += 1
            if self.free[self.me] and card in VALUE and card not in self.wild_on[self.me]:
                self.assign_best()

    def assign_best(self) -> str | None:
        """Put one free Wildcard where it helps most (the bot's own rule too)."""
        me = self.me
        best, best_value = None, None
        for t in VALUED:
            if self.counts[me][t] and t not in self.wild_on[me] and self.free[me]:
                trial = self.copy()
                trial.free[me] -= 1
                trial.wild_on[me].add(t)
                value = trial.value()
                if best_value is None or value > best_value:
                    best, best_value = t, value
        if best is not None:
            self.memo.clear()
            self.free[me] -= 1
            self.wild_on[me].add(best)
        return best

    def lose(self, seat: int, card: str) -> None:
        self.memo.clear()
        if card == WILDCARD:
            self.free[seat] -= 1
        elif card.startswith(WILD_PREFIX):
            self.wild_on[seat].discard(card[len(WILD_PREFIX):])
        else:
            self.counts[seat][card] -= 1
            if not self.counts[seat][card] and card in self.wild_on[seat]:
                self.wild_on[seat].discard(card)
                self.free[seat] += 1

    def pay(self, amount: int) -> None:
        self.memo.clear()
        self.im[self.me] -= amount
        self.reserve += amount

    def earn(self, amount: int) -> None:
        self.memo.clear()
        amount = min(amount, self.reserve)
        self.im[self.me] += amount
        self.reserve -= amount

    def card_gain(self, card: str) -> float:
        """What taking `card` into our visible clues is worth to us."""
        key = ("gain", card)
        if key not in self.memo:
            trial = self.copy()
            trial.gain(card)
            self.memo[key] = trial.value() - self.value()
        return self.memo[key]

    def denial(self, card: str) -> float:
        return DENIAL * max(0.0, self.mirrored().card_gain(card))

    def take_worth(self, card: str) -> float:
        return self.card_gain(card) + self.denial(card)

    def unseen_sample(self, rng: random.Random, k: int) -> list[str]:
        pool = list(self.unseen.elements())
        return rng.sample(pool, min(k, len(pool))) if pool else []

    def expected_draw(self, rng: random.Random, k: int, samples: int = 6) -> float:
        """Langdale Pike: the average worth of the best of k unseen cards, kept."""
        if not self.unseen:
            return 0.0
        total = 0.0
        for _ in range(samples):
            total += max(self.card_gain(c) for c in self.unseen_sample(rng, k))
        return total / samples

    # -- skills ---------------------------------------------------------------------------

    def line_cards(self) -> list[str]:
        return [c for c in self.line if c is not None]

    def skill_worth(self, character: str, rng: random.Random) -> float:
        """The best use of `character`'s skill now, against declining (worth 0)."""
        me, im, worth = self.me, self.im[self.me], self.im_worth()
        line = self.line_cards()
        if self.reserved[me] is not None:
            line = line + [self.reserved[me]]
        takes = sorted((self.take_worth(c) for c in line), reverse=True)
        best = 0.0
        if character == WATSON and im >= 1 and takes:
            best = takes[0] - worth
        elif character == LESTRADE and im >= 3 and takes:
            best = sum(takes[:2]) - 3 * worth
        elif character == GREGSON:
            running = 0.0
            for k, t in enumerate(takes[:3], start=1):
                if im < 2 * k:
                    break
                running += t - 2 * worth
                best = max(best, running)
        elif character == VON_KRAMM and takes:
            best = takes[0] - 0.3
        elif character in (HUDSON, WIGGINS, TOBY):
            if character == TOBY:
                amount = sum(1 for t in VALUED if self.counts[me][t]) + (
                    1 if self.counts[me][MAP] else 0)
            else:
                amount = 3 if character == HUDSON else 5
            best = min(amount, self.reserve) * worth
        elif character == IRENE and im >= self.day:
            for card in REAL_TYPES:
                if self.counts[self.opp][card]:
                    trial = self.copy()
                    trial.lose(self.opp, card)
                    trial.counts[me][card] += 1
                    trial.pay(self.day)
                    best = max(best, trial.value() - self.value())
        elif character == LANGDALE and im >= 1:
            for k in range(1, min(3, im) + 1):
                best = max(best, self.expected_draw(rng, k, samples=3) - k * worth)
        elif character == SHINWELL:
            denials = sorted((self.denial(c) - 0.5 * self.card_gain(c) for c in line),
                             reverse=True)
            best = sum(d for d in denials[:3] if d > 0)
        elif character == BILLY:
            for card in VALUED:
                if self.counts[me][card] > self.hidden_of_mine(card):
                    trial = self.copy()
                    trial.lose(me, card)
                    trial.earn(max(0, VALUE[card] - self.day))
                    best = max(best, trial.value() - self.value())
        elif character == VIOLET:
            best = max([0.0] + [w for _, w in self.swaps()])
        return max(0.0, best)

    def hidden_of_mine(self, card: str) -> int:
        return self.own_hidden[card] if self.me is not None else 0

    def visible(self, seat: int, card: str) -> int:
        return self.counts[seat][card] - (self.own_hidden[card] if seat == self.me else 0)

    def swaps(self) -> list[tuple[tuple[str, int], float]]:
        if "swaps" not in self.memo:
            self.memo["swaps"] = self._swaps()
        return self.memo["swaps"]

    def _swaps(self) -> list[tuple[tuple[str, int], float]]:
        me = self.me
        base = self.value()
        out = []
        gives = [t for t in REAL_TYPES if self.visible(me, t)]
        gives += [WILDCARD] * bool(self.free[me])
        gives += [WILD_PREFIX + t for t in sorted(self.wild_on[me])]  # in an order every run keeps
        for give in gives:
            for slot, card in enumerate(self.line):
                if card is None:
                    continue
                trial = self.copy()
                trial.lose(me, give)
                trial.line[slot] = WILDCARD if give.startswith(WILD_PREFIX) else give
                trial.gain(card)
                out.append(((give, slot), trial.value() - base + self.denial(card)
                             - DENIAL * max(0.0, self.mirrored().card_gain(trial.line[slot]))))
        return out

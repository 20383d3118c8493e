"""What one seat of Time Bomb or Évolution can infer from its view: a posterior over hidden
roles and wires.

A hypothesis is a set of Moriarty seats and, for the current deal, the seat holding the Bomb.
Each is weighed by how well it explains everything public since the game began:

- each deal's claims, through a `ClaimModel`: how likely a player of that role, holding that
  many Defusing wires and the Bomb or not, is to claim what they claimed (or to stay silent);
- each cut since the deal: the hypergeometric chance that the wires revealed from a hand came
  out of it, given how many Defusing wires that hand is thought to hold;
- before a deal, the role posterior the earlier deals left (wires are dealt afresh, roles are
  not).

The players' Defusing counts at the deal are summed out jointly: the unseen wires are dealt at
random (TB-4, TB-11), so they hold exactly the unseen Defusing wires between them, and what
some hands are thought to hold says what the others hold. Évolution has no Bomb, and its
removed pile holds no Defusing wire, so the same holds there with no Bomb holder to place. The
view alone is read: this module sees nothing a seat may not.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any, Mapping, Protocol

from engine.timebomb.cards import BOMB, DEFUSING, MORIARTY, SHERLOCK


Claim = tuple[int, Any] | None
"""A claim as (Defusing wires at the deal, the rest of what it says), or None for a player who
kept quiet. The rest is the game's: the Bomb (0 or 1) in Time Bomb, a colour in Évolution."""


class ClaimModel(Protocol):
    """How likely a claim is, for a player of a role who held `defusing` Defusing wires and
    `bomb` (0 or 1) among `held` wires at a deal where `cap` Defusing wires could be claimed
    without a public contradiction (min of `held` and the Defusing wires not yet revealed)."""

    def likelihood(self, claim: Claim, role: str, defusing: int, bomb: int, held: int,
                   cap: int) -> float: ...


NEGLIGIBLE = 1e-6
"""A role group weighing less than this share of the likeliest is left out of the odds."""

FLOOR = 1e-4
"""The least likelihood any claim gets: a model is a guess about people, and one surprise must
not make a hypothesis impossible."""


class Posterior:
    """The posterior of one view, worked out once when built."""

    def __init__(self, view: Mapping[str, Any], model: ClaimModel):
        self.view = view
        self.model = model
        self.players: int = view["players"]
        self.me: int = view["viewer"]
        self.role: str = view["role"]
        self.others = [s for s in range(self.players) if s != self.me]
        self.groups = self._role_groups()
        """Every possible set of Moriarty seats (the viewer's own included if it is one)."""
        self.role_weights = [1.0] * len(self.groups)
        """The role posterior the finished deals left: the current deal's prior."""
        self.quiet = self._quiet_odds()
        """Per seat, the chance that it says its wires out loud instead of claiming."""
        self._read()

    # -- hypotheses ---------------------------------------------------------------------------

    def _role_groups(self) -> list[frozenset[int]]:
        view = self.view
        deck = view["role_deck"]
        sherlocks = deck[SHERLOCK] - (self.role == SHERLOCK)
        moriartys = deck[MORIARTY] - (self.role == MORIARTY)
        set_aside = view["set_aside_count"]
        mine = frozenset((self.me,)) if self.role == MORIARTY else frozenset()
        groups = []
        # Every arrangement of the unseen role cards is equally likely; the set-aside card (at 4
        # and 7 players) takes whatever is left, so each group counts once.
        for count in range(len(self.others) + 1):
            if not 0 <= moriartys - count <= set_aside or len(self.others) - count > sherlocks:
                continue
            for group in itertools.combinations(self.others, count):
                groups.append(mine | frozenset(group))
        return groups

    def _quiet_odds(self) -> list[float]:
        """Some people say their wires out loud, which a bot cannot hear, instead of claiming.
        A seat that never claimed is one of them with the chance that the other seats (not the
        viewer) never claimed either: a table where nobody presses the claim key is a table that
        talks, while one silence among claims is a choice. 0 for a seat that claimed.

        The claim model still weighs each silence as a talker's: this says whom a silence may
        not be about, for a bot deciding whom to cut."""
        claimed = {e["seats"][0] for e in self.view["events"] if e["type"] == "claim"}
        never = [s for s in self.others if s not in claimed]
        rest = len(self.others) - 1
        quiet = [0.0] * self.players
        for seat in never:
            quiet[seat] = (len(never) - 1) / rest if rest else 0.0
        return quiet

    # -- reading the log ----------------------------------------------------------------------

    def _read(self) -> None:
        view = self.view
        self.found = 0
        deal: dict[str, Any] | None = None
        for event in view["events"]:
            kind = event["type"]
            if kind == "deal":
                if deal is not None:
                    self._close_deal(deal)
                deal = {
                    "held": event["hand_size"],
                    "found": self.found,
                    "claims": [None] * self.players,
                    "revealed": [[0, 0] for _ in range(self.players)],
                    "hand": None,
                }
            elif kind == "hand" and deal is not None:
                deal["hand"] = event["hand"]
            elif kind == "claim" and deal is not None:
                seat = event["seats"][0]
                defusing_out, _ = deal["revealed"][seat]
                # A claim made after cuts speaks of what is left: count it as at the deal.
                deal["claims"][seat] = (event["defusing"] + defusing_out,
                                        event.get("bomb", event.get("colour")))
            elif kind == "cut" and deal is not None:
                target = event["seats"][1]
                wire = event["wire"]
                if wire == DEFUSING:
                    deal["revealed"][target][0] += 1
                    self.found += 1
                elif wire != BOMB:
                    deal["revealed"][target][1] += 1
        self.deal = deal
        if deal is None:
            self.totals = [0.0] * len(self.groups)
            self.bomb_mass = self.defusing_mass = [0.0] * self.players
        else:
            self.totals, self.bomb_mass, self.defusing_mass = self._weigh_deal(deal, True)

    def _pool(self, deal: Mapping[str, Any]) -> tuple[int, int, int, int, int]:
        """(my Defusing, my Bomb, unseen wires, unseen Defusing, unseen Bomb) at the deal."""
        hand = deal["hand"] or {}
        mine_defusing = hand.get("defusing", 0)
        mine_bomb = hand.get("bomb", 0)
        held = deal["held"]
        total_left = self.view["defusing_total"] - deal["found"]
        unseen = held * (self.players - 1)
        bombs = int(BOMB in self.view["wire_kinds"])
        return mine_defusing, mine_bomb, unseen, total_left - mine_defusing, bombs - mine_bomb

    def _seat_factors(self, deal: Mapping[str, Any]) -> dict[int, dict[tuple[str, int], Poly]]:
        """Per other seat and (role, holds the Bomb): a polynomial in the seat's Defusing count
        at the deal, each coefficient the ways to deal it that many (of the wires that are not
        the Bomb) times the likelihood of its claim and of the cuts from it."""
        held = deal["held"]
        _, _, _, defusing_unseen, bomb_unseen = self._pool(deal)
        cap = min(held, self.view["defusing_total"] - deal["found"])
        factors = {}
        for seat in self.others:
            claim = deal["claims"][seat]
            defusing_out, safe_out = deal["revealed"][seat]
            table = {}
            for bomb in ((0, 1) if bomb_unseen else (0,)):
                size = held - bomb
                for role in (SHERLOCK, MORIARTY):
                    poly = {}
                    for defusing in range(defusing_out, min(size - safe_out, defusing_unseen) + 1):
                        safe = size - defusing
                        ways = (comb(size, defusing) * comb(defusing, defusing_out)
                                * comb(safe, safe_out))
                        poly[defusing] = ways * max(
                            FLOOR, self.model.likelihood(claim, role, defusing, bomb, held, cap))
                    table[role, bomb] = poly
            factors[seat] = table
        return factors

    def _weigh_deal(self, deal: Mapping[str, Any], per_seat: bool):
        """The weight of each role group for this deal and, if `per_seat`, each seat's Bomb
        weight and expected Defusing wires still held (both times the weight), summed over
        the groups.

        The Defusing counts are dealt jointly: whatever the hands hold adds up to the unseen
        Defusing wires, so the weight of a group is a coefficient of the product of its
        seats' polynomials (with a second variable marking the one Bomb, if unseen)."""
        factors = self._seat_factors(deal)
        _, _, _, defusing_unseen, bomb_unseen = self._pool(deal)
        top = defusing_unseen
        seats = self.others
        one = ({0: 1.0}, {})
        # Products of the first and of the last seats' polynomials, by those seats' roles:
        # many role groups share them.
        prefixes: dict[tuple[str, ...], tuple[Poly, Poly]] = {(): one}
        suffixes: dict[tuple[str, ...], tuple[Poly, Poly]] = {(): one}

        def pair(k: int, role: str) -> tuple[Poly, Poly]:
            table = factors[seats[k]]
            return table[role, 0], table.get((role, 1), {})

        def prefix(roles: tuple[str, ...]) -> tuple[Poly, Poly]:
            if roles not in prefixes:
                k = len(roles) - 1
                prefixes[roles] = _times(prefix(roles[:-1]), pair(k, roles[-1]), top)
            return prefixes[roles]

        def suffix(roles: tuple[str, ...]) -> tuple[Poly, Poly]:
            if roles not in suffixes:
                k = len(seats) - len(roles)
                suffixes[roles] = _times(pair(k, roles[0]), suffix(roles[1:]), top)
            return suffixes[roles]

        group_roles = [tuple(MORIARTY if seat in group else SHERLOCK for seat in seats)
                       for group in self.groups]
        totals = [weight * prefix(roles)[bomb_unseen].get(top, 0.0)
                  for weight, roles in zip(self.role_weights, group_roles)]
        bomb_mass = [0.0] * self.players
        defusing_mass = [0.0] * self.players
        if not per_seat:
            return totals, bomb_mass, defusing_mass
        # Groups the evidence has all but ruled out change no odds a bot acts on.
        least = max(totals, default=0.0) * NEGLIGIBLE
        for index, roles in enumerate(group_roles):
            if totals[index] <= least:
                continue
            base = self.role_weights[index]
            for k, seat in enumerate(seats):
                without, with_bomb = pair(k, roles[k])
                out = deal["revealed"][seat][0]
                before, after = prefix(roles[:k]), suffix(roles[k + 1:])
                if bomb_unseen:
                    for d, v in without.items():
                        defusing_mass[seat] += base * v * (d - out) * (
                            _at(before[0], after[1], top - d) + _at(before[1], after[0], top - d))
                    for d, v in with_bomb.items():
                        rest = _at(before[0], after[0], top - d)
                        bomb_mass[seat] += base * v * rest
                        defusing_mass[seat] += base * v * (d - out) * rest
                else:
                    for d, v in without.items():
                        defusing_mass[seat] += base * v * (d - out) * _at(before[0], after[0],
                                                                         top - d)
        return totals, bomb_mass, defusing_mass

    def _close_deal(self, deal: Mapping[str, Any]) -> None:
        """A redeal: what that deal said about roles becomes the prior for the next one."""
        totals, _, _ = self._weigh_deal(deal, per_seat=False)
        norm = sum(totals)
        if norm > 0:
            self.role_weights = [t / norm for t in totals]

    # -- what it all says -------------------------------------------------------------------

    def moriarty_odds(self) -> list[float]:
        """Each seat's chance of being on Moriarty's team (the viewer's own is known)."""
        odds = [0.0] * self.players
        norm = sum(self.totals)
        if norm <= 0:
            return [float(self.role == MORIARTY) if s == self.me else 0.5
                    for s in range(self.players)]
        for group, weight in zip(self.groups, self.totals):
            for seat in group:
                odds[seat] += weight / norm
        odds[self.me] = float(self.role == MORIARTY)
        return odds

    def cut_odds(self) -> list[tuple[float, float]]:
        """For each seat, the chance that a cut of it now reveals a Defusing wire and the Bomb
        (0, 0 for the viewer and for seats with no face-down wire)."""
        face_down = self.view["face_down"]
        odds = [(0.0, 0.0)] * self.players
        norm = sum(self.totals)
        if self.deal is None or norm <= 0:
            return odds
        for seat in self.others:
            left = face_down[seat]
            if left:
                odds[seat] = (min(1.0, self.defusing_mass[seat] / norm / left),
                              min(1.0, self.bomb_mass[seat] / norm / left))
        return odds


Poly = dict[int, float]
"""A polynomial in a Defusing count: its coefficients by power (absent ones are 0)."""


def _times(a: tuple[Poly, Poly], b: tuple[Poly, Poly], top: int) -> tuple[Poly, Poly]:
    """(a0 + y a1)(b0 + y b1) without the y^2 term (there is one Bomb), up to x^top."""
    return (_product(a[0], b[0], top),
            _add(_product(a[0], b[1], top), _product(a[1], b[0], top)))


def _product(a: Poly, b: Poly, top: int) -> Poly:
    out: Poly = {}
    for i, x in a.items():
        for j, y in b.items():
            k = i + j
            if k <= top:
                out[k] = out.get(k, 0.0) + x * y
    return out


def _add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def _at(a: Poly, b: Poly, power: int) -> float:
    """The x^power coefficient of a * b."""
    if power < 0:
        return 0.0
    return sum(v * b.get(power - i, 0.0) for i, v in a.items())

"""Time Bomb bots: `bot(view, legal_actions, rng) -> action`, seeing only their own view.

"random" cuts a random legal target. "smart" reasons from its view alone:

- What the view proves. The face-down wires that are not in its own hand hold exactly the
  Defusing wires and the Bomb that are neither revealed nor its own; every redeal mixes them
  again. Cuts draw a random wire of a hand (TB-5), so without other knowledge every unseen
  face-down wire is alike.
- Claims break that symmetry. A claim is remembered with the wires its author held when it was
  made, and every later reveal from that player is checked against it: a claim that the reveals
  prove false marks a liar. A player who cuts without claiming first is a little suspicious,
  because honest players like to say what they hold.
- Roles. It weighs every way the unseen role cards can lie (at 4 and 7 players one is set
  aside), by how well each explains the lies and silences, to get each seat's chance of being
  on Moriarty's team. Claims count as evidence about a hand in proportion to how much their
  author is trusted.
- Play. As Sherlock it claims its hand truthfully and cuts where a Defusing wire is likeliest
  and the Bomb unlikely, looking one cut ahead: the player it cuts takes the Wire Cutter, and a
  trusted player will cut well next while a suspect will cut badly. As Moriarty it claims
  deceptively but never provably falsely (see `moriarty_claim`), and cuts where Defusing wires
  are unlikely and the Bomb likelier, judged by the same public evidence a Sherlock player
  would use, so that its choices look like an honest player's reading of the claims.

It claims at most once per deal, so a host that asks it again after a claim gets a cut.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Mapping

from engine.core import random_bot

SHERLOCK, MORIARTY = "sherlock", "moriarty"

# Likelihoods of the evidence for each role, for the role weighing.
LIE_IF_SHERLOCK = 0.02
"""Sherlock's team claims truthfully; a proven lie almost settles a player's role."""
LIE_IF_MORIARTY = 0.6
SILENT_IF_SHERLOCK = 0.35
"""A cut made without a claim in that deal: honest players usually say what they hold."""
SILENT_IF_MORIARTY = 0.6

# Target scoring weights.
BOMB_WEIGHT = 1.0
"""The Bomb ends the game at once, so one chance of it outweighs several of a Defusing wire."""
TEAM_WEIGHT = 0.12
"""The cut player takes the Wire Cutter: a trusted teammate will cut well next."""
LOOKAHEAD = 0.8
"""For Sherlock, the weight of the next cut, made by the player cut now, against this one."""
MORIARTY_LOOKAHEAD = 0.0
"""For Moriarty, which cannot tell a silent Sherlock from a silent partner, looking ahead
mostly misleads: measured, it loses about a point of win rate against random Sherlocks."""


class Reading:
    """What one view proves and suggests, built fresh for every decision."""

    def __init__(self, view: Mapping[str, Any]):
        self.view = view
        self.players: int = view["players"]
        self.me: int = view["viewer"]
        self.role: str = view["role"]
        kinds = view["wire_kinds"]
        self.hand = [view["hand"][k] for k in kinds]
        self.defusing = kinds.index("defusing")
        self.bomb = kinds.index("bomb")
        self.face_down: list[int] = view["face_down"]
        self.lies = [0] * self.players
        self.silences = [0] * self.players
        self.claims: list[tuple[int, int, int, list[int]] | None] = [None] * self.players
        """Each seat's standing claim this deal: (defusing, bomb, wires held then, reveals
        since as counts per kind)."""
        self._read_events(view["events"], kinds)
        self.moriarty_odds = self._weigh_roles()

    # -- evidence ---------------------------------------------------------------------------

    def _read_events(self, events: list[Mapping[str, Any]], kinds: list[str]) -> None:
        held = [0] * self.players
        claimed_this_deal = [False] * self.players
        for event in events:
            kind = event["type"]
            if kind == "deal":
                held = [event["hand_size"]] * self.players
                claimed_this_deal = [False] * self.players
                self.claims = [None] * self.players
            elif kind == "claim":
                seat = event["seats"][0]
                claimed_this_deal[seat] = True
                self.claims[seat] = (event["defusing"], event["bomb"], held[seat], [0] * len(kinds))
            elif kind == "cut":
                cutter, target = event["seats"]
                if not claimed_this_deal[cutter]:
                    claimed_this_deal[cutter] = True  # one silence per deal is enough
                    self.silences[cutter] += 1
                held[target] -= 1
                claim = self.claims[target]
                if claim is not None:
                    defusing, bomb, was_held, since = claim
                    since[kinds.index(event["wire"])] += 1
                    safe_claimed = was_held - defusing - bomb
                    if (
                        since[self.defusing] > defusing
                        or since[self.bomb] > bomb
                        or sum(since) - since[self.defusing] - since[self.bomb] > safe_claimed
                    ):
                        self.lies[target] += 1
                        self.claims[target] = None  # a disproved claim tells nothing more

    def _weigh_roles(self) -> list[float]:
        """Each seat's chance of being on Moriarty's team, given the lies and silences."""
        view = self.view
        deck = view["role_deck"]
        sherlocks = deck[SHERLOCK] - (self.role == SHERLOCK)
        moriartys = deck[MORIARTY] - (self.role == MORIARTY)
        others = [s for s in range(self.players) if s != self.me]
        set_aside = view["set_aside_count"]
        odds = [0.0] * self.players
        total = 0.0
        # Every dealt arrangement of the unseen role cards is equally likely (the set-aside
        # card just takes what is left), so each Moriarty set is weighed by its likelihood.
        for count in range(len(others) + 1):
            if not (0 <= moriartys - count <= set_aside and count <= moriartys):
                continue
            if len(others) - count > sherlocks:
                continue
            for group in itertools.combinations(others, count):
                weight = 1.0
                for seat in others:
                    if seat in group:
                        weight *= LIE_IF_MORIARTY ** self.lies[seat]
                        weight *= SILENT_IF_MORIARTY ** self.silences[seat]
                    else:
                        weight *= LIE_IF_SHERLOCK ** self.lies[seat]
                        weight *= SILENT_IF_SHERLOCK ** self.silences[seat]
                total += weight
                for seat in group:
                    odds[seat] += weight
        if total:
            odds = [o / total for o in odds]
        return odds

    # -- hands ------------------------------------------------------------------------------

    def expected_wires(self) -> list[tuple[float, float]]:
        """Each seat's expected Defusing wires and Bomb, from claims weighted by trust and an
        even share of what the claims leave unexplained."""
        view = self.view
        defusing_left = view["defusing_total"] - view["defusing_found"] - self.hand[self.defusing]
        bomb_left = (0 if view["revealed_counts"]["bomb"] else 1) - self.hand[self.bomb]
        wires_left = sum(self.face_down) - sum(self.hand)
        stated: dict[int, tuple[float, float, float]] = {}
        for seat, claim in enumerate(self.claims):
            if seat == self.me or claim is None or not self.face_down[seat]:
                continue
            defusing, bomb, _, since = claim
            size = self.face_down[seat]
            bomb_now = max(0, bomb - since[self.bomb])
            defusing_now = min(max(0, defusing - since[self.defusing]), size - bomb_now)
            trust = 1.0 - self.moriarty_odds[seat]
            stated[seat] = (trust, defusing_now, bomb_now)
        explained_wires = sum(t * self.face_down[s] for s, (t, _, _) in stated.items())
        explained_defusing = sum(t * d for t, d, _ in stated.values())
        explained_bomb = sum(t * b for t, _, b in stated.values())
        rest = wires_left - explained_wires
        if rest > 1e-9:
            defusing_rate = min(1.0, max(0.0, (defusing_left - explained_defusing) / rest))
            bomb_rate = min(1.0, max(0.0, (bomb_left - explained_bomb) / rest))
        else:
            defusing_rate = bomb_rate = 0.0
        expected = []
        for seat, size in enumerate(self.face_down):
            if seat == self.me:
                expected.append((float(self.hand[self.defusing]), float(self.hand[self.bomb])))
                continue
            trust, defusing, bomb = stated.get(seat, (0.0, 0.0, 0.0))
            expected.append(
                (
                    trust * defusing + (1 - trust) * size * defusing_rate,
                    trust * bomb + (1 - trust) * size * bomb_rate,
                )
            )
        return expected


def smart_bot(
    view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    cuts = [a for a in legal_actions if a["type"] == "cut"]
    reading = Reading(view)
    claim = _claim(reading, legal_actions)
    if claim is not None or not cuts:
        return claim or legal_actions[0]
    expected = reading.expected_wires()
    sherlock = reading.role == SHERLOCK
    last_cut = view["cuts"] == view["round_length"] - 1
    last_of_game = last_cut and view["round"] == view["rounds"]
    cuttable = [s for s, size in enumerate(reading.face_down) if size]

    def for_sherlock(seat: int) -> float:
        """How good a cut of `seat` is for Sherlock's team: Defusing wires in, Bomb out."""
        defusing, bomb = expected[seat]
        size = reading.face_down[seat]
        return (defusing - BOMB_WEIGHT * bomb) / size

    reveal = {s: for_sherlock(s) for s in cuttable}

    def next_cut(seat: int) -> float:
        """The expected worth, to Sherlock's team, of the cut `seat` makes next: the best
        one if `seat` plays for Sherlock, the worst if for Moriarty."""
        options = [reveal[s] for s in cuttable if s != seat]
        if not options:
            return 0.0
        moriarty = reading.moriarty_odds[seat] if seat != reading.me else float(not sherlock)
        return (1 - moriarty) * max(options) + moriarty * min(options)

    def score(action: Mapping[str, Any]) -> float:
        seat = action["target"]
        value = reveal[seat]
        if not last_of_game:
            # After the round's last cut the wires are dealt again and the reveal odds
            # reset, but the cut player still starts the next round.
            ahead = TEAM_WEIGHT * (1 - 2 * reading.moriarty_odds[seat]) if last_cut else (
                (LOOKAHEAD if sherlock else MORIARTY_LOOKAHEAD) * next_cut(seat)
            )
            value += ahead
        if not sherlock:
            value = -value
        return value + rng.random() * 1e-6  # ties broken at random

    return max(cuts, key=score)


def _claim(reading: Reading, legal_actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The claim to make now, or None: once per deal, as soon as the bot is asked to act."""
    if reading.claims[reading.me] is not None or reading.view["claims"][reading.me] is not None:
        return None
    if not any(a["type"] == "claim" for a in legal_actions):
        return None
    hand = reading.hand
    if reading.role == SHERLOCK:
        wanted = (hand[reading.defusing], hand[reading.bomb])
    else:
        wanted = moriarty_claim(hand[reading.defusing], hand[reading.bomb], sum(hand))
    for action in legal_actions:
        if action["type"] == "claim" and (action["defusing"], action["bomb"]) == wanted:
            return action
    return None


def moriarty_claim(defusing: int, bomb: int, held: int) -> tuple[int, int]:
    """Moriarty's claim, as (Defusing wires, Bomb), for a hand holding these.

    It tells the truth about its Defusing wires, since a false "none" would be disproved by the
    first Defusing wire cut from it. Holding the Bomb, it hides it and claims one Defusing wire
    more than it holds, to draw Sherlock's cuts; no reveal can disprove that before the Bomb
    itself goes off, because the Safe wires it claims are exactly those it has. Measured
    against the alternatives (all honest; always "nothing"), it wins most against the smart
    Sherlock and loses about two points against random ones, who ignore claims.
    """
    if bomb:
        return (min(defusing + 1, held - 1), 0)
    return (defusing, 0)


BOTS = {
    "random": random_bot(frozenset({"claim"})),
    "smart": smart_bot,
}

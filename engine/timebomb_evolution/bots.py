"""Time Bomb Évolution bots: `bot(view, legal_actions, rng) -> action`, seeing only their view.

"random" picks uniformly among the moves that advance play and never claims. "novice" (Novice)
claims the truth after every deal, whatever its role, and makes one move in three at random,
the others as "smart" (Inspector) would. "smart" reasons from its view:

- It counts what is unseen: every colour has 5 cards, minus those revealed and in its own hand;
  of the unseen coloured cards N are in the removed pile, and every unseen Defusing wire is in
  another player's hand. Positions carry no information (EV-6), so a cut takes a uniformly
  random wire of the target, and before any talk every other player's wire is alike.
- It talks: right after each deal it claims once (RULES.md, "Talk and claims"). A Sherlock claims the truth, its
  Defusing count and the colour it holds nearest to exploding; a Moriarty without Defusing
  wires lies, claiming one so that Sherlocks cut its bombs, and one with some tells their
  number and no colour.
- It listens: it keeps Time Bomb's posterior over who is on Moriarty's team and where the
  Defusing wires are (`engine.timebomb.inference`), fed by every claim, silence and cut, with
  a model of how each kind of player claims (`TableModel`). A claim the reveals have
  contradicted marks a liar, and so does a Defusing wire laid on a harmless colour while a
  dangerous one waited; trusted claims sharpen where the dangerous colours are.
- It knows the thresholds and powers: a Sherlock defuses the colour nearest to exploding and
  moves apart the wire whose colour is safest; a Moriarty does the opposite, and re-arms a
  colour at its threshold (EV-17) whenever a Blue lets it.
- As Sherlock, it shares the Wire Cutter with people who say their wires out loud instead of
  claiming, as Time Bomb's smart bot does (`ATTENTION`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.bots import Advice, Bot
from engine.core import random_bot
from engine.timebomb.bots import attention
from engine.timebomb.cards import BLUE, CARDS_PER_COLOUR, DEFUSING, PINK, YELLOW
from engine.timebomb.inference import Claim as Said
from engine.timebomb.inference import Posterior


# How much a Sherlock values a revealed Defusing wire against a cut that loses the game, and
# a trusted player taking the Wire Cutter: tuned by simulation against random bots.
LOSS_WEIGHT = 3.0
TRUST_WEIGHT = 0.04
ATTENTION = 0.8
"""As Time Bomb's `ATTENTION`: how much a Sherlock favours cutting a seat at a table that talks
out loud, tuned the same way."""


class TableModel:
    """How people at an Évolution table claim, for the posterior (`Posterior`): Sherlocks
    nearly always say their Defusing count; a Moriarty tells it, lures with one it lacks,
    claims at random or keeps quiet. The colour named is not weighed."""

    SHERLOCK_SILENT = 0.05
    MORIARTY_SILENT = 0.5
    MORIARTY_STYLES = (0.4, 0.3, 0.3)
    """Truthful; a lure (one Defusing wire claimed when it holds none); at random."""

    def likelihood(self, claim: Said, role: str, defusing: int, bomb: int, held: int,
                   cap: int) -> float:
        if claim is None:
            return self.SHERLOCK_SILENT if role == "sherlock" else self.MORIARTY_SILENT
        said = claim[0]
        truthful = float(said == defusing)
        if role == "sherlock":
            return (1 - self.SHERLOCK_SILENT) * truthful
        honest, luring, at_random = self.MORIARTY_STYLES
        lure = float(said == max(defusing, 1))
        uniform = float(said <= cap) / (cap + 1)
        return (1 - self.MORIARTY_SILENT) * (honest * truthful + luring * lure
                                             + at_random * uniform)


TABLE_MODEL = TableModel()


@dataclass
class Claim:
    defusing: int
    colour: str
    defusing_cut: int = 0
    colour_cut: int = 0
    cut: int = 0
    held: int = 0


@dataclass
class Reading:
    """What the view says, worked out once per decision."""

    view: Mapping[str, Any]
    me: int = 0
    sherlock: bool = True
    revealed: dict[str, int] = field(default_factory=dict)
    unseen: dict[str, int] = field(default_factory=dict)
    claims: dict[int, Claim] = field(default_factory=dict)
    liars: set[int] = field(default_factory=set)
    suspicion: dict[int, float] = field(default_factory=dict)
    defusing_odds: list[float] = field(default_factory=list)
    """Each seat's chance that a cut of it reveals a Defusing wire, by the posterior."""
    quiet: list[float] = field(default_factory=list)
    """Each seat's chance that it talks out loud instead of claiming, by the posterior."""

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> "Reading":
        reading = cls(view, view["viewer"], view["role"] == "sherlock")
        reading.revealed = dict(view["revealed_counts"])
        hand = view["hand"]
        reading.unseen = {
            c: CARDS_PER_COLOUR - reading.revealed[c] - hand[c] for c in view["colours"]
        }
        reading.unseen[DEFUSING] = view["defusing_total"] - reading.revealed[DEFUSING] - hand[DEFUSING]
        reading.read_events()
        posterior = Posterior(view, TABLE_MODEL)
        reading.defusing_odds = [d for d, _ in posterior.cut_odds()]
        reading.quiet = posterior.quiet
        return reading

    def read_events(self) -> None:
        """Replay the public log: claims and what was cut since, and how each wire was laid."""
        view = self.view
        counts = {c: 0 for c in view["colours"]}
        laid: set[str] = set()
        for event in view["events"]:
            kind = event["type"]
            if kind == "deal":
                self.claims.clear()
            elif kind == "claim":
                seat = event["seats"][0]
                self.claims[seat] = Claim(event["defusing"], event["colour"], held=event["held"])
            elif kind == "cut":
                wire, target = event["wire"], event["seats"][1]
                if wire != DEFUSING:
                    counts[wire] += 1
                claim = self.claims.get(target)
                if claim is not None:
                    claim.cut += 1
                    claim.defusing_cut += wire == DEFUSING
                    claim.colour_cut += wire == claim.colour
            elif kind == "defuse":
                choices = [c for c in counts if c != YELLOW and counts[c] and c not in laid]
                best = max(self.danger(c, counts[c]) for c in choices)
                if self.danger(event["colour"], counts[event["colour"]]) < best - 0.5:
                    seat = event["seats"][0]
                    self.suspicion[seat] = self.suspicion.get(seat, 0) + 1
                laid.add(event["colour"])
            elif kind == "move_apart":
                laid.discard(event["colour"])
        for seat, claim in self.claims.items():
            left = view["face_down"][seat]
            if claim.defusing_cut > claim.defusing or claim.defusing - claim.defusing_cut > left:
                self.liars.add(seat)

    # -- the odds ---------------------------------------------------------------------------

    def danger(self, colour: str, revealed: int | None = None) -> float:
        """How close `colour` is to exploding: the expected unseen cards still in play per card
        it needs. 0 when it can no longer reach its threshold."""
        view = self.view
        if revealed is None:
            revealed = self.revealed[colour]
        need = view["thresholds"][colour] - revealed
        unseen_colours = sum(self.unseen[c] for c in view["colours"])
        in_play = CARDS_PER_COLOUR - revealed
        if unseen_colours:
            in_play -= view["removed_count"] * self.unseen.get(colour, 0) / unseen_colours
        if need <= 0:
            return 10.0
        return max(0.0, in_play) / need

    def trusted(self, seat: int) -> bool:
        claim = self.claims.get(seat)
        if claim is None or seat in self.liars or self.suspicion.get(seat):
            return False
        # A Moriarty knows a claimed Defusing wire may be its partner's lure; "none" it believes.
        return self.sherlock or claim.defusing == 0

    def odds(self, target: int) -> dict[str, float]:
        """The chance that a cut of `target` reveals each kind."""
        view = self.view
        hand_sizes = view["face_down"]
        believed = {s: c for s, c in self.claims.items() if s != self.me and self.trusted(s)}
        left = hand_sizes[target]
        p_defusing = self.defusing_odds[target]
        colours = view["colours"]
        total = sum(self.unseen[c] for c in colours) or 1
        odds = {c: (1 - p_defusing) * self.unseen[c] / total for c in colours}
        odds[DEFUSING] = p_defusing
        if target in believed and left and believed[target].colour:
            claim = believed[target]
            if claim.colour_cut == 0:
                odds[claim.colour] = max(odds[claim.colour], 1 / left)
        return odds

    def losing_kinds(self) -> set[str]:
        """The kinds whose next reveal makes Moriarty win at once."""
        view = self.view
        defused = view["defused"]
        losing = {
            c for c in view["colours"]
            if c not in defused and self.revealed[c] + 1 >= view["thresholds"][c]
        }
        if view["variante"] and view["last_reveal"] == PINK and PINK in view["colours"]:
            losing.add(PINK)
        if view["variante"] and BLUE in view["colours"] and defused and all(
            self.revealed[c] + (c == BLUE) >= view["thresholds"][c] for c in defused
        ):
            losing.add(BLUE)  # whichever wire the Blue moves apart, its colour explodes
        return losing

    def score_cut(self, target: int) -> float:
        odds = self.odds(target)
        loss = sum(odds[k] for k in self.losing_kinds())
        if self.sherlock:
            trust = 1 if self.trusted(target) else -1 if target in self.liars else 0
            trust -= self.suspicion.get(target, 0)
            return (odds[DEFUSING] - LOSS_WEIGHT * loss + TRUST_WEIGHT * trust
                    + ATTENTION * attention(self.quiet[target]))
        return loss - odds[DEFUSING]


# -- the bot --------------------------------------------------------------------------------


def honest_claim(view: Mapping[str, Any], reading: Reading) -> dict[str, Any]:
    hand = view["hand"]
    held = sum(hand.values())
    colours = [c for c in view["colours"] if hand[c]]
    colour = ""
    if colours and hand[DEFUSING] < held:
        colour = max(colours, key=reading.danger)
    return {"type": "claim", "defusing": hand[DEFUSING], "colour": colour}


def lying_claim(view: Mapping[str, Any]) -> dict[str, Any]:
    """With no Defusing wire, claim one so that Sherlocks cut its bombs. With some, tell their
    number and no colour: a false "none" would draw its partner's cuts onto them, and silence
    after a deal marks a player as much as a lie."""
    defusing = view["hand"][DEFUSING]
    return {"type": "claim", "defusing": defusing or 1, "colour": ""}


def speak(view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random):
    """Once per deal, as soon as the wires are seen: a Sherlock's truth or a Moriarty's lure."""
    if view["claims"][view["viewer"]] is not None:
        return None
    if view["role"] == "sherlock":
        claim = honest_claim(view, Reading.of(view))
    else:
        claim = lying_claim(view)
    return claim if claim in legal_actions else None


def smart(view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random):
    return smart_advice(view, legal_actions, rng).action


def smart_advice(view: Mapping[str, Any], legal_actions: list[dict[str, Any]],
                 rng: random.Random) -> Advice:
    """The smart bot's move, and why: its move is this advice's action (`Bot.explained`)."""
    moves = [a for a in legal_actions if a["type"] != "claim"]
    reading = Reading.of(view)
    kind = moves[0]["type"]
    if kind == "defuse":
        pick = max if reading.sherlock else min
        colour = pick((a["colour"] for a in moves), key=lambda c: (reading.danger(c), c))
        return Advice({"type": kind, "colour": colour}, defuse_reason(reading, colour))
    if kind == "move_apart":
        def rearm_cost(c: str) -> float:
            return 100.0 if reading.revealed[c] >= view["thresholds"][c] else reading.danger(c)

        pick = min if reading.sherlock else max
        colour = pick((a["colour"] for a in moves), key=rearm_cost)
        return Advice({"type": kind, "colour": colour}, move_reason(reading, colour))
    if kind == "cut":
        scores = {a["target"]: reading.score_cut(a["target"]) for a in moves}
        best = max(scores.values())
        target = rng.choice([t for t, s in scores.items() if s >= best - 1e-9])
        return Advice({"type": "cut", "target": target}, cut_reason(reading, target), (target,))
    return Advice(moves[0], "It is the only move there is." if len(moves) == 1 else "")


def colour_words(reading: Reading, colour: str) -> str:
    """`Red (2/4 out)`: a colour and how near it is to exploding."""
    view = reading.view
    return f"{colour.capitalize()} ({reading.revealed[colour]}/{view['thresholds'][colour]} out)"


def defuse_reason(reading: Reading, colour: str) -> str:
    if reading.sherlock:
        return (f"Lay it on {colour_words(reading, colour)}: of the colours it may go on, the "
                "nearest to exploding, which then cannot explode.")
    return (f"Lay it on {colour_words(reading, colour)}: the colour least likely to explode, "
            "so the dangerous ones stay armed.")


def move_reason(reading: Reading, colour: str) -> str:
    if reading.sherlock:
        return (f"Move it off {colour_words(reading, colour)}: of the colours it may leave, "
                "arming this one again is the least dangerous.")
    return (f"Move it off {colour_words(reading, colour)}: arming this colour again is the "
            "most dangerous for Sherlock's team.")


def cut_reason(reading: Reading, target: int) -> str:
    """Why a cut of {0}: the chance of a Defusing wire and of a card that explodes, by the
    claims, the cuts and the cards counted so far."""
    odds = reading.odds(target)
    loss = sum(odds[k] for k in reading.losing_kinds())
    chances = (f"each of their wires is ◆ Defusing at {odds[DEFUSING]:.0%} and a bomb that "
               f"would explode at {loss:.0%}")
    if not reading.sherlock:
        return f"Cut {{0}}: {chances}: the best chance of an explosion, or of no Defusing wire."
    if target in reading.liars:
        said = " (their claim does not hold up)"
    elif reading.trusted(target):
        said = " (their claim holds up so far)"
    else:
        said = ""
    return f"Cut {{0}}: {chances}{said}: the best chance of a Defusing wire for the risk."


NOVICE_MISTAKES = 1 / 3
"""The share of a novice's moves made at random."""

_random = random_bot(frozenset({"claim"}))


def novice_speak(view: Mapping[str, Any], legal_actions: list[dict[str, Any]],
                 rng: random.Random):
    """The plain truth about its Defusing wires, once per deal, whatever its role."""
    if view["claims"][view["viewer"]] is not None:
        return None
    claim = {"type": "claim", "defusing": view["hand"][DEFUSING], "colour": ""}
    return claim if claim in legal_actions else None


def novice(view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random):
    """The smart bot's move, but one in three at random."""
    if rng.random() < NOVICE_MISTAKES:
        return _random(view, legal_actions, rng)
    return smart(view, legal_actions, rng)


BOTS = {
    "random": Bot(_random),
    "novice": Bot(novice, novice_speak),
    "smart": Bot.explained(smart_advice, speak),
}

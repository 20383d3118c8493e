"""Time Bomb bots: each `act`s and `speak`s from its own seat's view only (`engine.bots`).

- "random" cuts a random legal target and never claims: the silent baseline.
- "novice" (Novice) claims its wires truthfully after every deal, whatever its role, and cuts
  by the claims at face value, but one cut in three goes to a random player.
- "smart" (Inspector) reasons. It keeps a posterior over who is on Moriarty's team and who
  holds the Bomb (`engine.timebomb.inference`), fed by every claim and every cut since the
  game began, with a model of how each kind of player claims: Sherlocks mostly tell the truth
  (a Bomb holder may play it down), Moriarty players tell the truth, bluff by a wire, claim at
  random or keep quiet. As Sherlock it claims the truth, so its team can read it, and cuts
  where a Defusing wire is likeliest and the Bomb unlikeliest, weighing the Bomb more the more
  cuts it has to spare, and looking one cut ahead: the player it cuts takes the Wire Cutter.
  As Moriarty it claims what a Sherlock might, never a claim the table can already prove
  false, and cuts where the Bomb is likelier and Defusing wires unlikely. As Sherlock at a
  table where most people say their wires out loud instead of claiming, it hands them the Wire
  Cutter as a player would, rather than passing it among the few who claim (`ATTENTION`).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from engine.bots import Advice, Bot
from engine.core import random_bot
from engine.timebomb.inference import MORIARTY, SHERLOCK, Claim, Posterior

# -- how the smart bot thinks people claim --------------------------------------------------


class TableModel:
    """A mixture over the ways people at a table claim, for `Posterior`."""

    SHERLOCK_SILENT = 0.05
    """Sherlocks nearly always say what they hold: it is how their team finds the wires."""
    SHERLOCK_PLAYS_DOWN_BOMB = 0.2
    """A Sherlock holding the Bomb may claim fewer Defusing wires and no Bomb, to keep cuts
    away from it."""
    MORIARTY_SILENT = 0.5
    MORIARTY_STYLES = (0.3, 0.35, 0.35)
    """Truthful; one Defusing wire too many when holding the Bomb (hiding it); at random."""

    def likelihood(self, claim: Claim, role: str, defusing: int, bomb: int, held: int,
                   cap: int) -> float:
        if claim is None:
            return self.SHERLOCK_SILENT if role == SHERLOCK else self.MORIARTY_SILENT
        said_defusing, said_bomb = claim
        truthful = float(said_defusing == defusing and said_bomb == bomb)
        if role == SHERLOCK:
            if bomb:
                played_down = float(said_bomb == 0 and said_defusing <= defusing) / (defusing + 1)
                truthful = (1 - self.SHERLOCK_PLAYS_DOWN_BOMB) * truthful + (
                    self.SHERLOCK_PLAYS_DOWN_BOMB * played_down)
            return (1 - self.SHERLOCK_SILENT) * truthful
        honest, hiding, at_random = self.MORIARTY_STYLES
        hidden = claim in (moriarty_claim(defusing, bomb, held, cap, hide=False),
                           moriarty_claim(defusing, bomb, held, cap, hide=True))
        low = defusing if bomb else 0
        uniform = float(said_bomb == 0 and low <= said_defusing <= cap) / max(1, cap - low + 1)
        return (1 - self.MORIARTY_SILENT) * (
            honest * truthful + hiding * hidden + at_random * uniform)


TABLE_MODEL = TableModel()

# -- scoring cuts -----------------------------------------------------------------------------

BOMB_WEIGHT = 1.0
"""How Moriarty reckons Sherlock weighs the Bomb against a Defusing wire."""
BOMB_PER_SPARE_CUT = 0.5
"""Sherlock weighs the Bomb against a Defusing wire by the cuts left per Defusing wire still
needed: with cuts to spare, a safe cut loses little and the Bomb loses everything; short of
time, a risky cut may be the only way to win."""
LOOKAHEAD = 0.8
"""For Sherlock, the weight of the next cut, made by the player cut now, against this one."""
TEAM_WEIGHT = 0.12
"""At a round's last cut the next deal resets the odds, but the cut player starts it."""
MORIARTY_BOMB_WEIGHT = 1.0
MORIARTY_LOOKAHEAD = 0.8
"""For Moriarty, revealing the Bomb wins at once."""
ATTENTION = 1.0
"""How much a Sherlock favours cutting a seat at a table that talks out loud (`attention`).
What such a seat says is lost on a bot, so its hand looks average beside the claimed ones and
the cuts would flow between the players who press the claim key; people at a table share the
Wire Cutter round, and so do bots. Tuned with `benchmarks/bots.py --people`. It changes no
game of the cross table but those of silent random Sherlocks' tables, where everyone claims or
a lone silence is a tell. Moriarty keeps steering: the same term cost its team 2.7 points
against silent Sherlocks (11.1% won against 8.4%, 4,000 games)."""


def attention(quiet: float) -> float:
    """How much a seat that talks out loud with chance `quiet` (`Posterior.quiet`) asks for a
    cut: nothing unless most of the other seats never claim, since one silence among claims
    is a choice, not a habit."""
    return max(0.0, 2 * quiet - 1)


def hand(view: Mapping[str, Any]) -> tuple[int, int, int]:
    """(Defusing wires, Bomb, wires) that the viewer holds now."""
    mine = view["hand"]
    return mine["defusing"], mine["bomb"], sum(mine.values())


def defusing_left(view: Mapping[str, Any]) -> int:
    return view["defusing_total"] - view["defusing_found"]


def claim_action(legal_actions: list[dict[str, Any]], defusing: int, bomb: int):
    for action in legal_actions:
        if action["type"] == "claim" and action["defusing"] == defusing and action["bomb"] == bomb:
            return action
    return None


def smart_speak(
    view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any] | None:
    """The claim to make, once per deal, as soon as the wires are seen; then nothing."""
    if view["claims"][view["viewer"]] is not None:
        return None
    defusing, bomb, held = hand(view)
    if view["role"] == SHERLOCK:
        return claim_action(legal_actions, defusing, bomb)
    hide = HIDE_DEFUSING and talking_table(view)
    return claim_action(legal_actions,
                        *moriarty_claim(defusing, bomb, held, defusing_left(view), hide))


def talking_table(view: Mapping[str, Any]) -> bool:
    """Whether this looks like a table that reads claims: until the first cut, presume so;
    then, whether most other players have claimed."""
    events = view["events"]
    if not any(e["type"] == "cut" for e in events):
        return True
    talkers = {e["seats"][0] for e in events if e["type"] == "claim"} - {view["viewer"]}
    return 2 * len(talkers) >= view["players"] - 1


BOMB_OVERCLAIM = 2
HIDE_DEFUSING = True


def moriarty_claim(defusing: int, bomb: int, held: int, left: int,
                   hide: bool = False) -> tuple[int, int]:
    """Moriarty's claim, as (Defusing wires, Bomb), for a hand holding these when `left`
    Defusing wires are still face down.

    Without the Bomb it tells the truth about its Defusing wires, which a Sherlock would do too
    and no reveal can disprove. Holding the Bomb, it hides it and claims one Defusing wire more
    than it holds, to draw Sherlock's cuts onto the Bomb: the Safe wires it claims are exactly
    those it has, so no reveal disproves it before the Bomb itself goes off, and it never
    claims more Defusing wires than are left face down.
    """
    if bomb:
        return (min(defusing + BOMB_OVERCLAIM, held - 1, left), 0)
    return (0 if hide else defusing, 0)


def smart_advice(
    view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random
) -> Advice:
    """The smart bot's cut, and why: its move is this advice's action (`Bot.explained`)."""
    cuts = [a for a in legal_actions if a["type"] == "cut"]
    if not cuts:
        return Advice(legal_actions[0], "It is the only move there is.")
    posterior = Posterior(view, TABLE_MODEL)
    odds = posterior.cut_odds()
    moriarty = posterior.moriarty_odds()
    sherlock = view["role"] == SHERLOCK
    last_cut = view["cuts"] == view["round_length"] - 1
    last_of_game = last_cut and view["round"] == view["rounds"]
    targets = [a["target"] for a in cuts]

    if sherlock:
        cuts_left = (view["rounds"] - view["round"] + 1) * view["round_length"] - view["cuts"]
        bomb_weight = BOMB_PER_SPARE_CUT * cuts_left / max(1, defusing_left(view))
    else:
        bomb_weight = BOMB_WEIGHT

    def reveal(seat: int) -> float:
        """How good a cut of `seat` is for Sherlock's team: Defusing wires in, Bomb out."""
        defusing, bomb = odds[seat]
        return defusing - bomb_weight * bomb

    worth = {seat: reveal(seat) for seat in range(view["players"]) if view["face_down"][seat]}

    def next_cut(seat: int) -> float:
        """The worth, to Sherlock's team, of the cut `seat` makes next: the best one if `seat`
        plays for Sherlock, the worst if for Moriarty."""
        options = [w for s, w in worth.items() if s != seat]
        if not options:
            return 0.0
        return (1 - moriarty[seat]) * max(options) + moriarty[seat] * min(options)

    quiet = posterior.quiet

    def score(seat: int) -> float:
        if sherlock:
            value = worth[seat] + ATTENTION * attention(quiet[seat])
            if not last_of_game:
                value += (TEAM_WEIGHT * (1 - 2 * moriarty[seat]) if last_cut
                          else LOOKAHEAD * next_cut(seat))
        else:
            defusing, bomb = odds[seat]
            value = MORIARTY_BOMB_WEIGHT * bomb - defusing
            if not last_of_game:
                value -= (TEAM_WEIGHT * (1 - 2 * moriarty[seat]) if last_cut
                          else MORIARTY_LOOKAHEAD * next_cut(seat))
        return value + rng.random() * 1e-9  # ties broken at random

    scores = {seat: score(seat) for seat in targets}
    target = max(targets, key=scores.__getitem__)
    return Advice({"type": "cut", "target": target},
                  cut_reason(sherlock, *odds[target]), (target,))


def cut_reason(sherlock: bool, defusing: float, bomb: float) -> str:
    """Why a cut, in the odds the bot read from the claims and cuts so far: a wire of
    {0}'s."""
    odds = f"each of their wires is ◆ Defusing at {defusing:.0%} and the ✹ Bomb at {bomb:.0%}"
    if sherlock:
        return (f"Cut {{0}}: by the claims and cuts so far, {odds}: the best chance of a "
                "Defusing wire for the risk.")
    return (f"Cut {{0}}: by the claims and cuts so far, {odds}: the best chance of the Bomb, "
            "or at least of keeping Defusing wires hidden.")


# -- the novice -------------------------------------------------------------------------------

NOVICE_MISTAKES = 1 / 3
"""The share of a novice's cuts that go to a random player."""


def novice_speak(
    view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any] | None:
    """The plain truth about its wires, once per deal, whatever its role."""
    if view["claims"][view["viewer"]] is not None:
        return None
    defusing, bomb, _ = hand(view)
    return claim_action(legal_actions, defusing, bomb)


def novice_act(
    view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """Takes every claim at face value: as Sherlock it cuts the most Defusing wires claimed
    per wire, as Moriarty the fewest; an unclaimed hand counts as average. Often it just
    picks someone."""
    cuts = [a for a in legal_actions if a["type"] == "cut"]
    if not cuts:
        return legal_actions[0]
    if rng.random() < NOVICE_MISTAKES:
        return cuts[int(rng.random() * len(cuts))]
    face_down = view["face_down"]
    average = defusing_left(view) / max(1, sum(face_down))

    def claimed_share(seat: int) -> float:
        claim = view["claims"][seat]
        if claim is None:
            return average
        return (claim["defusing"] - claim["bomb"]) / max(1, face_down[seat])

    sign = 1 if view["role"] == SHERLOCK else -1
    return max(cuts, key=lambda a: sign * claimed_share(a["target"]) + rng.random() * 1e-9)


BOTS = {
    "random": Bot(random_bot(frozenset({"claim"}))),
    "novice": Bot(novice_act, novice_speak),
    "smart": Bot.explained(smart_advice, smart_speak),
}

__all__ = ["BOTS", "MORIARTY", "SHERLOCK", "TABLE_MODEL", "TableModel", "attention",
           "moriarty_claim"]

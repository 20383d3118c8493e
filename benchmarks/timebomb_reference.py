"""The public reference Time Bomb bot, rebuilt as a benchmark opponent (not a product bot).

It follows the description of the best public Python bots (issue 15), in our own code, on the
engine's posterior (`engine.timebomb.inference`) with the reference's own model of claims:

- Claims carry a Defusing count only, never the Bomb. A Sherlock claims the truth, but a Bomb
  holder claims a uniform count from 0 to the truth. A Moriarty claims a uniform count from 0
  to min(hand size, Defusing wires left), or, holding the Bomb, from the truth to that cap.
- Its Sherlock keeps a Bayesian posterior over (the Moriarty players, the Bomb holder) from
  the claims at each deal, updated after each cut with the hypergeometric chance of what was
  revealed, and cuts the player with the best expected score: the chance of a Defusing wire,
  scaled by the chance of no Bomb. Its Moriarty cuts the lowest score by the same posterior.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from engine.bots import Bot
from engine.timebomb.bots import claim_action, defusing_left, hand
from engine.timebomb.inference import SHERLOCK, Claim, Posterior


class ReferenceModel:
    """The reference's belief about claims: its own way of claiming, taken as everyone's."""

    def likelihood(self, claim: Claim, role: str, defusing: int, bomb: int, held: int,
                   cap: int) -> float:
        if claim is None:
            return 1.0  # it expects everyone to claim; a silence tells it nothing
        said = claim[0]
        if role == SHERLOCK:
            if bomb:
                return float(said <= defusing) / (defusing + 1)
            return float(said == defusing)
        low = defusing if bomb else 0
        return float(low <= said <= cap) / max(1, cap - low + 1)


MODEL = ReferenceModel()


def speak(view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random):
    if view["claims"][view["viewer"]] is not None:
        return None
    defusing, bomb, held = hand(view)
    if view["role"] == SHERLOCK:
        said = int(rng.random() * (defusing + 1)) if bomb else defusing
    else:
        cap = min(held, defusing_left(view))
        low = defusing if bomb else 0
        said = low + int(rng.random() * (cap - low + 1))
    return claim_action(legal_actions, min(said, held), 0)


def act(view: Mapping[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random):
    cuts = [a for a in legal_actions if a["type"] == "cut"]
    if not cuts:
        return legal_actions[0]
    odds = Posterior(view, MODEL).cut_odds()

    def score(action: Mapping[str, Any]) -> float:
        defusing, bomb = odds[action["target"]]
        return defusing * (1 - bomb) + rng.random() * 1e-9

    pick = max if view["role"] == SHERLOCK else min
    return pick(cuts, key=score)


REFERENCE = Bot(act, speak)

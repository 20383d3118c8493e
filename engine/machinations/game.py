"""Moriarty's Machinations (Cortexabyte), 5-10 players, per its RULES.md (MM-n).

The Robbers run heists, the Cops foil them in secret, and when the score reaches the threshold
Lestrade arrests and Jack the Ripper murders. Phases: "proposal" (the Proposer names a crew),
"vote" (every seat at once, in secret), "heist" (every crew member plays one card at once, in
secret), "accusation" (the accusers at once, in secret), then "over".

Secrets and how they stay secret:

- Votes, heist cards and accusations are simultaneous: `to_act()` holds every seat yet to
  choose, views show only *that* a seat has chosen, and the choices are revealed together.
- A heist card is never attributable (MM-38). The played cards are kept per seat only until
  the last one is in; then they become a count per kind and each seat keeps its own card.
  No event, not even one for the player alone or the referee, names a card with its player.
- With `lestrade_reveals` off, `to_act` must not point at Lestrade, so every seat names a
  target in secret: Lestrade's is the arrest, Jack's the murder (6+ players), and the others
  count for nothing and are never shown.

Every crew member is shown the same three heist cards (MM-20), but `legal_actions`, which
only that seat receives, offers Take the Fall only to a Brutus who still holds it: a table
draws all three cards for everyone and disables the ones the legal list leaves out.

The proposal's free-text heist name (MM-12) cannot be enumerated, so `legal_actions` lists each
eligible crew once with `"name": ""`, a placeholder: `apply` accepts any string in its place,
strips control characters and outer spaces, and refuses a name longer than `MAX_NAME`.
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from typing import Any

from engine import catalogue
from engine.core import REFEREE_ONLY, Game, IllegalAction, Outcome
from engine.machinations.cards import ABET, CARD_NAMES, CARDS, FOIL, MAX_NAME, TAKE_THE_FALL
from engine.machinations.roles import (
    COMPOSITIONS,
    COPS,
    ID,
    IRENE,
    JACK,
    LESTRADE,
    MORIARTY,
    ROBBERS,
    SHERLOCK,
    BRUTUS,
    TEAM_NAMES,
    learns,
    role_name,
    team_of,
    threshold,
)

PROPOSAL, VOTE, HEIST, ACCUSATION, OVER = "proposal", "vote", "heist", "accusation", "over"


Crews = tuple[tuple[dict[str, Any], int], ...]


@functools.cache
def crews_by_size(players: int) -> tuple[Crews, ...]:
    """For each crew size 0..N, every crew of that many distinct seats (MM-12; none below 2),
    as (its proposal, its seats' bitmask). The proposals are shared read-only action dicts
    (see `Game.legal_actions`): at 10 players a proposer may have 1,013 crews to choose from,
    and building them anew for every proposal was most of a game's time."""
    return tuple(
        tuple(({"type": "propose", "name": "", "crew": list(crew)}, sum(1 << s for s in crew))
              for crew in itertools.combinations(range(players), size))
        if size >= 2 else ()
        for size in range(players + 1)
    )


def clean_name(name: str) -> str:
    """A heist name as shown: control and format characters gone, outer spaces trimmed."""
    kept = "".join(c for c in name if unicodedata.category(c)[0] != "C")
    if len(kept) > MAX_NAME:
        raise IllegalAction(f"a heist name has at most {MAX_NAME} characters")
    return kept.strip()


def _braces(text: str) -> str:
    """Free text inside an event's format string: `{0}` in a name must not become a player."""
    return text.replace("{", "{{").replace("}", "}}")


class Machinations(Game):
    INFO = catalogue.MACHINATIONS
    ACTIONS = {
        "propose": {"name": str, "crew": [int]},
        "vote": {"approve": bool},
        "play": {"card": str},
        "accuse": {"target": int},
    }

    # -- setup (MM-6 to MM-11) ------------------------------------------------------------

    def setup(self) -> None:
        n = self.players
        self.roles: list[str] = self.deal_roles()
        self.seat_of: dict[str, int] = {role: seat for seat, role in enumerate(self.roles)}
        self.phase = PROPOSAL
        first = self.options["first_proposer"]
        self.proposer: int = self.rng.randrange(n) if first == "random" else first
        self.streak = 0
        self.scores = {COPS: 0, ROBBERS: 0}
        self.sizes: list[set[int]] = [set() for _ in range(n)]
        self.crews: list[Crews] = list(crews_by_size(n))
        """For each size, the crews MM-22 still allows: only a heist of that size removes any."""
        self._eligible: tuple[dict[str, Any], ...] | None = None
        self.fall_used = False
        self.proposal: dict[str, Any] | None = None
        self.votes: dict[int, bool] = {}
        self.vote_history: list[dict[str, Any]] = []
        self.cards_in: dict[int, str] = {}
        self.heists: list[dict[str, Any]] = []
        self.own_cards: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.choosers: tuple[int, ...] = ()
        self.targets: dict[int, int] = {}
        self.revealed: dict[int, str] = {}
        self.arrest: int | None = None
        self.murder: int | None = None
        self.knowledge: list[list[dict[str, Any]]] = [self.learned(s) for s in range(n)]
        for seat, role in enumerate(self.roles):
            self.log(
                "role",
                f"You are {role_name(role)}.",
                audience=self.only[seat],
                role=role,
            )
            self.log(
                "knowledge",
                self.describe_knowledge(self.knowledge[seat]),
                [s for entry in self.knowledge[seat] for s in entry["seats"]],
                audience=self.only[seat],
                knowledge=self.knowledge[seat],
            )
        self.log("proposer", "{0} is the Proposer.", (self.proposer,))

    def deal_roles(self) -> list[str]:
        """MM-8: the composition for N in a random seat order."""
        roles = list(COMPOSITIONS[self.players])
        self.rng.shuffle(roles)
        return roles

    def learned(self, seat: int) -> list[dict[str, Any]]:
        """MM-9: what `seat` learns, each entry a role by identity or an unordered pair."""
        entries = []
        for step in learns(self.roles[seat], self.players):
            if step[0] == ID:
                entries.append({"form": "id", "seats": [self.seat_of[step[1]]], "roles": [step[1]]})
            else:
                # Sorted seats: the order must not say which one is Lestrade.
                seats = sorted(self.seat_of[role] for role in step[1:])
                entries.append({"form": "pair", "seats": seats, "roles": list(step[1:])})
        return entries

    @staticmethod
    def describe_knowledge(entries: list[dict[str, Any]]) -> str:
        if not entries:
            return "You are shown nobody at the start."
        parts, i = [], 0
        for entry in entries:
            names = [role_name(r) for r in entry["roles"]]
            if entry["form"] == "id":
                parts.append(f"{{{i}}} is {names[0]}")
                i += 1
            else:
                parts.append(f"{{{i}}} and {{{i + 1}}} are {names[0]} and {names[1]}, "
                             "one each, you do not know which")
                i += 2
        return "You learn: " + "; ".join(parts) + "."

    # -- turns ----------------------------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == PROPOSAL:
            return frozenset((self.proposer,))
        if phase == VOTE:
            return frozenset(s for s in range(self.players) if s not in self.votes)
        if phase == HEIST:
            return frozenset(s for s in self.proposal["crew"] if s not in self.cards_in)
        if phase == ACCUSATION:
            return frozenset(s for s in self.choosers if s not in self.targets)
        return frozenset()

    def may_act(self, seat: int) -> bool:
        phase = self.phase
        if phase == PROPOSAL:
            return seat == self.proposer
        if phase == VOTE:
            return seat not in self.votes
        return seat in self.to_act()

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.outcome is not None or not self.may_act(seat):
            return []
        phase = self.phase
        if phase == PROPOSAL:
            return list(self.eligible_proposals())
        if phase == VOTE:
            return [{"type": "vote", "approve": True}, {"type": "vote", "approve": False}]
        if phase == HEIST:
            cards = [{"type": "play", "card": ABET}, {"type": "play", "card": FOIL}]
            if self.may_take_the_fall(seat):
                cards.append({"type": "play", "card": TAKE_THE_FALL})
            return cards
        return [{"type": "accuse", "target": t} for t in range(self.players) if t != seat]

    def eligible_proposals(self) -> tuple[dict[str, Any], ...]:
        """A proposal of every crew MM-22 allows now, smallest first; it changes only when a
        heist is performed."""
        if self._eligible is None:
            self._eligible = tuple(proposal for crews in self.crews for proposal, _ in crews)
        return self._eligible

    def may_take_the_fall(self, seat: int) -> bool:
        return self.roles[seat] == BRUTUS and not self.fall_used

    def expect(self, phase: str, message: str) -> None:
        if self.phase != phase:
            raise IllegalAction(message)

    # -- proposal and vote (MM-12 to MM-19) -----------------------------------------------

    def act_propose(self, seat: int, action: dict[str, Any]) -> None:
        self.expect(PROPOSAL, "no proposal is asked for now")
        crew = action["crew"]
        n = self.players
        if not 2 <= len(crew) <= n:
            raise IllegalAction(f"a crew has 2 to {n} players")
        if len(set(crew)) != len(crew):
            raise IllegalAction("a crew names each player once")
        for member in crew:
            if not 0 <= member < n:
                raise IllegalAction(f"there is no seat {member} at this table")
        size = len(crew)
        clash = [s for s in crew if size in self.sizes[s]]
        if clash:
            raise IllegalAction(
                f"seat {clash[0]} has already gone on a heist with a crew of {size} (MM-22)"
            )
        name = clean_name(action["name"])
        crew = sorted(crew)
        self.proposal = {"proposer": seat, "name": name, "crew": crew}
        self.phase = VOTE
        self.votes = {}
        shown = f"“{_braces(name)}”" if name else "a heist"
        members = ", ".join(f"{{{i + 1}}}" for i in range(size))
        self.log(
            "proposal",
            "{0} proposes " + shown + " with the crew " + members + ".",
            (seat, *crew),
            name=name,
            crew=crew,
        )

    def act_vote(self, seat: int, action: dict[str, Any]) -> None:
        self.expect(VOTE, "no vote is asked for now")
        approve = action["approve"]
        # Each vote is the referee's alone until the reveal: `voted` in the view says who is
        # in, and N lines a vote would swamp a player's log.
        self.votes[seat] = approve
        self.log("vote", "{0} votes to approve." if approve else "{0} votes to object.", (seat,),
                 audience=REFEREE_ONLY, approve=approve)
        if len(self.votes) == self.players:
            self.reveal_votes()

    def reveal_votes(self) -> None:
        n = self.players
        votes = [self.votes[s] for s in range(n)]
        ayes = [s for s in range(n) if votes[s]]
        noes = [s for s in range(n) if not votes[s]]
        approved = len(ayes) * 2 > n  # MM-15: a strict majority; a tie fails
        proposal = self.proposal
        self.vote_history.append({**proposal, "crew": list(proposal["crew"]), "votes": votes,
                                  "approved": approved})
        self.votes = {}
        placeholders = [f"{{{i}}}" for i in range(n)]
        aye_text = ", ".join(placeholders[: len(ayes)]) or "nobody"
        noe_text = ", ".join(placeholders[len(ayes):]) or "nobody"
        verdict = "The crew is approved" if approved else "The proposal fails"
        self.log(
            "votes",
            f"{verdict}, {len(ayes)} to {len(noes)}. Approve: {aye_text}. Object: {noe_text}.",
            (*ayes, *noes),
            votes=votes,
            approved=approved,
        )
        if approved:
            self.phase = HEIST
            self.cards_in = {}
            return
        self.streak += 1
        if self.streak >= n:
            self.log("streak", f"{n} proposals in a row have failed.", streak=self.streak)
            self.end_game("streak")
            return
        self.next_proposer()

    def next_proposer(self) -> None:
        """MM-16, MM-19: the seat to the left of the last Proposer proposes next."""
        self.proposer = (self.proposal["proposer"] + 1) % self.players
        self.proposal = None
        self.phase = PROPOSAL
        self.log("proposer", "{0} is the Proposer.", (self.proposer,), streak=self.streak)

    # -- heist (MM-20, MM-21) -------------------------------------------------------------

    def act_play(self, seat: int, action: dict[str, Any]) -> None:
        self.expect(HEIST, "no heist card is asked for now")
        card = action["card"]
        if card not in CARDS:
            raise IllegalAction("a heist card is 'abet', 'foil' or 'take_the_fall'")
        if card == TAKE_THE_FALL and not self.may_take_the_fall(seat):
            raise IllegalAction("only Brutus may play Take the Fall, once per game (MM-20)")
        self.cards_in[seat] = card
        self.log("played", "{0} has played a heist card.", (seat,))
        # Which card is never attributable at the table (MM-38); the referee knows.
        self.log("played_card", f"{{0}} played {CARD_NAMES[card]}.", (seat,),
                 audience=REFEREE_ONLY, card=card)
        if len(self.cards_in) == len(self.proposal["crew"]):
            self.resolve_heist()

    def resolve_heist(self) -> None:
        crew = self.proposal["crew"]
        played = self.cards_in
        counts = {card: 0 for card in CARDS}
        for card in played.values():
            counts[card] += 1
        number = len(self.heists) + 1
        for seat in crew:
            self.own_cards[seat].append({"heist": number, "card": played[seat]})
        self.cards_in = {}
        if counts[TAKE_THE_FALL]:
            self.fall_used = True
        effective = max(0, counts[FOIL] - counts[TAKE_THE_FALL])
        team = COPS if effective else ROBBERS
        points = 1 if number == 1 else 2
        self.scores[team] += points
        size = len(crew)
        gone = 0
        for seat in crew:
            self.sizes[seat].add(size)
            gone |= 1 << seat
        # MM-22: nobody on this crew goes on another heist of its size.
        self.crews[size] = tuple((proposal, seats) for proposal, seats in self.crews[size]
                                 if not seats & gone)
        self._eligible = None
        heist = {
            "number": number,
            "proposer": self.proposal["proposer"],
            "name": self.proposal["name"],
            "crew": list(crew),
            "cards": counts,
            "team": team,
            "points": points,
        }
        self.heists.append(heist)
        cards_text = ", ".join(f"{counts[c]} {CARD_NAMES[c]}" for c in CARDS)
        self.log(
            "heist",
            f"Heist {number} by " + ", ".join(f"{{{i}}}" for i in range(size))
            + f": {cards_text}. The {TEAM_NAMES[team]} score {points} "
            f"(Cops {self.scores[COPS]}, Robbers {self.scores[ROBBERS]}).",
            crew,
            number=number,
            cards=dict(counts),
            team=team,
            points=points,
            scores=dict(self.scores),
        )
        self.streak = 0  # MM-18
        if self.triggered():
            self.proposal = None
            self.start_accusations()
        else:
            self.next_proposer()

    def triggered(self) -> bool:
        """MM-25 and MM-37: has the score reached N - 2?"""
        goal = threshold(self.players)
        cops, robbers = self.scores[COPS], self.scores[ROBBERS]
        if self.options["accusation_trigger"] == "combined":
            return cops + robbers >= goal
        return max(cops, robbers) >= goal

    # -- accusation (MM-26 to MM-30) ------------------------------------------------------

    def start_accusations(self) -> None:
        self.phase = ACCUSATION
        self.log("accusation", "The accusation phase begins.")
        lestrade = self.seat_of[LESTRADE]
        jack = self.seat_of[JACK] if self.players >= 6 else None
        if jack is not None:
            self.reveal(jack)
        if self.options["lestrade_reveals"]:
            self.reveal(lestrade)
            self.choosers = (lestrade,) if jack is None else tuple(sorted((lestrade, jack)))
        else:
            # Everyone names a target, so `to_act` cannot point at Lestrade.
            self.choosers = tuple(range(self.players))
        self.targets = {}

    def reveal(self, seat: int) -> None:
        role = self.roles[seat]
        self.revealed[seat] = role
        self.log("reveal", "{0} reveals: " + role_name(role) + ".", (seat,), role=role)

    def act_accuse(self, seat: int, action: dict[str, Any]) -> None:
        self.expect(ACCUSATION, "no accusation is asked for now")
        target = action["target"]
        if not 0 <= target < self.players:
            raise IllegalAction(f"there is no seat {target} at this table")
        if target == seat:
            raise IllegalAction("you must name another player (MM-28)")
        self.targets[seat] = target
        self.log("chosen", "{0} has chosen.", (seat,))
        if len(self.targets) == len(self.choosers):
            self.resolve_accusations()

    def resolve_accusations(self) -> None:
        lestrade = self.seat_of[LESTRADE]
        self.arrest = self.targets[lestrade]
        self.log("arrest", "{0} arrests {1}.", (lestrade, self.arrest))
        if self.players >= 6:
            jack = self.seat_of[JACK]
            self.murder = self.targets[jack]
            self.log("murder", "{0} murders {1}.", (jack, self.murder))
        self.end_game()

    # -- the end (MM-31 to MM-36) ---------------------------------------------------------

    def end_game(self, reason: str | None = None) -> None:
        """Apply the win matrix (MM-34), reveal every role (MM-31) and finish."""
        self.phase = OVER
        cops, robbers = self.scores[COPS], self.scores[ROBBERS]
        points_team = COPS if cops >= robbers else ROBBERS  # MM-36: equal scores go to the Cops
        if reason == "streak":
            team, irene, text = COPS, False, "The Cops win: the Robbers could not agree on a crew."
        else:
            arrested = self.roles[self.arrest] == MORIARTY
            murdered = self.murder is not None and self.roles[self.murder] == SHERLOCK
            if arrested and not murdered:
                reason, team, irene = "arrest", COPS, True
                text = "Moriarty is arrested: the Cops win."
            elif murdered and not arrested:
                reason, team, irene = "murder", ROBBERS, False
                text = "Sherlock is murdered: the Robbers win."
            else:
                reason, team = "points", points_team
                # MM-33, read literally: neither leader is the target of either accusation.
                targets = [t for t in (self.arrest, self.murder) if t is not None]
                leaders_spared = all(self.roles[t] not in (MORIARTY, SHERLOCK) for t in targets)
                irene = not arrested and team == ROBBERS and leaders_spared
                if self.murder is None:  # 5 players: Lestrade alone accuses
                    both = "Lestrade arrests the wrong player"
                else:
                    both = "Both accusers are right" if arrested else "Both accusers are wrong"
                text = (f"{both}: the {TEAM_NAMES[team]} win on points "
                        f"({cops} to {robbers}).")
        winners = {s for s, role in enumerate(self.roles) if team_of(role) == team}
        if IRENE in self.seat_of:
            if irene:
                winners.add(self.seat_of[IRENE])
            text += " Irene Adler " + ("wins." if irene else "loses.")
        self.log(
            "roles",
            "The roles: " + ", ".join(f"{{{s}}} is {role_name(r)}" for s, r in enumerate(self.roles))
            + ".",
            range(self.players),
            roles=list(self.roles),
        )
        self.finish(Outcome(frozenset(winners), self.seat_teams(), reason, text, team))

    def seat_teams(self) -> tuple[str, ...]:
        return tuple(team_of(role) for role in self.roles)

    # -- views (MM-38 to MM-40) -----------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        n = self.players
        proposal = self.proposal
        return {
            "composition": list(COMPOSITIONS[n]),
            "threshold": threshold(n),
            "phase": self.phase,
            "proposer": self.proposer,
            "streak": self.streak,
            "proposal": None if proposal is None else {
                "proposer": proposal["proposer"],
                "name": proposal["name"],
                "crew": list(proposal["crew"]),
            },
            "voted": sorted(self.votes) if self.phase == VOTE else [],
            "vote_history": [
                {"proposer": v["proposer"], "name": v["name"], "crew": list(v["crew"]),
                 "votes": list(v["votes"]), "approved": v["approved"]}
                for v in self.vote_history
            ],
            "played": sorted(self.cards_in) if self.phase == HEIST else [],
            "heists": [
                {"number": h["number"], "proposer": h["proposer"], "name": h["name"],
                 "crew": list(h["crew"]), "cards": dict(h["cards"]), "team": h["team"],
                 "points": h["points"]}
                for h in self.heists
            ],
            "scores": dict(self.scores),
            "crew_sizes": [sorted(sizes) for sizes in self.sizes],
            "revealed": [self.revealed.get(s) for s in range(n)],
            "choosers": list(self.choosers),
            "chosen": sorted(self.targets) if self.phase == ACCUSATION else [],
            "arrest": self.arrest,
            "murder": self.murder,
            "roles": None,
        }

    def seat_view(self, seat: int) -> dict[str, Any]:
        return {
            "role": self.roles[seat],
            "knowledge": [
                {"form": k["form"], "seats": list(k["seats"]), "roles": list(k["roles"])}
                for k in self.knowledge[seat]
            ],
            "my_vote": self.votes.get(seat),
            "my_card": self.cards_in.get(seat),
            "my_cards": [{"heist": c["heist"], "card": c["card"]} for c in self.own_cards[seat]],
            "my_target": self.targets.get(seat),
            "can_take_the_fall": self.may_take_the_fall(seat),
        }

    def reveal_view(self) -> dict[str, Any]:
        return {"roles": list(self.roles)}

"""What the Moriarty's Machinations board shows, computed from a view, the legal actions and
the seats. Teams carry a word, never colour alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from engine.machinations.cards import CARD_NAMES, CARDS
from engine.machinations.roles import (
    COPS,
    IRENE,
    MORIARTY,
    ROBBERS,
    SHERLOCK,
    TEAM_NAMES,
    role_name,
    team_of,
)
from tui.models.seats import SeatInfo

SHORT_ROLE_NAMES = {"sherlock": "Sherlock", "moriarty": "Moriarty", "lestrade": "Lestrade",
                    "moran": "Moran", "judge": "Judge Grede", "jack": "Jack", "irene": "Irene",
                    "watson": "Watson", "brutus": "Brutus", "mycroft": "Mycroft"}
"""Each role in a word or two, for the players' rows of a narrow terminal."""

YOUR_TURN = {"proposal": "your proposal", "vote": "your vote", "heist": "your heist card",
             "accusation": "your accusation"}
OTHERS_TURN = {"vote": "voting", "heist": "heist", "accusation": "accusations"}


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    you: bool
    proposer: bool
    sizes: tuple[int, ...]
    waiting: str  # "voted", "played", "chose", "…" (still to choose) or ""
    role: str | None  # a revealed role, or None
    status: str
    known: tuple[str, ...] = ()
    """The roles this seat may have, as the viewer learned at the start: one, or a pair."""

    @property
    def sizes_text(self) -> str:
        """The crew sizes this player has been on, under the column "crews of"."""
        return ",".join(map(str, self.sizes)) or "none"


@dataclass(frozen=True)
class MachinationsModel:
    spectator: bool
    players: tuple[PlayerRow, ...]
    composition: str
    threshold: int
    phase: str
    proposer: str
    streak: int
    scores: tuple[int, int]  # Cops, Robbers
    role: str | None
    proposal: str
    heists: tuple[str, ...]
    votes: tuple[str, ...]
    # What the viewer may do now, straight from `legal`.
    crews: frozenset[tuple[int, ...]]
    cards: tuple[str, ...]
    targets: tuple[int, ...]
    can_vote: bool
    my_choice: str
    over: bool

    def status_line(self) -> str:
        cops, robbers = self.scores
        return (f"Cops {cops} · Robbers {robbers} · goal {self.threshold} · "
                f"failed {self.streak}/{len(self.players)}")

    def crew_verdict(self, crew: Iterable[int]) -> str:
        """Whether `crew` may be proposed now, and if not, why (MM-12, MM-22)."""
        crew = sorted(crew)
        if tuple(crew) in self.crews:
            return "eligible"
        if len(crew) < 2:
            return "pick at least 2"
        been = [self.players[s].name for s in crew if len(crew) in self.players[s].sizes]
        if been:
            return f"{been[0]} has been on a crew of {len(crew)}"
        return "not a legal crew"

    def pickable_for_crew(self, chosen: frozenset[int]) -> frozenset[int]:
        """Seats that can be added to `chosen` on the way to some eligible crew, or removed."""
        return frozenset(
            s for crew in self.crews if chosen <= set(crew) for s in crew
        ) | chosen


def team_word(role: str) -> str:
    """A role's team; Irene Adler, whose team is herself, plays on "her own"."""
    team = TEAM_NAMES[team_of(role)]
    return "her own" if team == role_name(role) else team


def role_with_team(role: str) -> str:
    """`Jack the Ripper (Robbers)`; a role that is its own team, Irene Adler, once."""
    team = TEAM_NAMES[team_of(role)]
    return role_name(role) if team == role_name(role) else f"{role_name(role)} ({team})"


def _names(seats: Sequence[SeatInfo], players: int) -> list[str]:
    names = [s.name for s in seats]
    return names + [f"Seat {s + 1}" for s in range(len(names), players)]


def cards_text(cards: Mapping[str, int]) -> str:
    """The cards a heist drew, the kinds nobody played left out: `2 Abet, 1 Foil`."""
    return ", ".join(f"{cards[c]} {CARD_NAMES[c]}" for c in CARDS if cards.get(c)) or "no card"


def build_model(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seat: int | None,
                seats: Sequence[SeatInfo]) -> MachinationsModel:
    n = view["players"]
    names = _names(seats, n)
    phase = view["phase"]
    waiting = {}
    if phase == "vote":
        waiting = {s: ("voted" if s in view["voted"] else "…") for s in range(n)}
    elif phase == "heist":
        waiting = {s: ("played" if s in view["played"] else "…") for s in view["proposal"]["crew"]}
    elif phase == "accusation":
        waiting = {s: ("chose" if s in view["chosen"] else "…") for s in view["choosers"]}
    revealed = view.get("roles") or view["revealed"]
    known: dict[int, tuple[str, ...]] = {}
    for entry in view.get("knowledge", ()):
        for s in entry["seats"]:
            known[s] = tuple(entry["roles"])
    rows = tuple(
        PlayerRow(
            seat=s,
            name=names[s],
            you=s == seat,
            proposer=s == view["proposer"] and phase in ("proposal", "vote"),
            sizes=tuple(view["crew_sizes"][s]),
            waiting=waiting.get(s, ""),
            role=revealed[s] or None,
            status=seats[s].status if s < len(seats) else "",
            known=known.get(s, ()),
        )
        for s in range(n)
    )
    heists = tuple(
        f"#{h['number']} {h['name'] or ''}{': ' if h['name'] else ''}"
        f"{', '.join(names[s] for s in h['crew'])} · "
        f"{cards_text(h['cards'])} → {TEAM_NAMES[h['team']]} +{h['points']}"
        for h in view["heists"]
    )
    votes = tuple(
        f"{names[v['proposer']]}: {', '.join(names[s] for s in v['crew'])} · "
        f"{'approved' if v['approved'] else 'failed'} · yes "
        + (", ".join(names[s] for s in range(n) if v["votes"][s]) or "nobody")
        for v in view["vote_history"]
    )
    proposal = ""
    if view["proposal"] is not None:
        p = view["proposal"]
        proposal = (f"{names[p['proposer']]} proposes {('“' + p['name'] + '” ') if p['name'] else ''}"
                    f"with {', '.join(names[s] for s in p['crew'])}")
    composition = ", ".join(role_with_team(r) for r in view["composition"])
    my_choice = ""
    if seat is not None:
        if view.get("my_vote") is not None:
            my_choice = "you voted " + ("Approve" if view["my_vote"] else "Object")
        elif view.get("my_card"):
            my_choice = "you played " + CARD_NAMES[view["my_card"]]
        elif view.get("my_target") is not None:
            my_choice = "you named " + names[view["my_target"]]
    return MachinationsModel(
        spectator=seat is None,
        players=rows,
        composition=composition,
        threshold=view["threshold"],
        phase=phase,
        proposer=names[view["proposer"]],
        streak=view["streak"],
        scores=(view["scores"][COPS], view["scores"][ROBBERS]),
        role=view.get("role"),
        proposal=proposal,
        heists=heists,
        votes=votes,
        crews=frozenset(tuple(a["crew"]) for a in legal if a["type"] == "propose"),
        cards=tuple(a["card"] for a in legal if a["type"] == "play"),
        targets=tuple(a["target"] for a in legal if a["type"] == "accuse"),
        can_vote=any(a["type"] == "vote" for a in legal),
        my_choice=my_choice,
        over=view.get("outcome") is not None,
    )


def ending_lines(view: Mapping[str, Any], seats: Sequence[SeatInfo]) -> tuple[str, ...]:
    """The end in words, under the outcome's own line (which team won, and on what): each
    accusation, who made it and whether it was right, and why Irene won or lost (MM-33,
    MM-34)."""
    n = view["players"]
    names = _names(seats, n)
    roles = view.get("roles") or []
    outcome = view.get("outcome") or {}
    if len(roles) != n:
        return ()
    lines = []
    right = {}
    for event in view.get("events", ()):
        kind, who = event.get("type"), event.get("seats") or []
        if kind not in ("arrest", "murder") or len(who) != 2:
            continue
        accuser, target = who
        wanted = MORIARTY if kind == "arrest" else SHERLOCK
        right[kind] = roles[target] == wanted
        verdict = "right" if right[kind] else f"not {role_name(wanted)}"
        verb = "arrested" if kind == "arrest" else "murdered"
        # The target's role is on their row of the table below: one line at 80 columns.
        lines.append(f"{names[accuser]} ({role_name(roles[accuser])}) {verb} {names[target]}: "
                     f"{verdict}.")
    scores = view.get("scores") or {}
    cops, robbers = scores.get(COPS, 0), scores.get(ROBBERS, 0)
    reason = outcome.get("reason")
    arrested, murdered = right.get("arrest", False), right.get("murder", False)
    if IRENE in roles:
        irene = roles.index(IRENE) in set(outcome.get("winners", ()))
        if reason == "streak":
            why = "no crew went out"
        elif arrested and not murdered:
            why = "Moriarty is arrested"
        elif murdered:
            why = "Sherlock is murdered"
        elif robbers <= cops:
            why = "the Robbers did not win on points"
        elif not irene:
            why = "a leader was accused"
        else:
            why = "the Robbers won on points and nobody accused Moriarty or Sherlock"
        lines.append(f"Irene Adler {'wins' if irene else 'loses'}: {why}.")
    return tuple(lines)

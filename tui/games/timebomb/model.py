"""What the Time Bomb board shows, computed from a view, the legal actions and the seats.

Wire kinds and teams always carry a symbol and a word, never colour alone. Kinds are read from
the view's `wire_kinds`, so Time Bomb Évolution's extra kinds fall back to their own name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.timebomb.cards import claim_words
from tui.models.seats import SeatInfo

WIRE_SYMBOLS = {"safe": "○", "defusing": "◆", "bomb": "✹"}
TEAM_NAMES = {"sherlock": "Sherlock", "moriarty": "Moriarty"}
TEAM_SYMBOLS = {"sherlock": "☂", "moriarty": "♠"}


def wire_symbol(kind: str) -> str:
    return WIRE_SYMBOLS.get(kind, "■")


def wire_word(kind: str) -> str:
    return kind.replace("_", " ").capitalize()


def team_label(team: str | None) -> str:
    """`☂ Sherlock` or `♠ Moriarty`: a symbol and a word."""
    if team is None:
        return "unknown"
    return f"{TEAM_SYMBOLS.get(team, '?')} {TEAM_NAMES.get(team, team.capitalize())}"


def counts_text(counts: Mapping[str, int], kinds: Sequence[str], *, skip_zero: bool = True) -> str:
    """`3 ○ Safe · 1 ◆ Defusing`, in the view's kind order."""
    parts = [
        f"{counts.get(k, 0)} {wire_symbol(k)} {wire_word(k)}"
        for k in kinds
        if counts.get(k, 0) or not skip_zero
    ]
    return " · ".join(parts) or "no wires"


def claim_text(claim: Mapping[str, int] | None) -> str:
    if claim is None:
        return "—"
    bomb = "✹ Bomb" if claim.get("bomb") else "no ✹"
    return f"{claim.get('defusing', 0)}◆ {bomb}"


def describe_claim(action: Mapping[str, Any]) -> str:
    return claim_words(action.get("defusing", 0), bomb=action.get("bomb", 0))


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    face_down: int
    revealed: str
    """Symbols of the wires revealed from this player's hands so far, in order."""
    claim: str
    cutter: bool
    you: bool
    status: str
    target: bool
    """Whether the viewer may cut this player's wire now."""


@dataclass(frozen=True)
class TimeBombModel:
    spectator: bool
    role: str | None
    hand: Mapping[str, int] | None
    kinds: tuple[str, ...]
    players: tuple[PlayerRow, ...]
    cutter: int
    round: int
    rounds: int
    cuts_left: int
    defusing_found: int
    defusing_total: int
    revealed_counts: Mapping[str, int]
    revealed: tuple[Mapping[str, Any], ...]
    """Every revealed wire: round, cut, cutter, target (its holder) and wire kind."""
    your_turn: bool
    claims: tuple[Mapping[str, Any], ...]
    """The claim actions legal now, to offer in the claim dialog."""
    over: bool

    @property
    def targets(self) -> list[int]:
        return [p.seat for p in self.players if p.target]

    @property
    def bomb_out(self) -> bool:
        return bool(self.revealed_counts.get("bomb", 0))

    def status_line(self) -> str:
        """The table's state in one line, for the status bar."""
        if self.over:
            return f"Round {self.round}/{self.rounds} · ◆ {self.defusing_found}/{self.defusing_total} found"
        return (
            f"Round {self.round}/{self.rounds} · {self.cuts_left} "
            f"cut{'s' if self.cuts_left != 1 else ''} left · "
            f"◆ {self.defusing_found}/{self.defusing_total} found"
        )


def build_model(
    view: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]],
    seat: int | None,
    seats: Sequence[SeatInfo],
) -> TimeBombModel:
    players = int(view["players"])
    targets = {a["target"] for a in legal if a.get("type") == "cut"}
    revealed: dict[int, str] = {}
    for wire in view.get("revealed", ()):
        revealed[wire["target"]] = revealed.get(wire["target"], "") + wire_symbol(wire["wire"])
    claims = view.get("claims") or [None] * players
    face_down = view.get("face_down") or [0] * players
    rows = tuple(
        PlayerRow(
            seat=s,
            name=seats[s].name if s < len(seats) else f"Seat {s + 1}",
            face_down=face_down[s],
            revealed=revealed.get(s, ""),
            claim=claim_text(claims[s]),
            cutter=s == view.get("cutter"),
            you=s == seat,
            status=seats[s].status if s < len(seats) else "",
            target=s in targets,
        )
        for s in range(players)
    )
    spectator = seat is None or "role" not in view
    return TimeBombModel(
        spectator=spectator,
        role=None if spectator else view.get("role"),
        hand=None if spectator else view.get("hand"),
        kinds=tuple(view.get("wire_kinds", ("safe", "defusing", "bomb"))),
        players=rows,
        cutter=int(view.get("cutter", 0)),
        round=int(view.get("round", 1)),
        rounds=int(view.get("rounds", 4)),
        cuts_left=int(view.get("round_length", players)) - int(view.get("cuts", 0)),
        defusing_found=int(view.get("defusing_found", 0)),
        defusing_total=int(view.get("defusing_total", players)),
        revealed_counts=dict(view.get("revealed_counts", {})),
        revealed=tuple(view.get("revealed", ())),
        your_turn=bool(targets),
        claims=tuple(a for a in legal if a.get("type") == "claim"),
        over=view.get("outcome") is not None,
    )


@dataclass(frozen=True)
class EndRow:
    seat: int
    name: str
    team: str
    won: bool
    remaining: str


@dataclass(frozen=True)
class Ending:
    headline: str
    reason: str
    rows: tuple[EndRow, ...]
    set_aside: str | None
    last_cut: str
    """The cut that ended the game, in words."""


REASONS = {
    "defused": "every Defusing wire was found",
    "bomb": "the Bomb was cut",
    "time": "four rounds ran out",
}


def build_ending(view: Mapping[str, Any], seat: int | None, seats: Sequence[SeatInfo]) -> Ending:
    """The end screen: winners and why, every role (and the set-aside card), every wire left."""
    outcome = view["outcome"]
    kinds = tuple(view.get("wire_kinds", ("safe", "defusing", "bomb")))
    roles = view.get("roles") or list(outcome.get("teams", ()))
    hands = view.get("hands") or [{} for _ in roles]
    winners = set(outcome.get("winners", ()))
    team = outcome.get("winning_team")
    rows = tuple(
        EndRow(
            seat=s,
            name=seats[s].name if s < len(seats) else f"Seat {s + 1}",
            team=team_label(role),
            won=s in winners,
            remaining=counts_text(hands[s], kinds) if s < len(hands) else "",
        )
        for s, role in enumerate(roles)
    )
    set_aside = view.get("set_aside")
    revealed = view.get("revealed") or []
    last_cut = ""
    if revealed:
        last = revealed[-1]
        name = {row.seat: row.name for row in rows}
        last_cut = (
            f"Last cut: {name.get(last['cutter'], '?')} ✂ {name.get(last['target'], '?')}: "
            f"{wire_symbol(last['wire'])} {wire_word(last['wire'])}"
        )
    return Ending(
        headline=f"{team_label(team)}'s team wins" if team else "The game is over",
        reason=str(outcome.get("text") or REASONS.get(outcome.get("reason"), "")),
        rows=rows,
        set_aside=team_label(set_aside) if set_aside else None,
        last_cut=last_cut,
    )

"""What the Time Bomb board shows, computed from a view, the legal actions and the seats.

Wire kinds and teams always carry a symbol and a word, never colour alone. Kinds are read from
the view's `wire_kinds`, so Time Bomb Évolution's extra kinds fall back to their own name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

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


def truthful_claim(hand: Mapping[str, int]) -> dict[str, Any]:
    """The claim that says exactly what `hand` holds: the claim offer's first choice."""
    return {"type": "claim", "defusing": hand.get("defusing", 0), "bomb": hand.get("bomb", 0)}


CutEffect = Callable[[Sequence[Mapping[str, Any]], int, Mapping[int, str]], str]
"""What the cut at an index of the events did beyond its wire, read from the events after it,
in words (a variant's colours have powers); empty when nothing."""


def claim_history(
    events: Sequence[Mapping[str, Any]],
    names: Mapping[int, str],
    up_to_round: int,
    claim_words: Callable[[Mapping[str, Any] | None], str],
    wire_mark: Callable[[str], str],
    cut_effect: CutEffect | None = None,
) -> tuple[str, ...]:
    """Each claim of the rounds before `up_to_round`, newest round first, with the wires cut
    from that player in that round beside it: `R1 Ada claimed 1◆ no ✹ · cut ○○◆` (a player
    cut without a claim has a line too, so a past round reads whole). With `cut_effect`, each
    wire says what its cut did, and the wires are listed one by one: `cut B (moved ◆1 off
    Red), ◆ (laid on Red)`. Built from the public log, where every claim and every cut is an
    event: the view itself keeps only the claims of the round being played."""
    claims: dict[int, dict[int, Mapping[str, Any]]] = {}
    cut: dict[int, dict[int, list[str]]] = {}
    round_ = 1
    for index, event in enumerate(events):
        kind = event.get("type")
        if kind == "deal":
            round_ = int(event.get("round", round_))
        elif kind == "claim" and event.get("seats"):
            claims.setdefault(round_, {})[event["seats"][0]] = event
        elif kind == "cut" and len(event.get("seats", ())) == 2:
            mark = wire_mark(str(event.get("wire")))
            effect = cut_effect(events, index, names) if cut_effect else ""
            marks = cut.setdefault(int(event.get("round", round_)), {})
            marks.setdefault(event["seats"][1], []).append(
                f"{mark} ({effect})" if effect else mark)
    lines = []
    for r in range(up_to_round - 1, 0, -1):
        said, marks = claims.get(r, {}), cut.get(r, {})
        for seat in sorted(said.keys() | marks.keys()):
            name = names.get(seat, f"Seat {seat + 1}")
            words = f"claimed {claim_words(said[seat])}" if seat in said else "made no claim"
            wires = (", " if cut_effect else "").join(marks.get(seat, ())) or "none"
            lines.append(f"R{r} {name} {words} · cut {wires}")
    return tuple(lines)


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
    short_claim: str = ""
    """The claim for a narrow row, when it differs."""
    team: str | None = None
    """This player's team, when the view reveals every role (the end, or everything)."""
    hand: str = ""
    """The marks of this player's face-down wires, when the view reveals every hand."""


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
    claims: tuple[Mapping[str, Any], ...]
    """The claim actions legal now, to offer in the claim dialog."""
    over: bool
    truth: Mapping[str, Any] | None = None
    """The legal claim that says what the viewer holds: offered first."""
    claimed: bool = False
    """The viewer has a claim on the table this round."""
    history: tuple[str, ...] = ()
    """The claims of past rounds, newest first, each with the wires cut from its player."""
    set_aside: str | None = None
    """The role card set aside, when the view reveals it."""

    @property
    def targets(self) -> list[int]:
        return [p.seat for p in self.players if p.target]

    @property
    def may_cut(self) -> bool:
        """The viewer may cut a wire now: `legal` holds a cut. Not "your turn", which the
        board reads from the view's `to_act`: a replay's step offers no cut at anyone's turn."""
        return bool(self.targets)

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
    *,
    claim_words: Callable[[Mapping[str, Any] | None], str] = claim_text,
    wire_mark: Callable[[str], str] = wire_symbol,
    truthful: Callable[[Mapping[str, int]], dict[str, Any]] = truthful_claim,
    cut_effect: CutEffect | None = None,
) -> TimeBombModel:
    """The model of a view; a variant passes its own words for a claim, its own mark for a
    revealed wire, its own truthful claim and what its cuts do."""
    players = int(view["players"])
    targets = {a["target"] for a in legal if a.get("type") == "cut"}
    revealed: dict[int, str] = {}
    for wire in view.get("revealed", ()):
        revealed[wire["target"]] = revealed.get(wire["target"], "") + wire_mark(wire["wire"])
    claims = view.get("claims") or [None] * players
    face_down = view.get("face_down") or [0] * players
    names = {s: seats[s].name if s < len(seats) else f"Seat {s + 1}" for s in range(players)}
    kinds = tuple(view.get("wire_kinds", ("safe", "defusing", "bomb")))
    roles = view.get("roles") or [None] * players
    hands = [
        "".join(wire_mark(kind) * hand.get(kind, 0) for kind in kinds)
        for hand in view.get("hands") or [{}] * players
    ]
    rows = tuple(
        PlayerRow(
            seat=s,
            name=names[s],
            face_down=face_down[s],
            revealed=revealed.get(s, ""),
            claim=claim_words(claims[s]),
            cutter=s == view.get("cutter"),
            you=s == seat,
            status=seats[s].status if s < len(seats) else "",
            target=s in targets,
            team=roles[s],
            hand=hands[s],
        )
        for s in range(players)
    )
    spectator = seat is None or "role" not in view
    offered = tuple(a for a in legal if a.get("type") == "claim")
    over = view.get("outcome") is not None
    round_ = int(view.get("round", 1))
    truth = None if spectator else truthful(view.get("hand") or {})
    return TimeBombModel(
        spectator=spectator,
        role=None if spectator else view.get("role"),
        hand=None if spectator else view.get("hand"),
        kinds=kinds,
        players=rows,
        cutter=int(view.get("cutter", 0)),
        round=round_,
        rounds=int(view.get("rounds", 4)),
        cuts_left=int(view.get("round_length", players)) - int(view.get("cuts", 0)),
        defusing_found=int(view.get("defusing_found", 0)),
        defusing_total=int(view.get("defusing_total", players)),
        revealed_counts=dict(view.get("revealed_counts", {})),
        revealed=tuple(view.get("revealed", ())),
        claims=offered,
        over=over,
        truth=truth if truth in offered else None,
        claimed=seat is not None and 0 <= seat < players and claims[seat] is not None,
        history=claim_history(view.get("events", ()), names, round_ + 1 if over else round_,
                              claim_words, wire_mark, cut_effect),
        set_aside=view.get("set_aside"),
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
    rule: str = ""
    """The numbered rule that ended it, where a variant says it."""


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

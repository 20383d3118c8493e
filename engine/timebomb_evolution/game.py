"""Time Bomb Évolution and its Variante, 4-6 players, per its RULES.md (rules EV-n).

A small variant of `TimeBomb`, the way a chess variant overrides a few methods of the board:
the wire kinds are Defusing plus N colours of bomb (EV-4, EV-5), a colour explodes on its
threshold-th reveal (EV-14), and with the Variante each colour has a power (EV-16 to EV-21).
Everything else, the deal as counts per kind, the cut as a uniformly random wire of the
target's multiset, the passing of the Wire Cutter, rounds and redeals, comes from Time Bomb.

The Variante's choices are pending decisions answered through `apply`, so a client offers
`legal_actions` and never needs the rules: which colour a Defusing wire defuses ("defuse"),
which Defusing wire a Blue bomb moves apart ("move_apart") and the Red bomb's Number-card draw
("draw_number", random from the state's rng; the designation it sets constrains the next cut).
While one is pending, the cut's last steps (EV-22 steps 4-5) wait for it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine import catalogue
from engine.core import IllegalAction
from engine.timebomb.cards import (
    BLUE,
    CARDS_PER_COLOUR,
    COLOURS,
    DEFUSING,
    GREEN,
    MORIARTY,
    ORANGE,
    PINK,
    RED,
    ROUNDS,
    SHERLOCK,
    YELLOW,
    claim_words,
    colour_name,
)
from engine.timebomb.cards import EVOLUTION_ROLE_DECKS as ROLE_DECKS
from engine.timebomb.game import TimeBomb

THRESHOLD = 4
"""EV-14: a colour explodes on its 4th revealed card."""
VARIANTE_THRESHOLDS = {GREEN: 3}
"""EV-16 onwards: with the Variante, Green explodes on its 3rd."""

# The pending decisions (EV-16, EV-17, EV-19).
DEFUSE, MOVE_APART, DRAW_NUMBER = "defuse", "move_apart", "draw_number"


class TimeBombEvolution(TimeBomb):
    INFO = catalogue.TIMEBOMB_EVOLUTION
    ACTIONS = {
        "cut": {"target": int},
        # A claim names how many Defusing wires you hold and, optionally, one colour you hold:
        # the two facts a table asks for, without enumerating every hand (RULES.md, "Talk and claims").
        "claim": {"defusing": int, "colour": str},
        DEFUSE: {"colour": str},
        MOVE_APART: {"colour": str},
        DRAW_NUMBER: {},
    }
    FREE_ACTIONS = frozenset({"claim"})
    ROLE_DECKS: ClassVar[dict[int, tuple[int, int]]] = ROLE_DECKS

    # -- setup (EV-3 to EV-7) -------------------------------------------------------------

    def setup(self) -> None:
        self.variante: bool = self.options["variante"]
        self.defusing_wires: list[dict[str, Any]] = []
        """Each revealed Defusing wire, numbered 1..N in order: where it lies (EV-16, EV-17)."""
        self.last_reveal: str | None = None
        self.designated: int | None = None
        self.draws: list[dict[str, Any]] = []
        self.round4_length: int | None = None
        super().setup()

    def choose_wires(self) -> None:
        """EV-4: the N colours in play, picked at random or by the host; EV-5: N of their 5N
        bombs removed unseen."""
        chosen = self.options["colours"]
        if chosen == "random":
            chosen = sorted(self.rng.sample(COLOURS, self.players), key=COLOURS.index)
        self.colours: tuple[str, ...] = tuple(chosen)
        self.thresholds = {
            c: VARIANTE_THRESHOLDS.get(c, THRESHOLD) if self.variante else THRESHOLD
            for c in self.colours
        }
        n = self.players
        self.removed = [0] * (1 + n)
        """The removed pile, as counts in the order of `kinds` (no Defusing wire in it)."""
        for card in self.rng.sample(range(CARDS_PER_COLOUR * n), n):
            self.removed[1 + card // CARDS_PER_COLOUR] += 1

    def wire_kinds(self) -> tuple[str, ...]:
        """EV-4: Defusing, then the colours in play."""
        return (DEFUSING, *self.colours)

    def build_wire_pool(self) -> list[int]:
        """EV-5: the bombs of the chosen colours less the removed pile, plus N Defusing wires."""
        return [self.players] + [CARDS_PER_COLOUR - r for r in self.removed[1:]]

    def build_wire_deck_public(self) -> list[int]:
        """The public make-up: N Defusing and 5 of each colour, of which N are removed."""
        return [self.players] + [CARDS_PER_COLOUR] * len(self.colours)

    # -- turns ----------------------------------------------------------------------------

    def decision_actions(self, pending: dict[str, Any]) -> list[dict[str, Any]]:
        kind = pending["kind"]
        if kind == DRAW_NUMBER:
            return [{"type": DRAW_NUMBER}]
        return [{"type": kind, "colour": c} for c in pending["choices"]]

    def cut_actions(self, seat: int) -> list[dict[str, Any]]:
        """EV-8, EV-12, EV-19: a designated player's wire, the drawer's own after a 0."""
        if self.designated is not None:
            return [{"type": "cut", "target": self.designated}]
        return super().cut_actions(seat)

    def check_cut(self, seat: int, target: int) -> None:
        if self.pending is None and self.designated is not None and 0 <= target < self.players:
            if target != self.designated:
                raise IllegalAction(
                    f"the Number card designates seat {self.designated}: cut one of their wires"
                )
            return  # EV-19: after a 0 the drawer cuts their own wire; lapses leave no empty row
        super().check_cut(seat, target)

    def waiting_text(self) -> str:
        seat, kind = self.pending["seat"], self.pending["kind"]
        what = {
            DEFUSE: "which colour the Defusing wire defuses",
            MOVE_APART: "which Defusing wire the Blue bomb moves apart",
            DRAW_NUMBER: "to draw a Number card",
        }[kind]
        return f"waiting for seat {seat} to choose {what}"

    # -- claims (RULES.md, "Talk and claims") ---------------------------------------------------------------

    def claim_actions(self, seat: int) -> list[dict[str, Any]]:
        held = sum(self.hands[seat])
        actions = [{"type": "claim", "defusing": d, "colour": ""} for d in range(held + 1)]
        actions += [
            {"type": "claim", "defusing": d, "colour": c}
            for d in range(held)
            for c in self.colours
        ]
        return actions

    def act_claim(self, seat: int, action: dict[str, Any]) -> None:
        defusing, colour = action["defusing"], action["colour"]
        if colour and colour not in self.colours:
            raise IllegalAction(
                f"{colour!r} is not a colour of this game; they are: " + ", ".join(self.colours)
            )
        held = self.check_claim(seat, defusing, 1 if colour else 0)
        self.claims[seat] = {"defusing": defusing, "colour": colour, "held": held}
        self.log(
            "claim", "{0} claims " + claim_words(defusing, colour=colour) + ".", (seat,),
            defusing=defusing, colour=colour, held=held,
        )

    # -- a cut's effect (EV-13 to EV-22) --------------------------------------------------

    def resolve_reveal(self, cutter: int, target: int, kind: int) -> None:
        """EV-22 steps 2-3. A decision it opens holds back steps 4-5 (`finish_cut`)."""
        name = self.kinds[kind]
        previous, self.last_reveal = self.last_reveal, name
        self.designated = None  # the forced cut, if one was due, is this one
        if kind == self.defusing_index:
            self.reveal_defusing(cutter, target)
            return
        if self.variante and name == PINK and previous == PINK:
            self.win(MORIARTY, "pink", "Two Pink bombs in a row explode: Moriarty's team wins.")
            return
        if self.explodes(name):
            return
        if self.variante and name == BLUE and self.wire_on:
            self.open_decision(MOVE_APART, cutter, target, list(self.wire_on))
        elif self.variante and name == RED and not self.last_cut_of_game():
            self.open_decision(DRAW_NUMBER, target, target, [])

    def reveal_defusing(self, cutter: int, target: int) -> None:
        found = self.revealed_counts[self.defusing_index]
        self.defusing_wires.append(
            {"number": found, "round": self.round, "cut": self.cuts, "cutter": cutter,
             "target": target, "on": None, "moved_apart": False, "set_apart": False}
        )
        if found == self.defusing_total:
            self.win(SHERLOCK, "defused", "Every Defusing wire is cut: Sherlock's team wins.")
            return
        if not self.variante:
            return  # EV-13: it only counts
        eligible = [
            c for c in self.colours
            if c != YELLOW and c not in self.wire_on and self.revealed(c)
        ]
        if eligible:
            self.open_decision(DEFUSE, cutter, target, eligible)
        else:
            self.defusing_wires[-1]["set_apart"] = True
            self.log(
                "set_apart",
                f"No colour can take Defusing wire {found}: it is set apart.",
                wire=found,
            )

    def explodes(self, colour: str) -> bool:
        """EV-14, EV-22 step 3b: an undefused colour at its threshold wins for Moriarty."""
        if colour in self.wire_on or self.revealed(colour) < self.thresholds[colour]:
            return False
        self.win(
            MORIARTY,
            "bomb",
            f"The {colour_name(colour)} bomb explodes: Moriarty's team wins.",
        )
        return True

    @property
    def wire_on(self) -> dict[str, int]:
        """Colour -> number of the Defusing wire lying on it: the defused colours, read from
        `defusing_wires`, the one record of where each wire went."""
        return {w["on"]: w["number"] for w in self.defusing_wires if w["on"] is not None}

    def revealed(self, colour: str) -> int:
        return self.revealed_counts[self.kinds.index(colour)]

    def last_cut_of_game(self) -> bool:
        """Whether step 5 will end the game (EV-15, EV-21): a Red draw then lapses (EV-19)."""
        if self.cuts < self.round_length():
            return False
        return self.round == ROUNDS or (
            self.round == ROUNDS - 1 and self.variante and self.orange_round4_length() <= 0
        )

    def open_decision(self, kind: str, seat: int, owner: int, choices: list[str]) -> None:
        # The revealed wire's owner takes the Wire Cutter once the decision is made.
        self.pending = {"kind": kind, "seat": seat, "owner": owner, "choices": choices}

    def after_reveal(self, target: int) -> None:
        if self.pending is None:
            self.finish_cut(target)

    def finish_cut(self, owner: int) -> None:
        """EV-22 steps 4-5, then step 0 for a designation that found an empty row."""
        super().after_reveal(owner)
        if self.outcome is None and self.designated is not None:
            seat = self.designated
            if not sum(self.hands[seat]):
                self.designated = None
                self.cutter = seat
                self.log(
                    "designation_lapsed",
                    "{0} has no wire left: {0} takes the Wire Cutter and cuts freely.",
                    (seat,),
                )

    def take_decision(self, kind: str, colour: str | None = None) -> dict[str, Any]:
        pending = self.pending
        if pending is None or pending["kind"] != kind:
            raise IllegalAction(
                self.waiting_text() if pending is not None else f"there is nothing to {kind} now"
            )
        if colour is not None and colour not in pending["choices"]:
            raise IllegalAction(
                f"{colour!r} is not a choice now; choose one of: " + ", ".join(pending["choices"])
            )
        self.pending = None
        return pending

    def act_defuse(self, seat: int, action: dict[str, Any]) -> None:
        """EV-16: lay the Defusing wire just revealed on an eligible colour."""
        colour = action["colour"]
        pending = self.take_decision(DEFUSE, colour)
        wire = self.defusing_wires[-1]
        wire["on"] = colour
        self.log(
            "defuse",
            "{0} lays Defusing wire " + f"{wire['number']} on {colour_name(colour)}.",
            (seat,),
            wire=wire["number"],
            colour=colour,
        )
        self.finish_cut(pending["owner"])

    def act_move_apart(self, seat: int, action: dict[str, Any]) -> None:
        """EV-17: the Blue bomb moves one Defusing wire off its colour, which may explode."""
        colour = action["colour"]
        pending = self.take_decision(MOVE_APART, colour)
        number = self.wire_on[colour]
        wire = self.defusing_wires[number - 1]
        wire["on"] = None
        wire["moved_apart"] = True
        self.log(
            "move_apart",
            "{0} moves Defusing wire "
            + f"{number} off {colour_name(colour)}: {colour_name(colour)} is armed again.",
            (seat,),
            wire=number,
            colour=colour,
        )
        if not self.explodes(colour):
            self.finish_cut(pending["owner"])

    def act_draw_number(self, seat: int, action: dict[str, Any]) -> None:
        """EV-19: draw one Number card 0..N-1 at random; it designates the next cut's target."""
        pending = self.take_decision(DRAW_NUMBER)
        number = int(self.rng.random() * self.players)
        self.designated = (seat + number) % self.players
        self.draws.append(
            {"round": self.round, "cut": self.cuts, "seat": seat, "number": number,
             "designated": self.designated}
        )
        text = "{0} draws Number card " + str(number) + ": "
        text += "{0} must cut one of their own wires." if number == 0 else (
            "the next cut takes a wire of {1}."
        )
        self.log(
            "draw_number", text, (seat, self.designated), number=number,
            designated=self.designated,
        )
        self.finish_cut(pending["owner"])

    # -- rounds (EV-10, EV-11, EV-21) -----------------------------------------------------

    def round_length(self) -> int:
        if self.round == ROUNDS and self.round4_length is not None:
            return self.round4_length
        return self.players

    def orange_round4_length(self) -> int:
        """EV-21: N minus the revealed Orange cards, defused or not (never below 0)."""
        oranges = self.revealed(ORANGE) if ORANGE in self.colours else 0
        return max(0, self.players - oranges)

    def redeal(self) -> None:
        super().redeal()
        if self.round == ROUNDS and self.variante:
            self.round4_length = self.orange_round4_length()
            if self.round4_length < self.players:
                self.log(
                    "round4_length",
                    f"Orange bombs shorten round 4 to {self.round4_length} cuts.",
                    length=self.round4_length,
                )
            if self.round4_length == 0:
                self.win(
                    MORIARTY, "orange", "Orange bombs leave round 4 no cut: Moriarty's team wins."
                )

    # -- views (RULES.md, Who sees what) ----------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        pending = self.pending
        return {
            **super().public_view(),
            "variante": self.variante,
            "colours": list(self.colours),
            "thresholds": dict(self.thresholds),
            "removed_count": self.players,
            "defusing_wires": [dict(w) for w in self.defusing_wires],
            "defused": dict(self.wire_on),
            # Only the wires that lie apart (RULES.md, "Who sees what"): not one waiting for its colour,
            # nor the last one, which wins the game.
            "set_apart": [w["number"] for w in self.defusing_wires if w["set_apart"]],
            "moved_apart": [w["number"] for w in self.defusing_wires if w["moved_apart"]],
            "last_reveal": self.last_reveal,
            "designated": self.designated,
            "number_cards": list(range(self.players))
            if self.variante and RED in self.colours else [],
            "draws": [dict(d) for d in self.draws],
            "round4_length": self.round4_length
            if self.round4_length is not None
            else (self.orange_round4_length() if self.variante else self.players),
            "round4_length_final": self.round4_length is not None or not self.variante,
            "pending": None if pending is None else {
                "decision": pending["kind"],
                "seat": pending["seat"],
                "choices": list(pending["choices"]),
            },
        }

    def reveal_view(self) -> dict[str, Any]:
        # EV-24: the removed pile, hidden from every seat and spectator until the end.
        return {**super().reveal_view(), "removed": dict(zip(self.colours, self.removed[1:]))}



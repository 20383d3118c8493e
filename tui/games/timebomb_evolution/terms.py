"""What a Time Bomb Évolution table shows, in a newcomer's words (`tui.games.terms`): Time
Bomb's terms but the Bomb and the Safe wires, each colour, and the Variante's marks."""

from __future__ import annotations

from typing import Any, Mapping

from tui.games.terms import Term
from tui.games.timebomb import terms as timebomb
from tui.games.timebomb_evolution.model import COLOUR_POWERS

COLOURS = tuple(
    Term(colour.capitalize(),
         f"{colour.capitalize()} bombs: the 4th cut explodes; in the Variante it "
         f"{COLOUR_POWERS[colour]}",
         forms=(colour.capitalize(), f"{colour.capitalize()}s"))
    for colour in COLOUR_POWERS
)
"""Each bomb colour, with what it does in the Variante."""

TERMS = (
    timebomb.SHERLOCK,
    Term("♠ Moriarty", "Moriarty's team: wins when a colour explodes or the four rounds run "
         "out; its players do not know each other",
         forms=("♠", "Moriarty's team", "Moriarty's", "Moriarty")),
    timebomb.DEFUSING, *COLOURS,
    Term("bomb", "a coloured card; N of all the bombs are removed unseen before the deal, so "
         "no colour's count is sure", forms=("bomb", "bombs", "Bombs")),
    Term("2/4", "a colour's cards cut so far, and the count that explodes it",
         pattern=r"\b\d+/\d+\b"),
    Term("⚠", "one more card of this colour explodes it", forms=("⚠",)),
    Term("explodes", "a colour reaching its count: Moriarty's team wins at once",
         forms=("explode", "explodes", "explodes:", "explosion")),
    Term("◆2", "Defusing wire 2 lies on this colour: it is defused and cannot explode",
         pattern=r"◆\d+"),
    Term("R B", "in the revealed column and a short claim, a colour by its initial: +R is a "
         "claim of some Red", pattern=r"(?<![\w])\+?[YBRPGO◆]+(?![\w])"),
    Term("defused", "a colour a Defusing wire lies on: it cannot explode; armed again if a "
         "Blue moves the wire off", forms=("defused", "armed")),
    Term("Variante", "the table option that gives each colour a power", forms=("Variante",)),
    Term("apart", "a Defusing wire on no colour: set apart when no colour could take it, or "
         "moved apart by a Blue; it still counts for Sherlock's team",
         forms=("apart", "set apart", "moved apart", "moved")),
    Term("Number card", "drawn after a Red: it names whose wire is cut next, counting to the "
         "left (0 is the drawer)", forms=("Number card", "Number")),
    Term("⇦", "the player the Number card names: the next cut takes one of their wires",
         forms=("⇦",)),
    Term("◂", "the colour cut last (two Pinks in a row explode)", forms=("◂",)),
    Term("round 4: ≤4 cuts", "how long Orange bombs leave round 4: each one cut shortens it",
         pattern=r"≤?\d+ cuts"),
    Term("+Red", "a claim naming a colour: the claimer says they hold some of it",
         pattern=r"\d◆( \+\w+)?"),
    Term("EV-14", "a numbered rule of Évolution (F1 shows the rules)", pattern=r"\bEV-\d+:?"),
    Term("removed unseen", "the bomb cards taken out before the deal, shown at the end",
         forms=("Removed unseen", "removed unseen", "Removed", "removed")),
    timebomb.WIRE, timebomb.WIRE_CUTTER, timebomb.FACE_DOWN, timebomb.CLAIM, timebomb.BLUFF,
    timebomb.NO_CLAIM, timebomb.TRUE, timebomb.ROUND, timebomb.CUTS_LEFT, timebomb.FOUND,
    timebomb.PAST, timebomb.REVEALED, timebomb.SET_ASIDE, timebomb.DEAL,
)


def goal(view: Mapping[str, Any]) -> str:
    """How the viewer's team wins, for their own panel."""
    return timebomb.team_goal(view.get("role"),
                              int(view.get("defusing_total", view["players"])),
                              int(view.get("rounds", 4)), "a colour explodes")

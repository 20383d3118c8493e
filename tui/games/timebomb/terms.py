"""What a Time Bomb table shows, in a newcomer's words (`tui.games.terms`), and how each team
wins. Évolution's terms take the ones it shares from here."""

from __future__ import annotations

from typing import Any, Mapping

from tui.games.terms import Term

SHERLOCK = Term("☂ Sherlock", "Sherlock's team: wins by cutting every ◆ Defusing wire",
                forms=("☂", "Sherlock's team", "Sherlock's", "Sherlock"))
MORIARTY = Term("♠ Moriarty", "Moriarty's team: wins if the four rounds run out, or on its "
                "explosion; its players do not know each other",
                forms=("♠", "Moriarty's team", "Moriarty's", "Moriarty"))
DEFUSING = Term("◆ Defusing", "a Defusing wire: cut every one and Sherlock's team wins",
                forms=("◆", "Defusing"))
WIRE_CUTTER = Term("✂ Wire Cutter", "its holder cuts a face-down wire of another player, "
                   "who takes the Wire Cutter next", forms=("✂", "Wire Cutter", "Cutter"))
WIRE = Term("wire", "a card in front of its holder, face down: five each at the first deal",
            forms=("wire", "wires", "Wires"))
FACE_DOWN = Term("▮ face-down wire", "a wire nobody has seen since the deal, not even its "
                 "holder: wires are shuffled face down", forms=("▮", "face-down", "face down"))
CLAIM = Term("claim", "what a player says they hold, in public: a bluff is allowed, and "
             "nobody checks it", forms=("claim", "claims", "claimed", "claim?"))
BLUFF = Term("bluff", "a claim that is not true: part of the game",
             forms=("bluff", "bluffs", "bluffing", "(bluffing"))
NO_CLAIM = Term("—", "no claim this round", forms=("—",))
TRUE = Term("← true", "the claim that says exactly what you hold", forms=("←",))
ROUND = Term("Round 2/4", "the round being played, of the four; each deals one wire fewer",
             pattern=r"\bRound \d+/\d+\b", forms=("Round", "round", "rounds"))
CUTS_LEFT = Term("cuts left", "the cuts left in this round: as many as players in all",
                 forms=("cuts left", "cut left"))
FOUND = Term("◆ 2/8 found", "the Defusing wires cut so far, of all in the game",
             pattern=r"◆ ?(Defusing )?\d+/\d+( found)?")
PAST = Term("R1", "round 1: in a past round's line, what each player claimed and the wires "
            "cut from them then; R1·3 is round 1's third cut", pattern=r"\bR\d+(·\s?\d+)?\b")
REVEALED = Term("revealed", "the wires cut from a player so far, face up",
                forms=("revealed", "Revealed wires", "Revealed"))
SET_ASIDE = Term("set aside", "a role card nobody got: at 4 and 7 players one is set aside, "
                 "so the teams' sizes stay unsure", forms=("set aside",))
DEAL = Term("dealt", "the wires still face down, shuffled and dealt again at a round's start",
            forms=("dealt", "deal", "dealt:"))

TERMS = (
    SHERLOCK, MORIARTY, DEFUSING,
    Term("✹ Bomb", "the Bomb: whoever cuts it, Moriarty's team wins at once",
         forms=("✹", "Bomb", "Bomb hidden", "Bomb CUT", "CUT")),
    Term("○ Safe", "a Safe wire: nothing happens when it is cut", forms=("○", "Safe")),
    Term("1◆ no ✹", "a claim in short: one Defusing wire and no Bomb (or ✹ Bomb: the Bomb)",
         pattern=r"\d◆ (no ✹|✹ Bomb)"),
    WIRE, WIRE_CUTTER, FACE_DOWN, CLAIM, BLUFF, NO_CLAIM, TRUE, ROUND, CUTS_LEFT, FOUND,
    PAST, REVEALED, SET_ASIDE, DEAL,
)


def goal(view: Mapping[str, Any]) -> str:
    """How the viewer's team wins, for their own panel."""
    return team_goal(view.get("role"), int(view.get("defusing_total", view["players"])),
                     int(view.get("rounds", 4)), "the ✹ Bomb is cut")


def team_goal(team: str | None, defusing: int, rounds: int, explosion: str) -> str:
    """A team's way to win in Time Bomb and Évolution, which differ only in what explodes."""
    if team == "sherlock":
        return f"Win: cut all {defusing} ◆ before round {rounds} ends"
    if team == "moriarty":
        return f"Win: {explosion} or round {rounds} ends"
    return ""

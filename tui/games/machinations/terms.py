"""What a Moriarty's Machinations table shows, in a newcomer's words (`tui.games.terms`), and
how each role wins (RULES.md, MM-32 to MM-35)."""

from __future__ import annotations

from typing import Any, Mapping

from engine.machinations.roles import (
    BRUTUS,
    COPS,
    IRENE,
    JACK,
    JUDGE,
    LESTRADE,
    MORAN,
    MORIARTY,
    MYCROFT,
    ROLES,
    SHERLOCK,
    WATSON,
    role_name,
)
from tui.games.terms import Term

ROLE_POWERS = {
    MORIARTY: "leads the Robbers; Lestrade must arrest him",
    MORAN: "a Robber who knows Moriarty",
    JUDGE: "a Robber who knows Brutus (9-10 players)",
    JACK: "a Robber; murders one player at the end (6+ players)",
    BRUTUS: "a Robber; may play Take the Fall once",
    SHERLOCK: "a Cop; Jack's target",
    LESTRADE: "a Cop; arrests one player at the end",
    WATSON: "a Cop who knows Sherlock (7+ players)",
    MYCROFT: "a Cop who knows Brutus",
    IRENE: "plays for herself; knows Sherlock",
}
"""Each role in a line (RULES.md, MM-1 to MM-9)."""


def role_forms(role: str) -> tuple[str, ...]:
    """Every way a screen names a role: whole, in its last word, its short name."""
    from tui.games.machinations.model import SHORT_ROLE_NAMES

    full = role_name(role)
    return tuple(dict.fromkeys((full, SHORT_ROLE_NAMES[role], full.split()[-1])))


TERMS = (
    *(Term(role_name(role), ROLE_POWERS[role], forms=role_forms(role)) for role in ROLES),
    Term("Robbers", "Moriarty's gang: want heists to succeed and Sherlock dead",
         forms=("Robbers", "(Robbers)", "Robbers'", "Robber")),
    Term("Cops", "want heists foiled and Moriarty arrested", forms=("Cops", "(Cops)", "Cop")),
    Term("her own", "Irene Adler's team: herself", forms=("her own",)),
    Term("◇", "what you learned at the start: this player's role, or one of two",
         forms=("◇",)),
    Term("heist", "a crew's job: each crew member plays a card face down",
         forms=("heist", "heists", "Heists", "Heist")),
    Term("#1", "a heist's number", pattern=r"#\d+"),
    Term("crew", "the players who go on a heist", forms=("crew", "crews", "crew,")),
    Term("crew sizes", "the crew sizes a player has been on: nobody goes on two heists with "
         "the same crew size; none means none yet", forms=("crew sizes", "sizes", "none")),
    Term("Proposer", "the player who proposes the next crew; ★ marks them",
         forms=("Proposer", "proposer", "★")),
    Term("proposal", "a crew put to the vote",
         forms=("proposal", "proposals", "propose", "proposes", "proposed")),
    Term("■", "a player in the crew you are picking", forms=("■",)),
    Term("Approve", "a vote for the crew: more than half approving sends it on the heist",
         forms=("Approve", "approved", "approve", "yes")),
    Term("Object", "a vote against the crew: a tie fails too", forms=("Object", "object")),
    Term("failed 1/10", "proposals failed in a row, of the number that ends the game for the "
         "Cops", pattern=r"failed \d+/\d+", forms=("failed", "fails")),
    Term("goal 3", "the score that ends the heists and starts the accusations",
         pattern=r"goal \d+"),
    Term("Abet", "a heist card: helps the heist", forms=("Abet",)),
    Term("Foil", "a heist card: the heist goes to the Cops",
         forms=("Foil", "Foils", "foil", "foiled")),
    Term("Take the Fall", "Brutus's card, once: cancels one Foil",
         forms=("Take the Fall",)),
    Term("→ Cops +1", "the heist scored for that team: the first heist 1 point, later ones 2",
         pattern=r"→ (Cops|Robbers) \+\d"),
    Term("now", "where each player is in a secret choice: … to choose, then voted, played "
         "or chose", forms=("now", "…", "voted", "played", "chose")),
    Term("accusation", "at the end, Lestrade arrests and Jack murders, in secret",
         forms=("accusation", "accusations", "arrest", "arrests", "arrested", "murder",
                "murders", "murdered")),
    Term("Roles in play", "the roles dealt at this many players", forms=("Roles in play",)),
)


def goal(view: Mapping[str, Any]) -> str:
    """How the viewer's role wins, for their own panel (RULES.md, "Who wins")."""
    role = view.get("role")
    if role is None:
        return ""
    if role == IRENE:
        return ("Win: Moriarty arrested, Sherlock alive; or Robbers ahead, neither leader "
                "accused")
    if role == JACK and view["players"] >= 6:
        return "Win: Robbers ahead, or murder Sherlock"
    if role == MORIARTY:
        return "Win: Robbers ahead on points; evade arrest"
    if role == SHERLOCK:
        return "Win: Cops ahead on points; escape Jack"
    if role == LESTRADE:
        return "Win: Cops ahead, or arrest Moriarty"
    if ROLES[role][2] == COPS:
        return "Win: Cops ahead on points; Moriarty arrested"
    return "Win: Robbers ahead on points; Moriarty free"

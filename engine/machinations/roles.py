"""The Moriarty's Machinations role catalogue: names, teams, compositions, and who learns what.

Static facts only (rules MM-1, MM-5, MM-6, MM-9), so the TUI and the bots may import them
without touching a game state.
"""

from __future__ import annotations

from typing import Final

SHERLOCK: Final = "sherlock"
MORIARTY: Final = "moriarty"
LESTRADE: Final = "lestrade"
MORAN: Final = "moran"
JUDGE: Final = "judge"
JACK: Final = "jack"
IRENE: Final = "irene"
WATSON: Final = "watson"
BRUTUS: Final = "brutus"
MYCROFT: Final = "mycroft"

ROBBERS: Final = "robbers"
COPS: Final = "cops"
NEUTRAL: Final = "neutral"

TEAM_NAMES: Final = {ROBBERS: "Robbers", COPS: "Cops", NEUTRAL: "Irene Adler"}

# MM-1 and MM-5, in the order of the role table.
ROLES: Final[dict[str, tuple[str, str, str]]] = {
    SHERLOCK: ("Sherlock Holmes", "The Great Detective", COPS),
    MORIARTY: ("Professor Moriarty", "The Criminal Mastermind", ROBBERS),
    LESTRADE: ("Inspector Lestrade", "The Policeman", COPS),
    MORAN: ("Colonel Sebastian Moran", "The Bodyguard", ROBBERS),
    JUDGE: ("Judge Grede", "The Corrupt Magistrate", ROBBERS),
    JACK: ("Jack the Ripper", "The Killer", ROBBERS),
    IRENE: ("Irene Adler", "The Love Interest", NEUTRAL),
    WATSON: ("Doctor Watson", "The Loyal Friend", COPS),
    BRUTUS: ("Brutus", "The Thug", ROBBERS),
    MYCROFT: ("Mycroft Holmes", "The Government Agent", COPS),
}

# MM-6: the roles dealt at each player count (MM-6 Decision: the Judge is the fifth role at 5).
COMPOSITIONS: Final[dict[int, tuple[str, ...]]] = {
    5: (MORIARTY, JUDGE, JACK, LESTRADE, WATSON),
    6: (MORIARTY, MORAN, JACK, SHERLOCK, LESTRADE, IRENE),
    7: (MORIARTY, MORAN, JACK, BRUTUS, SHERLOCK, LESTRADE, WATSON),
    8: (MORIARTY, MORAN, JACK, BRUTUS, SHERLOCK, LESTRADE, WATSON, IRENE),
    9: (MORIARTY, MORAN, JUDGE, JACK, BRUTUS, SHERLOCK, LESTRADE, WATSON, MYCROFT),
    10: (MORIARTY, MORAN, JUDGE, JACK, BRUTUS, SHERLOCK, LESTRADE, WATSON, MYCROFT, IRENE),
}

ID: Final = "id"
PAIR: Final = "pair"


def learns(role: str, players: int) -> tuple[tuple[str, ...], ...]:
    """MM-9: what `role` learns at this count, as steps: `(ID, role)` or `(PAIR, a, b)`."""
    if role == MORIARTY:
        return ((ID, LESTRADE),) if players == 6 else ((PAIR, LESTRADE, WATSON),)
    if role == SHERLOCK:
        extra = ((ID, WATSON), (ID, BRUTUS)) if players >= 7 else ()
        return ((ID, LESTRADE), *extra)
    if role == WATSON:
        return ((ID, SHERLOCK),) if players >= 7 else ()
    if role == MORAN:
        return ((ID, MORIARTY),)
    if role in (JUDGE, MYCROFT):
        return ((ID, BRUTUS),) if players >= 9 else ()
    if role == IRENE:
        return ((ID, SHERLOCK),)
    return ()


def role_name(role: str) -> str:
    return ROLES[role][0]


def team_of(role: str) -> str:
    return ROLES[role][2]


def threshold(players: int) -> int:
    """MM-25: the score that triggers the accusation phase."""
    return players - 2

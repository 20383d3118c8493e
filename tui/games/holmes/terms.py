"""What a Holmes table shows, in a newcomer's words (`tui.games.terms`), and how each side
wins (RULES.md, HO-38 to HO-40)."""

from __future__ import annotations

from typing import Any, Mapping

from engine.holmes.catalogue import CHARACTER_NAMES, CLUE_NAMES, COPIES, SKILLS, VALUED
from tui.games.holmes.model import short_name
from tui.games.terms import Term


def character_forms(character: str) -> tuple[str, ...]:
    """Every way a screen names a character: whole, short, by its last word, possessive."""
    full, short = CHARACTER_NAMES[character], short_name(character)
    names = (full, short, full.split()[-1], short.split()[-1])
    return tuple(dict.fromkeys((*names, *(f"{name}'s" for name in names))))


CLUES = tuple(
    Term(CLUE_NAMES[clue],
         f"a clue type worth {COPIES[clue]}: it has {COPIES[clue]} copies; the majority scores "
         f"{COPIES[clue]} minus the other's count, and all {COPIES[clue]} score 3 more",
         forms=(CLUE_NAMES[clue], CLUE_NAMES[clue] + "s"))
    for clue in VALUED
)

TERMS = (
    Term("IM", "investigation markers: the currency that pays for characters' skills; 24 "
         "in all, the rest in the reserve", forms=("IM", "IM reserve", "investigation markers")),
    Term("~15 points", "the score so far from the visible clues only: hidden clues count at "
         "the end", pattern=r"~-?\d+( points?)?", forms=("points",)),
    Term("Button 1/7", "clues of a type held, of its copies: a type's value is its copies",
         pattern=r"\b\d+/\d+\b"),
    *CLUES,
    Term("Map Fragment", "5 copies; 1 scores -1, 2 score +1, 3 +3, 4 +6, all 5 +10",
         forms=("Map Fragment", "Map Fragments", "Fragment", "Fragments", "Map")),
    Term("Wildcard", "counts as one more card of the type it is put on; -3 if left unplaced",
         forms=("Wildcard", "Wildcards", "free Wildcards", "+W", "(-3)")),
    Term("clue", "a card of the game: the clue types score by majority at the end",
         forms=("clue", "clues")),
    Term("characters", "London's people: a marker on one uses its skill; Watson, Hudson and "
         "Lestrade stay all week, one more arrives each day",
         forms=("characters", "Characters", "character", "arrives", "arrive")),
    Term("hidden clues", "face-down clues: only their owner knows them; they join their types "
         "at the end", forms=("hidden clues", "hidden", "were hidden")),
    Term("the line", "4 face-up clues in the middle, which skills take, swap or discard",
         forms=("The line", "the line", "line", "slot")),
    Term("deck", "the clues still to come, face down", forms=("deck",)),
    Term("discard", "discarded clues, face down: they become the deck when it runs out",
         forms=("discard", "discards", "discarded")),
    Term("▲ standing", "a marker standing on a character: it may move today",
         forms=("▲", "standing")),
    Term("▬ lying", "a marker lying down: it stays until the next day stands it up",
         forms=("▬", "lying")),
    Term("▲S ▬M", "a marker of Sherlock (S) or Mycroft (M)", pattern=r"[▲▬][SM12]"),
    Term("marker", "an action marker: 3 each, placed on characters to use their skills",
         forms=("marker", "markers")),
    Term("spent", "a character holding both players' markers at the end of a day: nobody may "
         "go there tomorrow", forms=("spent",)),
    Term("Sherlock", "one of the two sides: both play alike", forms=("Sherlock",)),
    Term("Mycroft", "one of the two sides: both play alike", forms=("Mycroft",)),
    Term("Day 2/7", "the day being played, of the seven", pattern=r"\bDay \d+(/\d+| of \d+)?"),
    Term("characters left", "characters still to arrive, one a day", forms=("characters left",)),
    Term("reserve card", "the option that lets its holder set a line clue aside for later",
         forms=("reserve card", "reserved", "reserve")),
    Term("villains", "Moriarty and Moran, who may arrive instead of a character",
         forms=("villains", "villain", "James Moriarty", "Sebastian Moran", "Moriarty",
                "Moran")),
    Term("skill", "what a character does for the player who lands there, at its cost",
         forms=("skill", "skills")),
    *(Term(CHARACTER_NAMES[c], f"{SKILLS[c][0]}: {SKILLS[c][1]}", forms=character_forms(c))
      for c in CHARACTER_NAMES),
    *(Term(SKILLS[c][0], f"{CHARACTER_NAMES[c]}'s skill: {SKILLS[c][1]}",
           forms=(SKILLS[c][0],))
      for c in CHARACTER_NAMES if SKILLS[c][0] != "Villain"),
    Term("majority", "more cards of a type than the opponent: it scores",
         forms=("majority", "majorities")),
    Term("-3 for", "points taken off at the end, for what the line says", pattern=r"-\d+ for"),
)


def goal(view: Mapping[str, Any]) -> str:
    """How the viewer wins, for their own area: both sides alike (HO-38, HO-39). Short: the
    area is 20 columns wide at 80x24, and the status line counts the days."""
    if not isinstance(view.get("viewer"), int) or view["viewer"] < 0:
        return ""
    return "Win: most points"

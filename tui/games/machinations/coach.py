"""The coach at a Moriarty's Machinations table (`tui.coach`): from the seat's view only, what
each proposal, vote, heist and accusation did to the scores and to the seat's team, and what
the seat's choice now means."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.machinations.cards import CARD_NAMES
from engine.machinations.roles import (
    COPS,
    IRENE,
    JACK,
    LESTRADE,
    ROBBERS,
    TEAM_NAMES,
    role_name,
    team_of,
)
from tui.coach import Entry, entry
from tui.games.machinations.terms import ROLE_POWERS, goal


def team(view: Mapping[str, Any]) -> str | None:
    role = view.get("role")
    return team_of(role) if role else None


def intro(view: Mapping[str, Any], names: Sequence[str]) -> list[Entry]:
    role = view.get("role")
    if role is None:
        return []
    known = (" What you learned at the start shows as ◇ in the players' rows."
             if view.get("knowledge") else "")
    return [entry(f"You are {role_name(role)}: {ROLE_POWERS[role]}. To win: "
                  f"{goal(view).removeprefix('Win: ')}.{known} "
                  "Each round the Proposer picks a crew, everyone votes, and the crew plays "
                  "cards face down: one Foil gives the heist to the Cops.", private=True)]


def streak_before(events: Sequence[Mapping[str, Any]], index: int) -> int:
    """Proposals failed in a row up to the event at `index` (a heist ends a streak)."""
    streak = 0
    for event in events[:index + 1]:
        if event.get("type") == "heist":
            streak = 0
        elif event.get("type") == "votes" and not event.get("approved"):
            streak += 1
    return streak


def for_team(view: Mapping[str, Any], scoring: str) -> list[Entry]:
    """What a heist scoring for `scoring` is to the viewer's role: a line of its own, private,
    as it tells the viewer's team."""
    if view.get("role") == IRENE:
        return [entry("Irene needs the Robbers ahead.", private=True)] if scoring == COPS else []
    mine = team(view)
    if mine is None:
        return []
    return [entry("Good for your team." if mine == scoring else "Bad for your team.",
                  private=True)]


def event_lines(view: Mapping[str, Any], index: int, names: Sequence[str]) -> list[Entry]:
    events = view["events"]
    event = events[index]
    kind = event.get("type")
    players = int(view["players"])
    if kind == "proposal":
        crew = event.get("crew") or []
        return [entry(f"A crew of {len(crew)}: nobody goes on two crews of the same size. "
                      "Approve if you trust it; Object if a Cop may foil it. "
                      f"{players} failed proposals in a row end the game for the Cops "
                      f"({streak_before(events, index)} so far).")]
    if kind == "votes":
        if event.get("approved"):
            return [entry("The crew goes: each plays a card face down. One Foil gives the "
                          "heist to the Cops, and nobody ever learns who played it.")]
        return [entry(f"It failed: {streak_before(events, index)} of {players} in a row. "
                      "The next player proposes.")]
    if kind == "heist":
        cards, crew = event.get("cards") or {}, event.get("seats") or []
        scores = event.get("scores") or {}
        goal_score = int(view.get("threshold", players - 2))
        foils = int(cards.get("foil", 0))
        who = (f" {foils} Foil on a crew of {len(crew)}: a Cop, or someone who wants it to "
               "look so, was on it." if foils else "")
        return [entry(f"The {TEAM_NAMES[event['team']]} score {event['points']}: Cops "
                      f"{scores.get(COPS, 0)}, Robbers {scores.get(ROBBERS, 0)}; at "
                      f"{goal_score} the accusations begin.{who}"),
                *for_team(view, event["team"])]
    if kind == "accusation":
        return [entry("The heists are over. Lestrade arrests one player and Jack murders one, "
                      "in secret: talk first. Who acted like Moriarty? Who like Sherlock?")]
    if kind == "reveal":
        return [entry(f"{{0}} is {role_name(event['role'])}, for all to see.",
                      event["seats"][:1])]
    return []


def choice_lines(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                 names: Sequence[str]) -> list[Entry]:
    kind = legal[0].get("type") if legal else None
    mine = team(view)
    if kind == "propose":
        advice = ("sit on it yourself, so you can foil it" if mine == COPS
                  else "take players you trust: a Cop on it may foil it")
        return [entry("You propose: pick 2 or more players (a digit or the arrows, then "
                      f"Enter), then Ctrl+S. As {role_name(view['role'])}, {advice}.")]
    if kind == "vote":
        if any(e.get("type") == "votes" for e in view.get("events", ())):
            return [entry(f"Your vote: {view.get('streak', 0)} of {view['players']} failed "
                          "in a row so far.")]
        return [entry("Your vote stays secret until all have voted: Approve sends the crew, "
                      "Object stops it. Look at who is on it, and how their crews went.")]
    if kind == "play":
        if mine == COPS:
            advice = "a Foil scores for your team, but the fewer on the crew, the surer they know"
        else:
            advice = "Abet helps the heist; a Foil would give it to the Cops"
        return [entry(f"Your card, face down: {advice}.")]
    if kind == "accuse":
        role = view.get("role")
        if role == LESTRADE:
            what = "Arrest the player you think is Moriarty: if right, the Cops win"
        elif role == JACK and int(view["players"]) >= 6:
            what = "Murder the player you think is Sherlock: if right, the Robbers win"
        else:
            what = "Name anyone: only Lestrade's and Jack's choices count, and yours is never shown"
        return [entry(f"{what}. Pick a player, then Enter.")]
    return []


def action_words(action: Mapping[str, Any], view: Mapping[str, Any],
                 names: Sequence[str]) -> str:
    """A move in words, for a hint."""
    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else f"seat {seat + 1}"

    kind = action.get("type")
    if kind == "propose":
        return "propose the crew " + ", ".join(name(s) for s in action["crew"])
    if kind == "vote":
        return "vote Approve" if action["approve"] else "vote Object"
    if kind == "play":
        return f"play {CARD_NAMES[action['card']]}"
    if kind == "accuse":
        return f"name {name(action['target'])}"
    return str(kind)

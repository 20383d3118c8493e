"""The coach at a Holmes table (`tui.coach`): from the seat's view only, what each day, each
arrival and each move did to the majorities and to the seat, and what the seat's choice now
means (RULES.md, HO-14 to HO-39)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.holmes.catalogue import CLUE_NAMES, MAP, SKILLS, VALUE
from tui.coach import Entry, entry
from tui.games.holmes.model import character_word, describe_action


def intro(view: Mapping[str, Any], names: Sequence[str]) -> list[Entry]:
    return [entry(f"Over {view['days']} days you and your opponent put markers on London's "
                  "characters and use their skills, paying IM, to gather clues. At the end "
                  "each clue type's majority scores its value minus the other's count: most "
                  "points wins. The points shown beside your IM count the visible clues only.")]


def shown(view: Mapping[str, Any], seat: int, clue: str) -> int:
    """The visible clues of `clue` that `seat` holds now, its Wildcard counted."""
    area = view["areas"][seat]
    return int(area["clues"].get(clue, 0)) + (clue in area["wildcards"])


def majority(view: Mapping[str, Any], actor: int, clue: str) -> str:
    """Where the majority of `clue` stands now, from the viewer's side."""
    me = view["viewer"]
    other = 1 - me
    mine, theirs = shown(view, me, clue), shown(view, other, clue)
    name = CLUE_NAMES[clue]
    if clue == MAP:
        return f"Map Fragments score by how many one holds: you show {mine}, they show {theirs}"
    lead = ("yours" if mine > theirs else "theirs" if theirs > mine else "nobody's, a tie")
    return (f"{name} majority (worth {VALUE[clue]} minus the other's count) is {lead} now: "
            f"you show {mine}, they show {theirs}")


def event_lines(view: Mapping[str, Any], index: int, names: Sequence[str]) -> list[Entry]:
    event = view["events"][index]
    kind = event.get("type")
    if kind == "day" and int(event.get("day", 1)) > 1:
        return [entry(f"Day {event['day']}: every marker stands up again. Each turn you move "
                      "one standing marker to another character, and may use its skill.")]
    if kind == "character":
        character = event["character"]
        skill, text = SKILLS[character]
        return [entry(f"{character_word(character)} arrives: {skill}: {text}")]
    if kind == "villain":
        character = event["character"]
        return [entry(f"{character_word(character)} appears: {SKILLS[character][1]}")]
    if kind == "spent":
        spent = ", ".join(character_word(c) for c in event.get("spent", ()))
        return [entry(f"{spent}: a marker of each player there at the day's end, so nobody "
                      "may go there tomorrow.")]
    if kind in ("take", "swap") and event.get("card") in (*VALUE, MAP):
        actor = event["seats"][0]
        return [entry(f"{majority(view, actor, event['card'])}.")]
    if kind == "steal" and event["seats"][1:] == [view["viewer"]]:
        return [entry("{0} stole your " + CLUE_NAMES.get(event["card"], "clue") + " into their "
                      "hidden clues: it counts for them at the end, unseen.",
                      event["seats"][:1])]
    return []


def day_score(view: Mapping[str, Any]) -> str:
    """Where the visible clues leave the two players, with the IM each holds."""
    me = view["viewer"]
    mine, theirs = view["areas"][me], view["areas"][1 - me]
    leads = [CLUE_NAMES[c] for c in VALUE if shown(view, me, c) > shown(view, 1 - me, c)]
    trails = [CLUE_NAMES[c] for c in VALUE if shown(view, me, c) < shown(view, 1 - me, c)]
    return (f"you lead {', '.join(leads) or 'no clue type'}, they lead "
            f"{', '.join(trails) or 'none'}; IM: you {mine['im']}, they {theirs['im']}")


def choice_lines(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                 names: Sequence[str]) -> list[Entry]:
    pending = view.get("pending") or {}
    kind = pending.get("kind")
    if kind == "move":
        me = view["viewer"]
        moved = sum(1 for e in view.get("events", ()) if e.get("type") in ("place", "move")
                    and e.get("seats", [None])[:1] == [me])
        if moved:
            return [] if moved % 3 else [entry(f"Day {view['day']}: {day_score(view)}.")]
        return [entry("Your turn. Place a marker on a character, not where a marker of yours "
                      "is nor a spent one; then you may use its skill, paying its cost in "
                      "full. Enter on a character, or Ctrl+K, lists your choices with their "
                      "costs.")]
    if kind == "skill" and not pending.get("taken"):
        character = pending.get("character") or ""
        skill, text = SKILLS.get(character, ("", ""))
        return [entry(f"{character_word(character)}'s {skill}: {text} Use it if what it gains "
                      "is worth its cost, or decline: you pay nothing then.")]
    if kind == "buy":
        return [entry("Your opponent took a clue at Von Kramm: you may pay 1 IM for a hidden "
                      "clue, or keep your IM.")]
    if kind == "assign":
        return [entry("A Wildcard counts as one more card of the type you put it on; left "
                      "unplaced at the end it costs 3 points.")]
    return []


def action_words(action: Mapping[str, Any], view: Mapping[str, Any],
                 names: Sequence[str]) -> str:
    """A move in words, for a hint: the dialog's own words for it."""
    words = describe_action(action, view)
    return words[:1].lower() + words[1:]

"""The coach at a Time Bomb Évolution table (`tui.coach`): Time Bomb's, with what each colour's
cut did, and in the Variante each power (RULES.md, EV-13 to EV-21), from the seat's view."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.timebomb.cards import colour_name
from tui.coach import Entry, entry
from tui.games.timebomb import coach as timebomb
from tui.games.timebomb.coach import count_before, cuts_left, for_team

TEAMS = timebomb.TEAMS


def threshold(view: Mapping[str, Any], colour: str) -> int:
    return int((view.get("thresholds") or {}).get(colour, 4))


def intro(view: Mapping[str, Any], names: Sequence[str]) -> list[Entry]:
    role, total = view.get("role"), int(view.get("defusing_total", view["players"]))
    counts = "4, Green 3" if view.get("variante") else "4"
    if role == "sherlock":
        why = (f"Your team wins by cutting all {total} ◆ Defusing wires before round 4 ends; a "
               f"colour explodes at its count ({counts}) unless a ◆ lies on it, and loses it "
               "for you")
    else:
        why = (f"Your team wins if a colour explodes (at {counts} cut) or round 4 ends first: "
               "keep the Defusing wires hidden, and bluff")
    powers = " In the Variante each colour has a power: the Bombs panel says it." \
        if view.get("variante") else ""
    return [entry(f"You are on {TEAMS.get(role, 'a team')}. {why}. Nobody knows who is on "
                  f"which team, and claims may be bluffs.{powers}", private=True),
            *hand_lines(view)]


def hand_lines(view: Mapping[str, Any]) -> list[Entry]:
    """What the seat's wires mean for its claim, as a deal shows them."""
    hand = view.get("hand") or {}
    held = ", ".join(f"{n} {colour_name(c) if c != 'defusing' else '◆'}"
                     for c, n in hand.items() if n) or "nothing"
    if view.get("role") == "sherlock":
        advice = "claim your ◆ truly, and the colour you hold most"
    else:
        advice = "as Moriarty, your claim may bluff: a ◆ claimed draws cuts to your bombs"
    return [entry(f"You hold {held}: {advice}.", private=True)]


def event_lines(view: Mapping[str, Any], index: int, names: Sequence[str]) -> list[Entry]:
    events = view["events"]
    event = events[index]
    kind = event.get("type")
    if kind == "hand":
        return hand_lines({**view, "hand": event.get("hand") or {}})
    if kind == "cut" and event.get("wire") != "defusing":
        return colour_cut(view, events, index)
    if kind == "cut":
        return timebomb.cut_lines(view, events, index)
    if kind == "defuse":
        colour = colour_name(event["colour"])
        return [entry(f"{{0}} laid ◆{event['wire']} on {colour}: {colour} can no longer "
                      "explode.", event["seats"][:1]), *for_team(view, "sherlock")]
    if kind == "set_apart":
        return [entry(f"No colour could take ◆{event['wire']}: it is set apart, and still "
                      "counts for Sherlock's team.")]
    if kind == "move_apart":
        colour = colour_name(event["colour"])
        return [entry(f"The Blue moved ◆{event['wire']} off {colour}: {colour} is armed again "
                      f"and explodes at {threshold(view, event['colour'])} cut."),
                *for_team(view, "moriarty")]
    if kind == "draw_number":
        return [entry("The Number card names {0}: the next cut must take one of their "
                      "wires.", (event["designated"],))]
    if kind == "round4_length":
        return [entry(f"The Orange bombs cut so far leave round 4 only {event['length']} "
                      "cuts."), *for_team(view, "moriarty")]
    return timebomb.event_lines(view, index, names)


def colour_cut(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
               index: int) -> list[Entry]:
    event = events[index]
    colour, target = event["wire"], event["seats"][1]
    out = count_before(events, index, "cut", wire=colour)
    limit = threshold(view, colour)
    defused = False
    for earlier in events[:index]:  # a wire laid on the colour, unless a Blue moved it off
        if earlier.get("colour") == colour and earlier.get("type") in ("defuse", "move_apart"):
            defused = earlier["type"] == "defuse"
    name = colour_name(colour)
    if out >= limit and not defused:
        return []  # it exploded: the game's own line says so
    if defused:
        state = f"{name} {out}/{limit}, defused: it cannot explode"
    elif out + 1 == limit:
        state = f"{name} {out}/{limit}: one more {name} explodes"
    else:
        state = f"{name} {out}/{limit}: it explodes at {limit}"
    if view.get("variante") and colour == "pink":
        state += "; a Pink cut next explodes"
    return [entry(f"{state}. {cuts_left(view, events, index)} cuts left in the game; {{0}} "
                  "holds the ✂ now.", (target,))]


def choice_lines(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                 names: Sequence[str]) -> list[Entry]:
    kinds = {action.get("type") for action in legal}
    if "defuse" in kinds:
        return [entry("Your ◆ goes on a colour that has a card out: that colour can no longer "
                      "explode. Sherlock's team wants the colour nearest its count.")]
    if "move_apart" in kinds:
        return [entry("Your Blue moves one ◆ apart: its colour is armed again, and explodes at "
                      "once if it already has its count.")]
    if "draw_number" in kinds:
        return [entry("Your Red makes you draw a Number card: it names whose wire the next "
                      "cut takes.")]
    if "cut" not in kinds:
        return []
    if timebomb.cut_before(view):
        near = [colour_name(c) for c in view.get("colours", ())
                if c not in (view.get("defused") or {})
                and (view.get("revealed_counts") or {}).get(c, 0) + 1 >= threshold(view, c)]
        warn = f"; one more {' or '.join(near)} explodes" if near else ""
        return [entry(f"Your cut: {timebomb.still_to_find(view)}{warn}.")]
    if view.get("role") == "sherlock":
        return [entry("Your cut: pick another player, then a wire. A ◆ brings your team "
                      "closer; a colour's last card explodes (⚠ marks those one card away).")]
    return [entry("Your cut: pick another player, then a wire. For your team an explosion "
                  "wins (⚠: one card away), and a ◆ helps Sherlock's team.")]


def action_words(action: Mapping[str, Any], view: Mapping[str, Any],
                 names: Sequence[str]) -> str:
    """A move in words, for a hint."""
    kind = action.get("type")
    if kind == "defuse":
        return f"lay the ◆ on {colour_name(action['colour'])}"
    if kind == "move_apart":
        return f"move the ◆ off {colour_name(action['colour'])}"
    if kind == "draw_number":
        return "draw the Number card"
    if kind == "claim":
        from tui.games.timebomb_evolution.model import describe_claim

        return "claim " + describe_claim(action)
    return timebomb.action_words(action, view, names)

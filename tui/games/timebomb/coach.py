"""The coach at a Time Bomb table (`tui.coach`): from the seat's view only, what each deal and
each cut did to the game and to the seat's team, and what the seat's cut now means. Évolution
builds on these, with its colours."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from tui.coach import Entry, entry

TEAMS = {"sherlock": "☂ Sherlock's team", "moriarty": "♠ Moriarty's team"}


def count_before(events: Sequence[Mapping[str, Any]], index: int, kind: str,
                 **fields: Any) -> int:
    """How many events of `kind` (with `fields`) the log holds up to `index`, included."""
    return sum(1 for event in events[:index + 1] if event.get("type") == kind
               and all(event.get(k) == v for k, v in fields.items()))


def cuts_left(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], index: int) -> int:
    """The cuts the game has left after the event at `index`: a round is as many cuts as
    players (TB-9), four rounds in all; Évolution's Oranges may shorten round 4 (EV-21)."""
    players = int(view["players"])
    total = (int(view.get("rounds", 4)) - 1) * players + int(view.get("round4_length", players))
    return total - count_before(events, index, "cut")


def for_team(view: Mapping[str, Any], good_for: str) -> list[Entry]:
    """What a move good for `good_for` is to the viewer's team: a line of its own, private,
    as it tells the viewer's team."""
    role = view.get("role")
    if role not in TEAMS:
        return []
    return [entry("Good for your team." if role == good_for else "Bad for your team.",
                  private=True)]


def intro(view: Mapping[str, Any], names: Sequence[str]) -> list[Entry]:
    role, total = view.get("role"), int(view.get("defusing_total", view["players"]))
    if role == "sherlock":
        why = (f"Your team wins by cutting all {total} ◆ Defusing wires before round 4 ends; "
               "whoever cuts the ✹ Bomb loses it for you at once")
    else:
        why = ("Your team wins if the ✹ Bomb is cut or round 4 ends first: keep the "
               "Defusing wires hidden, and bluff")
    return [entry(f"You are on {TEAMS.get(role, 'a team')}. {why}. Nobody knows who is on "
                  "which team, and claims may be bluffs.", private=True), *hand_lines(view)]


def hand_lines(view: Mapping[str, Any]) -> list[Entry]:
    """What the seat's wires mean for its claim, as a deal shows them."""
    hand = view.get("hand") or {}
    bomb = "the ✹ Bomb" if hand.get("bomb") else "no ✹ Bomb"
    held = f"{hand.get('defusing', 0)} ◆ and {bomb}"
    return [entry(f"You hold {held}: {hand_advice(view, hand)}.", private=True)]


def hand_advice(view: Mapping[str, Any], hand: Mapping[str, int]) -> str:
    """What the wires just seen mean for the seat's claim."""
    if view.get("role") == "sherlock":
        return "say it in your claim (the true one comes first), so your team knows whom to cut"
    if hand.get("bomb"):
        return ("as Moriarty, hide the ✹ Bomb: claim a Defusing wire or two, so that "
                "Sherlock's team cuts you")
    return "as Moriarty, your claim may bluff: nobody checks it"


def event_lines(view: Mapping[str, Any], index: int, names: Sequence[str]) -> list[Entry]:
    events = view["events"]
    event = events[index]
    kind = event.get("type")
    if kind == "hand":
        return hand_lines({**view, "hand": event.get("hand") or {}})
    if kind == "deal" and int(event.get("round", 1)) > 1:
        return [entry(f"Round {event['round']}: the wires still face down were shuffled and "
                      f"dealt again, {event.get('hand_size', '')} each. Nobody knows where "
                      "anything went, not even its holder: new claims, new clues.")]
    if kind == "cut":
        return cut_lines(view, events, index)
    if kind == "claim" and count_before(events, index, "claim") == 1:
        return [entry("{0} claims in public what they hold. A claim may be a bluff: the "
                      "wires cut from {0} will show how true it was.", event["seats"][:1])]
    return []


def cut_lines(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
              index: int) -> list[Entry]:
    event = events[index]
    wire, target = event.get("wire"), event["seats"][1]
    if wire == "defusing":
        found = count_before(events, index, "cut", wire="defusing")
        total = int(view.get("defusing_total", view["players"]))
        if found >= total:
            return []
        return [entry(f"◆ {found} of {total} found: Sherlock's team needs {total - found} "
                      f"more, with {cuts_left(view, events, index)} cuts left in the game. {{0}}"
                      " holds the ✂ now.", (target,)), *for_team(view, "sherlock")]
    if wire == "safe":
        return [entry(f"○ Safe: nothing happens, but a cut is gone "
                      f"({cuts_left(view, events, index)} left in the game). {{0}} holds the "
                      "✂ now.", (target,)), *for_team(view, "moriarty")]
    return []


def cut_before(view: Mapping[str, Any]) -> bool:
    """Whether this seat has cut before in this game: the coach explains a cut once, then
    counts."""
    me = view["viewer"]
    return any(e.get("type") == "cut" and e.get("seats", [None])[:1] == [me]
               for e in view.get("events", ()))


def still_to_find(view: Mapping[str, Any]) -> str:
    """`3 ◆ to find, 12 cuts left in the game`."""
    events = view.get("events", ())
    left = int(view.get("defusing_total", view["players"])) - int(view.get("defusing_found", 0))
    return f"{left} ◆ to find, {cuts_left(view, events, len(events) - 1)} cuts left in the game"


def choice_lines(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                 names: Sequence[str]) -> list[Entry]:
    if not any(action.get("type") == "cut" for action in legal):
        return []
    if cut_before(view):
        return [entry(f"Your cut: {still_to_find(view)}.")]
    if view.get("role") == "sherlock":
        return [entry("Your cut: pick another player, then a wire. A ◆ brings your team "
                      "closer, the ✹ Bomb loses the game: a claim of Defusing wires that the "
                      "cuts have not proved false makes a good pick.")]
    return [entry("Your cut: pick another player, then a wire. For your team the ✹ Bomb wins "
                  "at once and a ◆ helps Sherlock's team: cut those who claim no Defusing "
                  "wire, or whom you think hold the Bomb.")]


def action_words(action: Mapping[str, Any], view: Mapping[str, Any],
                 names: Sequence[str]) -> str:
    """A move in words, for a hint."""
    if action.get("type") == "cut":
        target = action["target"]
        return "cut a wire of " + (names[target] if target < len(names) else f"seat {target + 1}")
    if action.get("type") == "claim":
        from tui.games.timebomb.model import describe_claim

        return "claim " + describe_claim(action)
    return str(action.get("type"))

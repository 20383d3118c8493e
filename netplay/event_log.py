"""The events a client has been told, and the full views it rebuilds from them.

Each `state` the host sends carries only the events its receiver has not had (PROTOCOL.md,
"Events"), and each `replay` step only those after its `first`; an `EventLog` keeps them and
gives every state and step back with its whole view: `view["events"]` holding every event kept,
and `view["events_from"]` the index of the first (a client that joins late gets the last few).
The current game's events and the replay's are kept apart.
"""

from __future__ import annotations

import dataclasses

from netplay.legal import unpack_legal
from netplay.protocol import ReplayStep, State


class EventLog:
    """The events of the current game and of the replay watched, each from its first kept."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        """The current game's events that this client has, from `events_from` on."""
        self.events_from = 0
        self.replay_events: list[dict] = []
        """The same for the replay this client watches (`replay` messages), kept apart."""
        self.replay_events_from = 0
        self.replay_events_of: tuple[str, int | str] | None = None
        """The replay game and eyes `replay_events` are of."""

    def full_state(self, state: State) -> State:
        """`state` with its whole view (the events kept so far plus the new ones) and its
        legal actions unpacked."""
        first, events = state.first, state.events
        if first and first == self.events_from + len(self.events):
            self.events.extend(events)
        else:
            self.events, self.events_from = list(events), first
        view = dict(state.view, events=list(self.events), events_from=self.events_from)
        return dataclasses.replace(state, view=view, legal=unpack_legal(state.legal))

    def full_replay_step(self, step: ReplayStep) -> ReplayStep:
        """`step` with its whole view, its events kept by the same rule as a state's, and,
        for the same game and eyes, the events held before `first` kept (PROTOCOL.md,
        "Replays"): a step back after a tail keeps the list's start."""
        first, events = step.first, step.events
        held_from = self.replay_events_from
        held_to = held_from + len(self.replay_events)
        if (step.game, step.eyes) == self.replay_events_of and held_from <= first <= held_to:
            self.replay_events[first - held_from:] = events
        else:
            self.replay_events, self.replay_events_from = list(events), first
        self.replay_events_of = (step.game, step.eyes)
        view = dict(step.view, events=list(self.replay_events),
                    events_from=self.replay_events_from)
        return dataclasses.replace(step, view=view)

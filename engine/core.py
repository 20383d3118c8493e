"""The game base class every Gaslight game subclasses, and the small value types of the contract.

A game subclass declares its id, player range, options and action schemas, and implements
`to_act`, `legal_actions`, the view hooks (`public_view`, and where the game has secrets
`seat_view`, `reveal_view` and `referee_view`) and one `act_<type>` method per action type. The base class
does the checks every game shares (is the game over, is this a seat, is the action a well-formed
map of a known type with fields of the right types, is it this seat's turn), keeps the history
of applied actions for replay, and keeps the event log with each event's audience.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Final, Iterable, Mapping, NamedTuple, final

if TYPE_CHECKING:
    from engine.catalogue import GameInfo

SPECTATOR = -1
"""The viewer id of anyone watching without a seat: `view(SPECTATOR)` is the public view."""

REFEREE = -2
"""The viewer id that sees everything. Only for the end of the game, replays and tests."""

Seat = int
Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The game state is unchanged."""


class InvalidSetup(ValueError):
    """A game id, player count or table option that the game does not support."""


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Option:
    """A table option: its name, default and the values allowed for a given player count.

    `choices` is a tuple, or a function of the player count returning one, because some
    options (a first player's seat, a crew size) depend on how many play.
    """

    name: str
    default: Any
    choices: tuple | Callable[[int], tuple]
    help: str = ""
    label: str = ""
    """The option's name for players ("First cutter"); the code name if empty."""
    show: Callable[[Any], str] | None = None
    """A value's name for players ("seat 2", "yes"); see `value_text`."""
    canonical: Callable[[Any], Any] | None = None
    """Puts an equivalent value in the form the choices use (a set of colours in the box's
    order, say) before it is checked."""

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def value_text(self, value: Any) -> str:
        if self.show is not None:
            return self.show(value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value).replace("_", " ")

    def allowed(self, players: int) -> tuple:
        return self.choices(players) if callable(self.choices) else self.choices

    def check(self, players: int, value: Any) -> None:
        allowed = self.allowed(players)
        # `True == 1` in Python, so a value must match a choice in type as well as in value.
        if not any(type(value) is type(c) and value == c for c in allowed):
            shown = ", ".join(repr(c) for c in allowed)
            raise InvalidSetup(
                f"option {self.name!r} cannot be {value!r} with {players} players; "
                f"choose one of: {shown}"
            )

    def describe(self, players: int) -> dict[str, Any]:
        """A msgpack-able description, for the lobby's table-creation form."""
        return {
            "name": self.name,
            "label": self.title,
            "default": self.default,
            "choices": list(self.allowed(players)),
            "choice_labels": [self.value_text(c) for c in self.allowed(players)],
            "help": self.help,
        }


# ---------------------------------------------------------------------------------------------
# Events


_NO_DATA: Mapping[str, Any] = {}

REFEREE_ONLY: Final[frozenset[int]] = frozenset()
"""The audience of an event no seat may see: only the referee's view (replays through
everything) shows it."""


class Event:
    """One entry of a game's log, with its audience.

    `audience` is None for everyone (spectators included), or the frozenset of seats that may
    see it; an empty frozenset means the referee only. `text` is English with `{0}`, `{1}`...
    standing for the seats listed in `seats`, so a client can put in the players' names. The
    public wording of an event must never depend on a secret.

    Events are immutable values: a game may log one Event object many times, even across
    games, so never change one (`as_dict` gives each view its own copy).
    """

    # A plain slotted class, not a frozen dataclass: games log several events per action and
    # the frozen dataclass __init__ costs several times more.
    __slots__ = ("type", "text", "seats", "data", "audience")

    def __init__(
        self,
        type: str,
        text: str,
        seats: tuple[int, ...] = (),
        data: Mapping[str, Any] | None = None,
        audience: frozenset[int] | None = None,
    ):
        self.type = type
        self.text = text
        self.seats = seats
        self.data = _NO_DATA if data is None else data
        self.audience = audience

    def visible_to(self, viewer: int) -> bool:
        return viewer == REFEREE or self.audience is None or viewer in self.audience

    def as_dict(self, audience: bool = False) -> dict[str, Any]:
        """A fresh msgpack-able dict: nested maps and lists are copied too, because games may
        share one data map between events (a hand's counts, say) to log them cheaply.
        `private` tells a client the event is not everyone's, so it can hide it on demand.
        With `audience` (the referee's view only: it tells whose a private line was, which
        no seat may learn of another's), a private event also lists the seats it was for."""
        out = {"type": self.type, "text": self.text, "seats": list(self.seats),
               "private": self.audience is not None}
        if audience and self.audience is not None:
            out["audience"] = sorted(self.audience)
        for key, value in self.data.items():
            if value.__class__ is dict:
                value = dict(value)
            elif value.__class__ is list:
                value = list(value)
            out[key] = value
        return out

    def __repr__(self) -> str:
        return (
            f"Event({self.type!r}, {self.text!r}, {self.seats!r}, {self.data!r}, {self.audience!r})"
        )


# ---------------------------------------------------------------------------------------------
# Outcome


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seats, each seat's team, and why.

    `teams` gives each seat's team (or role) as revealed at the end. `reason` is a short
    machine-readable word ("bomb", "defused", "time", ...); `text` says it for people.
    """

    winners: frozenset[int]
    teams: tuple[str, ...]
    reason: str
    text: str
    winning_team: str | None = None

    def won(self, seat: int) -> bool:
        return seat in self.winners

    @functools.cached_property
    def event(self) -> Event:
        """The event that ends the game, for everyone: made once, however many games end so."""
        return Event("game_over", self.text, (), {"reason": self.reason,
                                                  "winners": sorted(self.winners)})

    def as_dict(self) -> dict[str, Any]:
        return {
            "winners": sorted(self.winners),
            "teams": list(self.teams),
            "reason": self.reason,
            "text": self.text,
            "winning_team": self.winning_team,
        }


# ---------------------------------------------------------------------------------------------
# Action schemas

# A field spec is a type (int, str, bool) or a one-element list `[int]` for a list of that type.
FieldSpec = type | list


_MISSING = object()


def _field_ok(value: Any, spec: FieldSpec) -> bool:
    if isinstance(spec, list):
        return isinstance(value, (list, tuple)) and all(_field_ok(v, spec[0]) for v in value)
    # bool is a subclass of int: a seat number must not be accepted as True.
    return type(value) is spec


def _spec_name(spec: FieldSpec) -> str:
    if isinstance(spec, list):
        return f"a list of {_spec_name(spec[0])}"
    return {int: "a whole number", str: "a string", bool: "true or false"}.get(spec, spec.__name__)


# ---------------------------------------------------------------------------------------------
# The game base class


_ONLY: dict[int, tuple[frozenset[int], ...]] = {}

ActionTable = dict[str, tuple[Callable, tuple, int, bool]]


def _action_table(cls: type[Game]) -> ActionTable:
    """Each action type of a game class: its `act_` function, its fields with their specs,
    the size of a well-formed action and whether it is free. Built once, when the class is
    made, so that `apply` neither joins strings nor looks up methods by name on every action."""
    return {
        kind: (
            getattr(cls, "act_" + kind),
            tuple(fields.items()),
            len(fields) + 1,
            kind in cls.FREE_ACTIONS,
        )
        for kind, fields in cls.ACTIONS.items()
    }


class _SharedView(NamedTuple):
    """The parts of a view that every viewer sees alike, built once for `Game.views`."""

    head: dict[str, Any]
    """The table's options, who is to act, and the outcome."""
    public: dict[str, Any]
    reveal: dict[str, Any] | None
    """What the end reveals, once the game is over."""


class Game:
    """The base of every game. See `engine/__init__.py` for the contract it implements."""

    INFO: ClassVar["GameInfo"]
    """The game's entry in `engine.catalogue`: the id, title, player counts and options below
    are copied from it when the class is made."""
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    ACTIONS: ClassVar[Mapping[str, Mapping[str, FieldSpec]]] = {}
    """Each action type and its fields besides "type", with their types. Fields are required."""
    FREE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Action types any seat may take whenever the game runs, without being in `to_act`
    (a public claim, say). They never advance the game, so bots need not take them."""
    BOTS: ClassVar[Mapping[str, Callable]] = {}
    """Bot name to `bot(view, legal_actions, rng) -> action`; "random" is always there."""
    _actions: ClassVar[ActionTable] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for composer in ("view", "views", "_shared_view", "_compose"):
            if composer in cls.__dict__:
                # Views are composed in one place, so that no game can show a secret by a
                # branch on the viewer gone wrong: a game supplies the hooks.
                raise TypeError(f"{cls.__name__} overrides {composer}(); supply public_view, "
                                "seat_view, reveal_view or referee_view instead")
        info = cls.__dict__.get("INFO")
        if info is not None:
            cls.id, cls.title = info.id, info.title
            cls.min_players, cls.max_players = info.min_players, info.max_players
            cls.OPTIONS = info.options
        cls._actions = _action_table(cls)

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        self.players = players
        self.options = self.validate_options(players, options or {})
        self.seed = seed
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        only = _ONLY.get(players)
        if only is None:
            only = _ONLY[players] = tuple(frozenset((s,)) for s in range(players))
        self.only: tuple[frozenset[int], ...] = only
        """`only[seat]`, the audience of an event for that seat alone (shared: immutable)."""
        self.history: list[tuple[int, Action]] = []
        self.outcome: Outcome | None = None
        self.setup()

    # -- declared by subclasses -----------------------------------------------------------

    def setup(self) -> None:
        """Deal and arrange everything, drawing all randomness from `self.rng`."""
        raise NotImplementedError

    def to_act(self) -> frozenset[int]:
        """The seats the game is waiting for now; several during a simultaneous phase."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, free actions included; empty when none.

        The moves that advance the game come first, then the free actions, so that a bot
        finds its moves without reading every claim. The list is fresh, but a game may share
        its action dicts between calls for speed: treat them as read-only (build a new dict to
        change one; `apply` keeps a copy)."""
        raise NotImplementedError

    def public_view(self) -> dict[str, Any]:
        """The fields every viewer sees, built fresh field by field. It is given no viewer,
        so it cannot show a secret to the wrong one."""
        raise NotImplementedError

    def seat_view(self, seat: int) -> dict[str, Any]:
        """What `seat` alone sees, added to (or replacing fields of) the public view."""
        return {}

    def reveal_view(self) -> dict[str, Any]:
        """What the end of the game shows everyone; the referee sees it all along."""
        return {}

    def referee_view(self) -> dict[str, Any]:
        """What only the referee ever sees, beyond `reveal_view` (a deck's order, say)."""
        return {}

    def seat_teams(self) -> tuple[str, ...]:
        """Each seat's team or side. A secret in most games: for the simulator (which puts
        different bots on different teams) and tests only, never for a view."""
        raise NotImplementedError

    # -- options --------------------------------------------------------------------------

    @classmethod
    def check_players(cls, players: Any) -> None:
        cls.INFO.check_players(players)

    @classmethod
    def validate_options(cls, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The full option set for this player count: defaults filled in, every value checked."""
        if not options:
            # Simulations start thousands of default games: check the defaults once per count.
            defaults = cls.__dict__.get("_default_options")
            if defaults is None:
                defaults = {}
                setattr(cls, "_default_options", defaults)
            if players not in defaults:
                defaults[players] = cls.INFO.validate_options(players, {})
            return dict(defaults[players])
        return cls.INFO.validate_options(players, options)

    @classmethod
    def describe_options(cls, players: int) -> list[dict[str, Any]]:
        return cls.INFO.describe_options(players)

    # -- acting ---------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Apply `seat`'s action, or raise IllegalAction and change nothing."""
        if self.outcome is not None:
            raise IllegalAction("the game is over")
        # `type(x) is int` refuses True and False, which are ints to isinstance.
        if seat.__class__ is not int or not 0 <= seat < self.players:
            raise IllegalAction(f"{seat!r} is not a seat at this table")
        # The shape check, written once: `x.__class__ is` tests first, as a simulation applies
        # millions of actions and most of them are plain dicts with exact field types.
        if action.__class__ is not dict and not isinstance(action, Mapping):
            raise IllegalAction("an action must be a map with a 'type' field")
        kind = action.get("type")
        entry = self._actions.get(kind) if kind.__class__ is str else None
        if entry is None:
            raise IllegalAction(
                f"unknown action type {kind!r}; {self.title} has: " + ", ".join(self.ACTIONS)
            )
        act, fields, size, free = entry
        if len(action) != size:
            extra = set(action) - {name for name, _ in fields} - {"type"}
            if extra:
                raise IllegalAction(
                    f"a {kind!r} action has no field {sorted(extra, key=str)[0]!r}"
                )
        for name, spec in fields:
            value = action.get(name, _MISSING)
            if value.__class__ is not spec and not _field_ok(value, spec):
                if value is _MISSING:
                    raise IllegalAction(f"a {kind!r} action needs the field {name!r}")
                raise IllegalAction(f"{kind!r}: {name!r} must be {_spec_name(spec)}")
        if not free and not self.may_act(seat):
            raise IllegalAction(self.not_your_turn(seat))
        act(self, seat, action)
        self.history.append((seat, dict(action)))

    def may_act(self, seat: int) -> bool:
        """Whether the game waits for `seat`; a game may answer faster than `to_act`."""
        return seat in self.to_act()

    def not_your_turn(self, seat: int) -> str:
        waiting = sorted(self.to_act())
        if not waiting:
            return "nobody may act now"
        return "it is not your turn: waiting for seat " + ", ".join(map(str, waiting))

    # -- events and views -----------------------------------------------------------------

    def log(
        self,
        type: str,
        text: str,
        seats: Iterable[int] = (),
        audience: Iterable[int] | None = None,
        **data: Any,
    ) -> None:
        if audience is not None and audience.__class__ is not frozenset:
            audience = frozenset(audience)
        if seats.__class__ is not tuple:
            seats = tuple(seats)
        self.events.append(Event(type, text, seats, data or None, audience))

    def visible_events(self, viewer: int) -> list[dict[str, Any]]:
        return self.events_since(viewer, 0)

    def events_since(self, viewer: int, start: int) -> list[dict[str, Any]]:
        """The events `viewer` may see among `self.events[start:]`: the log's own index, so a
        caller keeps `len(game.events)` to ask for the next ones. The referee sees them all,
        each private one with its audience."""
        if viewer == REFEREE:
            return [e.as_dict(audience=True) for e in self.events[start:]]
        return [e.as_dict() for e in self.events[start:] if e.visible_to(viewer)]

    @final
    def view(self, viewer: int, *, events: bool = True) -> dict[str, Any]:
        """What `viewer` may see, composed from the hooks above and nothing else: the public
        fields, then the viewer's own seat's, then, for the referee or once the game is over,
        what the end reveals. Without `events` the view leaves out the event log, and the time
        to build it: the host sends each client only the events it has not had
        (`events_since`)."""
        self.check_viewer(viewer)
        return self._compose(viewer, self._shared_view(), events)

    @final
    def views(self, viewers: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The views of several viewers, each as `view(viewer, events=False)`, for a host that
        tells a whole table at once: what every viewer sees alike is built once, and the views
        share those values, so a caller reads them and changes none."""
        viewers = list(viewers)
        for viewer in viewers:
            self.check_viewer(viewer)
        shared = self._shared_view()
        return {viewer: self._compose(viewer, shared, False) for viewer in viewers}

    def _shared_view(self) -> _SharedView:
        return _SharedView(
            {"options": dict(self.options), "to_act": sorted(self.to_act()),
             "outcome": None if self.outcome is None else self.outcome.as_dict()},
            self.public_view(),
            None if self.outcome is None else self.reveal_view())

    def _compose(self, viewer: int, shared: _SharedView, events: bool) -> dict[str, Any]:
        view = {"game": self.id, "players": self.players, "viewer": viewer}
        view.update(shared.head)
        if events:
            view["events"] = self.visible_events(viewer)
        view.update(shared.public)
        if viewer >= 0:
            view.update(self.seat_view(viewer))
        if viewer == REFEREE:
            view.update(self.reveal_view() if shared.reveal is None else shared.reveal)
            view.update(self.referee_view())
        elif shared.reveal is not None:
            view.update(shared.reveal)
        return view

    def check_viewer(self, viewer: int) -> None:
        if type(viewer) is not int or not (
            viewer in (SPECTATOR, REFEREE) or 0 <= viewer < self.players
        ):
            raise ValueError(f"{viewer!r} is not a seat, SPECTATOR or REFEREE")

    def finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.events.append(outcome.event)

    def __repr__(self) -> str:
        return (
            f"engine.replay({self.id!r}, {self.players}, {self.options!r}, {self.seed!r}, "
            f"{self.history!r})"
        )


def random_bot(free_actions: frozenset[str] = frozenset()) -> Callable:
    """A bot that picks uniformly among the legal actions that advance the game."""

    def choose(view: Mapping[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
        # The moves come first (see `Game.legal_actions`): count them, not the free actions
        # after them, which outnumber them (a cutter has 4 cuts and 11 claims).
        moves = 0
        if free_actions:
            for action in legal_actions:
                if action["type"] in free_actions:
                    break
                moves += 1
        # rng.random() is a fraction of the cost of rng.choice(), and unbiased for short lists.
        return legal_actions[int(rng.random() * (moves or len(legal_actions)))]

    return choose

"""The Gaslight wire protocol's messages, both ways, as typed records.

Every message is a small frozen dataclass with its tag. The host turns each decoded client map
into a record with `parse_client_message` and dispatches it with `match`; the client turns each
host map into a record with `parse_host_message`. Each side sends records (`Message.to_dict`
gives the wire form). The limits on what a field may hold are named `Final`s here, checked with
errors that say what was too large and what the limit is; the frames that carry the messages
are `netplay.frames`. See PROTOCOL.md for each message.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from functools import partial
from types import NoneType
from typing import Any, Callable, ClassVar, Final, Mapping, get_args, get_type_hints

from netplay.errors import ProtocolError
from netplay.frames import MAX_FRAME, PROTOCOL_VERSION
from netplay.maps import MissingField, record_from_map
from netplay.text import clean_text

MAX_NAME: Final = 32
"""Characters in a display name or a table name, after control sequences are stripped."""
MAX_CHAT: Final = 500
"""Characters in one chat message, after control sequences are stripped."""
MAX_TOKEN: Final = 128
"""Characters in a seat token; real ones are 32."""
MAX_ID: Final = 64
"""Characters in a table id or a game id."""
MAX_PERSON: Final = 64
"""Characters in a person's public key: 32 bytes in hex."""
MAX_PROOF: Final = 128
"""Characters in a person's proof: a 64-byte signature in hex."""
MAX_TOKENS: Final = 64
"""Seat tokens in one `replays` request: a seat book's worth."""
MAX_PAIR_MESSAGE: Final = MAX_FRAME
"""Characters in a `pair`'s SPAKE2 message: bounded by the frame alone, so that a message of
any wrong length reaches the pairing, which refuses it and counts a guess against its address
(a field limit of its own refused one over 64 bytes first, at no cost: PROTOCOL.md,
"Pairing")."""
EYES_SPECTATOR: Final = "spectator"
"""A `replay` request's `eyes` for the spectators' (besides a seat number)."""
EYES_ALL: Final = "all"
"""A `replay` request's `eyes` for everything, as the referee sees it: every hand and role."""


# ---------------------------------------------------------------------------------------------
# Names


def check_name(name: Any, what: str = "name", *, allow_empty: bool = False) -> str:
    if type(name) is not str:
        raise ProtocolError(f"{what} must be a string")
    cleaned = clean_text(name)
    if len(cleaned) > MAX_NAME:
        raise ProtocolError(f"{what} is {len(cleaned)} characters; the limit is {MAX_NAME}")
    if not cleaned and not allow_empty:
        raise ProtocolError(f"{what} must not be empty")
    return cleaned


# ---------------------------------------------------------------------------------------------
# Records: every message is a small frozen dataclass with its tag


class Message:
    """A message of either side; `to_dict` gives its wire form, with "v" and "t"."""

    __slots__ = ()
    TAG: ClassVar[str]
    WIRE_NAMES: ClassVar[Mapping[str, str]] = {}
    """Fields whose wire name is a Python keyword."""
    __match_args__: ClassVar[tuple[str, ...]]

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"v": PROTOCOL_VERSION, "t": self.TAG}
        for name in self.__match_args__:
            out[self.WIRE_NAMES.get(name, name)] = getattr(self, name)
        return out


# ---------------------------------------------------------------------------------------------
# Client messages: typed records, one per tag. Each record's declaration is also its schema: the
# fields' types and defaults, and each field's limit as its metadata's "check".


def _at_most(limit: int, what: str) -> dict[str, Any]:
    """Field metadata: text of more than `limit` characters is refused, calling it `what`."""

    def check(value: Any) -> Any:
        if type(value) is str and len(value) > limit:
            raise ProtocolError(f"{what} is {len(value)} characters; the limit is {limit}")
        return value

    return {"check": check}


def _check_tokens(tokens: list) -> list:
    if len(tokens) > MAX_TOKENS:
        raise ProtocolError(f"{len(tokens)} tokens; the limit is {MAX_TOKENS}")
    for token in tokens:
        if type(token) is not str or len(token) > MAX_TOKEN:
            raise ProtocolError(f"each token must be a string of at most {MAX_TOKEN} characters")
    return tokens


_NAME: Final = {"check": check_name}
_TABLE_NAME: Final = {"check": partial(check_name, allow_empty=True)}
"""A table may be created without a name: the host names it after its game."""
_TOKEN: Final = _at_most(MAX_TOKEN, "token")
_TABLE_ID: Final = _at_most(MAX_ID, "table id")
_GAME_ID: Final = _at_most(MAX_ID, "game id")


@dataclass(frozen=True, slots=True)
class Hello(Message):
    TAG = "hello"
    name: str = field(metadata=_NAME)
    token: str | None = field(default=None, metadata=_TOKEN)
    table: str | None = field(default=None, metadata=_TABLE_ID)
    spectate: bool = False
    person: str | None = field(default=None, metadata=_at_most(MAX_PERSON, "person"))
    """The person's public key, in hex (see "Who a person is"); with `proof`."""
    proof: str | None = field(default=None, metadata=_at_most(MAX_PROOF, "proof"))


@dataclass(frozen=True, slots=True)
class PairRequest(Message):
    """The client's SPAKE2 message, in hex: the first frame of a pairing by the table code,
    before anything of the player's is said (see "Pairing")."""

    TAG = "pair"
    msg: str = field(metadata=_at_most(MAX_PAIR_MESSAGE, "msg"))


@dataclass(frozen=True, slots=True)
class Paired(Message):
    """The client's MAC over the host's fingerprint, answering the host's `pair`."""

    TAG = "paired"
    mac: str = field(metadata=_at_most(MAX_TOKEN, "mac"))


@dataclass(frozen=True, slots=True)
class ListTables(Message):
    TAG = "list_tables"


@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    TAG = "create_table"
    game: str = field(metadata=_GAME_ID)
    players: int
    options: dict = field(default_factory=dict)
    name: str = field(default="", metadata=_TABLE_NAME)
    bots: int = 0
    bot_level: str | None = field(default=None, metadata=_at_most(MAX_ID, "bot_level id"))
    bot_pace: str | None = field(default=None, metadata=_at_most(MAX_ID, "bot_pace id"))
    turn_timer: int = 0
    public_replays: bool = False
    private: bool = False
    start_when_full: bool = False
    hints: bool = False
    """Whether its people may ask for a hint (see "Hints"); a game against bots always may."""


@dataclass(frozen=True, slots=True)
class Sit(Message):
    TAG = "sit"
    table: str = field(metadata=_TABLE_ID)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class AddBot(Message):
    TAG = "add_bot"
    table: str = field(metadata=_TABLE_ID)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Leave(Message):
    TAG = "leave"


@dataclass(frozen=True, slots=True)
class Start(Message):
    TAG = "start"


@dataclass(frozen=True, slots=True)
class Act(Message):
    TAG = "act"
    action: dict


@dataclass(frozen=True, slots=True)
class Chat(Message):
    TAG = "chat"
    text: str


@dataclass(frozen=True, slots=True)
class ClaimDone(Message):
    """A person has claimed or passed at this deal: the bots need not wait for them."""

    TAG = "claim_done"


@dataclass(frozen=True, slots=True)
class PlayAgain(Message):
    TAG = "play_again"


@dataclass(frozen=True, slots=True)
class AskHint(Message):
    """A seated person asks what the table's strongest bot would play from their seat now,
    and why (see "Hints")."""

    TAG = "hint"


@dataclass(frozen=True, slots=True)
class Ping(Message):
    TAG = "ping"


@dataclass(frozen=True, slots=True)
class ListReplays(Message):
    TAG = "replays"
    tokens: list = field(default_factory=list, metadata={"check": _check_tokens})


@dataclass(frozen=True, slots=True)
class ShowReplay(Message):
    TAG = "replay"
    game: str = field(metadata=_GAME_ID)
    eyes: int | str = field(metadata=_at_most(MAX_ID, "eyes"))
    step: int
    token: str | None = field(default=None, metadata=_TOKEN)


@dataclass(frozen=True, slots=True)
class FetchRecord(Message):
    TAG = "record"
    game: str = field(metadata=_GAME_ID)
    part: int
    token: str | None = field(default=None, metadata=_TOKEN)


ClientMessage = (
    Hello | PairRequest | Paired | ListTables | CreateTable | Sit | AddBot | Leave | Start | Act
    | Chat | ClaimDone | PlayAgain | AskHint | Ping | ListReplays | ShowReplay | FetchRecord
)
REPLAY_REQUESTS: Final = (ListReplays, ShowReplay, FetchRecord)


@dataclass(frozen=True, slots=True)
class _FieldSchema:
    """What a client message's field may hold, read from its record's declaration."""

    name: str
    kinds: tuple[type, ...]
    """The types its value may have, exactly: a bool is not taken for a whole number."""
    required: bool
    """Whether it has no default; an absent optional field takes its record's default."""
    check: Callable[[Any], Any] | None
    """The field's limit (its metadata's "check"): the value, cleaned, or ProtocolError."""


def _schema(record: type) -> tuple[_FieldSchema, ...]:
    """The schema of each field of `record`; an optional field's None is not a kind of its own
    (a nil on the wire means the field is absent)."""
    hints = get_type_hints(record)
    return tuple(
        _FieldSchema(spec.name,
                     tuple(k for k in get_args(hints[spec.name]) if k is not NoneType)
                     or (hints[spec.name],),
                     spec.default is MISSING and spec.default_factory is MISSING,
                     spec.metadata.get("check"))
        for spec in fields(record))


_CLIENT_SCHEMAS: Final = {record.TAG: (record, _schema(record))
                          for record in get_args(ClientMessage)}
CLIENT_TAGS: Final = frozenset(_CLIENT_SCHEMAS)
_TYPE_NAMES: Final = {(str,): "a string", (int,): "a whole number", (bool,): "true or false",
                      (dict,): "a map", (list,): "a list", (int, str): "a whole number or a string"}


def parse_client_message(message: dict) -> ClientMessage:
    """The typed record for a decoded client message; ProtocolError for an unknown tag, a
    missing or unknown field, a field of the wrong type, or text over its limit. A field sent
    as nil is taken as absent."""
    tag = message.get("t")
    schema = _CLIENT_SCHEMAS.get(tag) if type(tag) is str else None
    if schema is None:
        raise ProtocolError(f"unknown message type {tag!r}; expected one of: "
                            + ", ".join(sorted(CLIENT_TAGS)))
    record, field_schemas = schema
    unknown = sorted(set(message) - {spec.name for spec in field_schemas} - {"v", "t"})
    if unknown:
        raise ProtocolError(f"a {tag!r} message has no field {unknown[0]!r}")
    values = {}
    for spec in field_schemas:
        value = message.get(spec.name)
        if value is None:
            if spec.required:
                raise ProtocolError(f"a {tag!r} message needs the field {spec.name!r}")
        elif type(value) not in spec.kinds:
            raise ProtocolError(f"{tag!r}: field {spec.name!r} must be "
                                f"{_TYPE_NAMES[spec.kinds]}")
        else:
            values[spec.name] = value
    # Every field's type is checked before any field's limit, as the protocol has it.
    for spec in field_schemas:
        if spec.check is not None and spec.name in values:
            values[spec.name] = spec.check(values[spec.name])
    return record(**values)


# ---------------------------------------------------------------------------------------------
# Host messages: typed records, one per tag. See PROTOCOL.md for what each field means.


class HostMessage(Message):
    """A message the host sends."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Welcome(HostMessage):
    TAG = "welcome"
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    spectator: bool = False
    host: str | None = None


@dataclass(frozen=True, slots=True)
class TableList(HostMessage):
    TAG = "tables"
    tables: list[dict]


@dataclass(frozen=True, slots=True)
class Lobby(HostMessage):
    TAG = "lobby"
    table: str
    name: str
    game: str
    players: int
    options: dict
    seats: list[dict]
    phase: str
    host_seat: int | None
    spectators: int
    bot_level: str
    turn_timer: int
    play_again: list[int]
    bot_pace: str = "normal"
    """Optional on the wire: a host from before paces sends none."""
    evening: list[dict] = field(default_factory=list)
    """The table's finished games, oldest first (see PROTOCOL.md, `lobby`)."""
    private: bool = False
    start_when_full: bool = False
    """The table starts by itself once every seat is taken (see "Starting a table")."""
    claim_wait: list[int] = field(default_factory=list)
    """The seats whose claims the bots wait for at this deal (see "Deals")."""
    acting_host: int | None = None
    """The seat holding the host's powers now: `host_seat`, or while its person is away, the
    person who would take over (see "The host's powers")."""
    may_cover: list[int] = field(default_factory=list)
    """The seats whose people may let a bot cover an away player now (see "Covered seats")."""
    hints: bool = False
    """People at this table may ask for hints (see "Hints"); a host from before hints sends
    none, and is never asked."""
    hints_asked: list[int] = field(default_factory=list)
    """Per seat, the hints its player asked for in this game (see "Hints")."""


@dataclass(frozen=True, slots=True)
class State(HostMessage):
    TAG = "state"
    view: dict
    legal: list[dict]
    seat: int | None
    events: list[dict]
    first: int


@dataclass(frozen=True, slots=True)
class ChatLine(HostMessage):
    TAG = "chat"
    WIRE_NAMES = {"sender": "from"}
    channel: str
    text: str
    seat: int | None
    sender: str
    past: bool = False


@dataclass(frozen=True, slots=True)
class Error(HostMessage):
    TAG = "error"
    message: str
    fatal: bool


@dataclass(frozen=True, slots=True)
class Pong(HostMessage):
    TAG = "pong"


@dataclass(frozen=True, slots=True)
class Closed(HostMessage):
    """The client's table has closed for good: it says so, and who closed it (None: the
    host's operator stopped it). The client does not reconnect after it."""

    TAG = "closed"
    table: str
    by: str | None
    message: str


@dataclass(frozen=True, slots=True)
class ReplayList(HostMessage):
    TAG = "replays"
    games: list[dict]


@dataclass(frozen=True, slots=True)
class ReplayStep(HostMessage):
    TAG = "replay"
    game: str
    step: int
    steps: int
    eyes: int | str
    view: dict
    events: list[dict]
    first: int
    chat: list[dict]
    marks: list[int]
    moved: dict | None = None
    about: dict | None = None


@dataclass(frozen=True, slots=True)
class RecordPart(HostMessage):
    TAG = "record"
    game: str
    part: int
    parts: int
    body: list[dict]


@dataclass(frozen=True, slots=True)
class Hint(HostMessage):
    """The answer to `hint`, to its asker alone: the move the strongest bot would play from
    their seat, one of their legal actions, and why; `{0}`, `{1}`... in the reason stand for
    the players in `seats`, as in an event."""

    TAG = "hint"
    action: dict
    reason: str
    seats: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Pair(HostMessage):
    """The host's SPAKE2 message and its MAC over its own fingerprint, both in hex."""

    TAG = "pair"
    msg: str
    mac: str


HostRecord = (Welcome | TableList | Lobby | State | ChatLine | Error | Pong | Closed
              | ReplayList | ReplayStep | RecordPart | Hint | Pair)
_HOST_RECORDS: Final[dict[str, type]] = {cls.TAG: cls for cls in get_args(HostRecord)}


def parse_host_message(message: dict) -> HostRecord:
    """The typed record for a decoded host message; ProtocolError for an unknown tag or a
    missing field. Fields this side does not know are left out: a later host may add optional
    ones."""
    tag = message.get("t")
    record = _HOST_RECORDS.get(tag) if type(tag) is str else None
    if record is None:
        raise ProtocolError(f"the host sent an unknown message type {tag!r}")
    try:
        return record_from_map(record, message, record.WIRE_NAMES)
    except MissingField as missing:
        raise ProtocolError(f"a {tag!r} message from the host has no field "
                            f"{missing.args[0]!r}") from None

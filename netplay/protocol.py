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
from typing import Any, ClassVar, Final, Mapping

from netplay.errors import ProtocolError
from netplay.frames import PROTOCOL_VERSION
from netplay.text import clean_text

MAX_NAME: Final = 32
"""Characters in a display name or a table name, after control sequences are stripped."""
MAX_CHAT: Final = 500
"""Characters in one chat message, after control sequences are stripped."""
MAX_TOKEN: Final = 128
"""Characters in a seat token; real ones are 32."""
MAX_ID: Final = 64
"""Characters in a table id or a game id."""
MAX_TOKENS: Final = 64
"""Seat tokens in one `replays` request: a seat book's worth."""


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
# Client messages: typed records, one per tag


@dataclass(frozen=True, slots=True)
class Hello(Message):
    TAG = "hello"
    name: str
    token: str | None = None
    table: str | None = None
    spectate: bool = False


@dataclass(frozen=True, slots=True)
class PairRequest(Message):
    """The client's SPAKE2 message, in hex: the first frame of a pairing by the table code,
    before anything of the player's is said (see "Pairing")."""

    TAG = "pair"
    msg: str


@dataclass(frozen=True, slots=True)
class Paired(Message):
    """The client's MAC over the host's fingerprint, answering the host's `pair`."""

    TAG = "paired"
    mac: str


@dataclass(frozen=True, slots=True)
class ListTables(Message):
    TAG = "list_tables"


@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    TAG = "create_table"
    game: str
    players: int
    options: dict = field(default_factory=dict)
    name: str = ""
    bots: int = 0
    bot_level: str | None = None
    bot_pace: str | None = None
    turn_timer: int = 0
    public_replays: bool = False
    private: bool = False
    start_when_full: bool = False


@dataclass(frozen=True, slots=True)
class Sit(Message):
    TAG = "sit"
    table: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class AddBot(Message):
    TAG = "add_bot"
    table: str
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
class Ping(Message):
    TAG = "ping"


@dataclass(frozen=True, slots=True)
class ListReplays(Message):
    TAG = "replays"
    tokens: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ShowReplay(Message):
    TAG = "replay"
    game: str
    eyes: int | str
    step: int
    token: str | None = None


@dataclass(frozen=True, slots=True)
class FetchRecord(Message):
    TAG = "record"
    game: str
    part: int
    token: str | None = None


ClientMessage = (
    Hello | PairRequest | Paired | ListTables | CreateTable | Sit | AddBot | Leave | Start | Act
    | Chat | ClaimDone | PlayAgain | Ping | ListReplays | ShowReplay | FetchRecord
)
REPLAY_REQUESTS: Final = (ListReplays, ShowReplay, FetchRecord)

_REQUIRED = object()

# tag -> (record, {field: (type, default)}); a None value means "absent" for optional fields.
_CLIENT_SCHEMAS: Final[dict[str, tuple[type, dict[str, tuple[type, Any]]]]] = {
    "hello": (Hello, {"name": (str, _REQUIRED), "token": (str, None), "table": (str, None),
                      "spectate": (bool, False)}),
    "pair": (PairRequest, {"msg": (str, _REQUIRED)}),
    "paired": (Paired, {"mac": (str, _REQUIRED)}),
    "list_tables": (ListTables, {}),
    "create_table": (CreateTable, {"game": (str, _REQUIRED), "players": (int, _REQUIRED),
                                   "options": (dict, None), "name": (str, ""),
                                   "bots": (int, 0), "bot_level": (str, None),
                                   "bot_pace": (str, None),
                                   "turn_timer": (int, 0), "public_replays": (bool, False),
                                   "private": (bool, False),
                                   "start_when_full": (bool, False)}),
    "sit": (Sit, {"table": (str, _REQUIRED), "seat": (int, None)}),
    "add_bot": (AddBot, {"table": (str, _REQUIRED), "seat": (int, None)}),
    "leave": (Leave, {}),
    "start": (Start, {}),
    "act": (Act, {"action": (dict, _REQUIRED)}),
    "chat": (Chat, {"text": (str, _REQUIRED)}),
    "claim_done": (ClaimDone, {}),
    "play_again": (PlayAgain, {}),
    "ping": (Ping, {}),
    "replays": (ListReplays, {"tokens": (list, None)}),
    "replay": (ShowReplay, {"game": (str, _REQUIRED), "eyes": ((int, str), _REQUIRED),
                            "step": (int, _REQUIRED), "token": (str, None)}),
    "record": (FetchRecord, {"game": (str, _REQUIRED), "part": (int, _REQUIRED),
                             "token": (str, None)}),
}

CLIENT_TAGS: Final = frozenset(_CLIENT_SCHEMAS)
_TYPE_NAMES = {str: "a string", int: "a whole number", bool: "true or false", dict: "a map",
               list: "a list", (int, str): "a whole number or a string"}
_EMPTY = {dict: dict, list: list}


def parse_client_message(message: dict) -> ClientMessage:
    """The typed record for a decoded client message; ProtocolError for an unknown tag, a
    missing or unknown field, a field of the wrong type, or text over its limit."""
    tag = message.get("t")
    schema = _CLIENT_SCHEMAS.get(tag) if type(tag) is str else None
    if schema is None:
        raise ProtocolError(f"unknown message type {tag!r}; expected one of: "
                            + ", ".join(sorted(CLIENT_TAGS)))
    record, fields = schema
    unknown = sorted(set(message) - set(fields) - {"v", "t"})
    if unknown:
        raise ProtocolError(f"a {tag!r} message has no field {unknown[0]!r}")
    values = {}
    for name, (kind, default) in fields.items():
        value = message.get(name)
        if value is None:
            if default is _REQUIRED:
                raise ProtocolError(f"a {tag!r} message needs the field {name!r}")
            values[name] = _EMPTY[kind]() if kind in _EMPTY and default is None else default
            continue
        # bool is an int in Python; a seat number must not be accepted as True.
        if type(value) not in (kind if type(kind) is tuple else (kind,)):
            raise ProtocolError(f"{tag!r}: field {name!r} must be {_TYPE_NAMES[kind]}")
        values[name] = value
    _check_sizes(tag, values)
    return record(**values)


def _check_sizes(tag: str, values: dict) -> None:
    if "name" in values:
        values["name"] = check_name(values["name"], allow_empty=tag == "create_table")
    if values.get("token") is not None and len(values["token"]) > MAX_TOKEN:
        raise ProtocolError(f"token is {len(values['token'])} characters; the limit is {MAX_TOKEN}")
    for key in ("msg", "mac"):
        if values.get(key) is not None and len(values[key]) > MAX_TOKEN:
            raise ProtocolError(f"{key} is {len(values[key])} characters; the limit is {MAX_TOKEN}")
    for key in ("table", "game", "bot_level", "bot_pace"):
        if values.get(key) is not None and len(values[key]) > MAX_ID:
            raise ProtocolError(f"{key} id is {len(values[key])} characters; the limit is {MAX_ID}")
    if type(values.get("eyes")) is str and len(values["eyes"]) > MAX_ID:
        raise ProtocolError(f"eyes is {len(values['eyes'])} characters; the limit is {MAX_ID}")
    tokens = values.get("tokens")
    if tokens is not None:
        if len(tokens) > MAX_TOKENS:
            raise ProtocolError(f"{len(tokens)} tokens; the limit is {MAX_TOKENS}")
        for token in tokens:
            if type(token) is not str or len(token) > MAX_TOKEN:
                raise ProtocolError(f"each token must be a string of at most {MAX_TOKEN} "
                                    "characters")


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
class Pair(HostMessage):
    """The host's SPAKE2 message and its MAC over its own fingerprint, both in hex."""

    TAG = "pair"
    msg: str
    mac: str


HostRecord = (Welcome | TableList | Lobby | State | ChatLine | Error | Pong | Closed
              | ReplayList | ReplayStep | RecordPart | Pair)
_HOST_RECORDS: Final[dict[str, type]] = {
    cls.TAG: cls for cls in (Welcome, TableList, Lobby, State, ChatLine, Error, Pong, Closed,
                             ReplayList, ReplayStep, RecordPart, Pair)}


def parse_host_message(message: dict) -> HostRecord:
    """The typed record for a decoded host message; ProtocolError for an unknown tag or a
    missing field. Fields this side does not know are left out: a later host may add optional
    ones."""
    tag = message.get("t")
    record = _HOST_RECORDS.get(tag) if type(tag) is str else None
    if record is None:
        raise ProtocolError(f"the host sent an unknown message type {tag!r}")
    values = {}
    for spec in fields(record):
        wire = record.WIRE_NAMES.get(spec.name, spec.name)
        if wire in message:
            values[spec.name] = message[wire]
        elif spec.default is MISSING:
            raise ProtocolError(f"a {tag!r} message from the host has no field {wire!r}")
    return record(**values)

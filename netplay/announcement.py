"""What a table's zeroconf announcement says: the TXT record written from the table's public
summary and its host's fingerprint, its instance name, and the `DiscoveredTable` a browser
reads back. Only public facts, and nothing here touches the network (`netplay.discovery`
announces and browses)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from engine.catalogue import game_info
from netplay.frames import PROTOCOL_VERSION
from netplay.protocol import MAX_ID
from netplay.transport import identity

MAX_INSTANCE_BYTES: Final = 63
"""DNS label limit for a service instance name."""
TXT_KEYS: Final = ("v", "host", "fp", "id", "name", "by", "game", "players", "taken", "free", "people",
                   "bots", "phase", "opts", "seq")
"""Everything the TXT record may hold. A test checks the record has exactly these keys."""
MAX_TXT_VALUE: Final = 200
"""Bytes of one TXT value we write at most: DNS allows 255 a key=value string."""


def txt_record(summary: dict, fingerprint: str, seq: int = 0) -> dict[str, str]:
    """The TXT record of a table, from its public summary (the `tables` message's entry) and
    its host's fingerprint, as its `seq`-th announcement. People and bots are told when the
    summary counts them."""
    record = {
        "v": str(PROTOCOL_VERSION),
        "host": identity(fingerprint),
        "fp": fingerprint,
        "id": summary["id"],
        "name": summary["name"],
        "by": summary.get("by", ""),
        "game": summary["game"],
        "players": str(summary["players"]),
        "taken": str(summary["seats_taken"]),
        "free": str(summary["seats_free"]),
        "people": str(summary.get("people", "")),
        "bots": str(summary.get("bots", "")),
        "phase": summary["phase"],
        "opts": changed_options(summary["game"], summary.get("options", {})),
        "seq": str(seq),
    }
    return {key: value for key, value in record.items()
            if value or key not in ("people", "bots", "by")}


def changed_options(game: str, options: dict) -> str:
    """The options of a table that differ from its game's defaults, as the TXT record's `opts`
    holds them: `name=value` (the value in JSON) joined by spaces; the lobby shows them (the
    Variante) before anyone joins."""
    return " ".join(
        f"{option.name}={json.dumps(options[option.name], separators=(',', ':'))}"
        for option in game_info(game).options
        if option.name in options and options[option.name] != option.default
    )[:MAX_TXT_VALUE]


def read_options(opts: str) -> dict[str, Any]:
    """The options an `opts` value names; a pair that does not read is left out (anyone on the
    LAN may announce anything)."""
    options = {}
    for pair in opts.split():
        name, _, value = pair.partition("=")
        try:
            options[name[:MAX_ID]] = json.loads(value)
        except ValueError:
            continue
    return options


def instance_name(summary: dict) -> str:
    """A unique DNS-SD instance name: the table name, cut to fit one label, and its id."""
    suffix = " " + summary["id"]
    name = summary["name"] or "table"
    encoded = name.encode()[: MAX_INSTANCE_BYTES - len(suffix.encode())]
    return encoded.decode(errors="ignore").replace(".", " ") + suffix


@dataclass(frozen=True)
class DiscoveredTable:
    """A table announced on the LAN, as its TXT record and address describe it."""

    id: str
    name: str
    game: str
    players: int
    seats_taken: int
    seats_free: int
    phase: str
    version: int
    host: str
    """The address to connect to."""
    port: int
    host_id: str = ""
    """The host's identity, the same at any address (see PROTOCOL.md, "Following a host")."""
    fingerprint: str = ""
    """The host's key's fingerprint, as the record claims it: a hint, never trust (a forger
    may claim any). Empty from a host that does not say."""
    seq: int = 0
    """The announcement's number: a higher one is newer."""
    people: int | None = None
    bots: int | None = None
    """Who is seated, when the host counts them (an older host does not)."""
    options: dict[str, Any] = field(default_factory=dict)
    """The table's options that differ from its game's defaults (`opts`)."""
    by: str = ""
    """The name of the person who hosts it, as the record claims it (empty when none)."""

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

"""Typed records read back from plain maps: the host's messages at the client
(`netplay.protocol`) and the store's journal (`netplay.journal`) are read the same way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any, TypeVar

Record = TypeVar("Record")


class MissingField(KeyError):
    """A map lacks a field its record cannot do without; its argument is the map's key."""


def record_from_map(record: type[Record], source: Mapping[str, Any],
                    names: Mapping[str, str] | None = None) -> Record:
    """A `record` (a dataclass) of the fields `source` holds, each under its key in `names`
    if it has one there, and the record's defaults for the others; MissingField for a field
    with no default. Keys the record does not know are left out: a later writer may add
    optional ones."""
    values = {}
    for spec in fields(record):
        key = names.get(spec.name, spec.name) if names else spec.name
        if key in source:
            values[spec.name] = source[key]
        elif spec.default is MISSING and spec.default_factory is MISSING:
            raise MissingField(key)
    return record(**values)

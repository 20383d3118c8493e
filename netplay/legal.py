"""Legal actions, packed for the wire: a Machinations proposal may be any of a thousand crews.

A `state` carries a seat's legal actions. Written out one by one, a crew proposal's list would
fill most of a frame; packed, each run of actions that differ in one field only is written once.
Both ends use these two functions; PROTOCOL.md, `state`, says how a packed list reads.
"""

from __future__ import annotations

from typing import Final

GROUP_KEY: Final = "*"
"""In a packed `legal` list, marks a group: the field its actions differ in."""
GROUP_FROM: Final = 16
"""Actions in a run before it is packed: short lists (a cut's few targets) stay plain."""


def pack_legal(legal: list[dict]) -> list[dict]:
    """`legal` with each run of actions that differ in one field only written once, that field
    holding the list of its values: `{"*": "crew", "type": "propose", "crew": [[0, 1], ...]}`."""
    n = len(legal)
    if n < GROUP_FROM:
        return list(legal)  # no run is long enough: most seats, most moves, at ten players
    packed: list[dict] = []
    i = 0
    while i < n:
        first = legal[i]
        j = i + 1
        if j < n and first.keys() == legal[j].keys():
            differing = [k for k in first if first[k] != legal[j][k]]
            if len(differing) == 1:
                field = differing[0]
                same = [(k, v) for k, v in first.items() if k != field]
                while j < n and legal[j].keys() == first.keys() and all(
                        legal[j][k] == v for k, v in same):
                    j += 1
                if j - i >= GROUP_FROM:
                    packed.append({GROUP_KEY: field, **dict(same),
                                   field: [a[field] for a in legal[i:j]]})
                    i = j
                    continue
        packed.append(first)
        i += 1
    return packed


def unpack_legal(packed: list[dict]) -> list[dict]:
    """The actions a packed `legal` list stands for, in order."""
    legal = []
    for entry in packed:
        field = entry.get(GROUP_KEY)
        if field is None:
            legal.append(entry)
            continue
        same = {k: v for k, v in entry.items() if k not in (GROUP_KEY, field)}
        legal.extend({**same, field: value} for value in entry[field])
    return legal

"""The secret scan every edge is put through: what a viewer may never be told of a game (other
seats' private events and their texts, the seed), and a search of bytes for it. The hostile
tests scan every byte a client gets; the coach's and the hint's lines are scanned the same way
(tests/tui/test_coach.py)."""

from __future__ import annotations

import msgpack

import engine


def seed_patterns(seed: int) -> list[bytes]:
    return [msgpack.packb(seed), str(seed).encode(), seed.to_bytes(8, "big"), hex(seed).encode()]


def hidden_from(game: engine.Game, viewer: int) -> tuple[set[bytes], set[str]]:
    """The packed events and event texts that `viewer` may never see (other seats' private
    events whose wording differs from everything the viewer may see)."""
    visible = [e for e in game.events if e.visible_to(viewer)]
    visible_packed = {msgpack.packb(e.as_dict()) for e in visible}
    visible_texts = {e.text for e in visible}
    packed, texts = set(), set()
    for event in game.events:
        if event.visible_to(viewer):
            continue
        body = msgpack.packb(event.as_dict())
        if body not in visible_packed:
            packed.add(body)
        if event.text not in visible_texts and len(event.text) > 8:
            texts.add(event.text)
    return packed, texts


def scan(where: str, data: bytes, forbidden: dict[str, list[bytes]]) -> None:
    for what, patterns in forbidden.items():
        for pattern in patterns:
            assert pattern not in data, f"{where} holds {what}"

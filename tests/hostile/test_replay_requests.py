"""Hostile replay requests: malformed fields close the connection that sent them (a protocol
error), guesses at games and tokens get the same non-fatal refusal as a game that does not
exist, a stream of replay lists is rate limited, and no step or record ever passes SENT_FRAME."""

from __future__ import annotations

import asyncio
import random

import pytest

from netplay.frames import SENT_FRAME
from netplay.protocol import MAX_TOKEN, MAX_TOKENS
from netplay.table import game_ref

from .conftest import TIMEOUT, RawPeer


async def play_to_the_end(host, table_id: str) -> None:
    """Wait while the bots play a table of bots only to its end."""
    async def over():
        while host.tables[table_id].phase != "over":
            await asyncio.sleep(0.01)
    await asyncio.wait_for(over(), TIMEOUT * 3)


@pytest.mark.parametrize("request_, error", [
    ({"t": "replay", "game": "x-1", "eyes": True, "step": 0}, "'eyes' must be"),
    ({"t": "replay", "game": "x-1", "eyes": [0], "step": 0}, "'eyes' must be"),
    ({"t": "replay", "game": "x-1", "eyes": "e" * 65, "step": 0}, "eyes is 65 characters"),
    ({"t": "replay", "game": "x-1", "eyes": 0, "step": 1.5}, "'step' must be"),
    ({"t": "replay", "game": "g" * 65, "eyes": 0, "step": 0}, "game id is 65"),
    ({"t": "replay", "game": "x-1", "eyes": 0}, "needs the field 'step'"),
    ({"t": "replays", "tokens": "abc"}, "'tokens' must be a list"),
    ({"t": "replays", "tokens": [1]}, "each token must be a string"),
    ({"t": "replays", "tokens": ["t" * (MAX_TOKEN + 1)]}, "each token must be a string"),
    ({"t": "replays", "tokens": ["t"] * (MAX_TOKENS + 1)}, f"the limit is {MAX_TOKENS}"),
    ({"t": "record", "game": "x-1", "part": "0"}, "'part' must be"),
    ({"t": "record", "game": "x-1", "part": 0, "extra": 1}, "no field 'extra'"),
])
async def test_malformed_replay_requests_are_protocol_errors(host, request_, error):
    peer = await RawPeer.join(host.address[1], "Mallory")
    await peer.send(request_)
    answer = await peer.receive_until("error")
    assert answer["fatal"] and error in answer["message"], answer["message"]
    peer.writer.close()


async def test_guesses_get_the_refusal_a_missing_game_gets_and_frames_stay_small(host):
    table_id = host.create_table("machinations", 10, {}, bots=10, seed=5, start_when_full=True)
    host.seed_bots(table_id, 5)
    await play_to_the_end(host, table_id)
    game = game_ref(table_id, 1)
    mallory = await RawPeer.join(host.address[1], "Mallory")
    rng = random.Random(0)
    said = set()
    guesses = [{"game": game, "eyes": "all", "step": 0},
               {"game": game, "eyes": 3, "step": 10**9, "token": "x" * 32},
               {"game": game_ref(table_id, 2), "eyes": 0, "step": 0},
               {"game": "-", "eyes": 0, "step": -5},
               {"game": "", "eyes": "spectator", "step": 0},
               *({"game": f"{rng.getrandbits(32):08x}-1", "eyes": 0, "step": 0}
                 for _ in range(5))]
    for guess in guesses:
        await mallory.send({"t": "replay", **guess})
        answer = await mallory.receive_until("error", "replay")
        assert answer["t"] == "error" and not answer["fatal"]
        said.add(answer["message"].replace(repr(guess["game"]), "GAME"))
        await mallory.send({"t": "record", "game": guess["game"], "part": 0})
        answer = await mallory.receive_until("error", "record")
        assert answer["t"] == "error" and not answer["fatal"]
    assert len(said) == 1
    # A stream of lists: a few answered, then turned down, and the connection stays.
    answers = []
    for _ in range(12):
        await mallory.send({"t": "replays", "tokens": ["t" * 32] * MAX_TOKENS})
        answers.append(await mallory.receive_until("error", "replays"))
    assert answers[0] == {"v": answers[0]["v"], "t": "replays", "games": []}
    assert any(a["t"] == "error" and not a["fatal"] for a in answers)
    # The machinations game at 10 is the longest: every step and part fits, through any eyes.
    public = host.create_table("machinations", 10, {}, bots=10, seed=6, public_replays=True)
    host.seed_bots(public, 6)
    await play_to_the_end(host, public)
    watcher = await RawPeer.join(host.address[1], "Watcher")
    steps = len(host.tables[public].game.history)
    for eyes in (0, 9, "spectator", "all"):
        for number in range(0, steps + 1, 7):
            await watcher.send({"t": "replay", "game": game_ref(public, 1), "eyes": eyes,
                                "step": number})
            answer = await watcher.receive_until("replay", "error")
            assert answer["t"] == "replay", answer
    parts, part = 1, 0
    while part < parts:
        await watcher.send({"t": "record", "game": game_ref(public, 1), "part": part})
        answer = await watcher.receive_until("record", "error")
        parts, part = answer["parts"], part + 1
    assert parts > 1
    sizes = _frame_sizes(watcher.received)
    assert max(sizes) <= SENT_FRAME
    mallory.writer.close()
    watcher.writer.close()


def _frame_sizes(data: bytes) -> list[int]:
    sizes, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        sizes.append(4 + length)
        at += 4 + length
    return sizes

"""A host, 5 clients and a spectator play a full Time Bomb game with 3 seats held by bots, and
every frame any client receives is checked against what its own view allows."""

from __future__ import annotations

import asyncio

import msgpack

import engine
from netplay.client import Connection
from netplay.frames import decode_body
from netplay.legal import pack_legal
from netplay.protocol import Act, Error, State

from .conftest import TIMEOUT, assert_view_of, play, watch

SEED = 0x5EED_0F_5EC2E7  # distinctive, so its bytes would stand out in a frame


def without_events(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "events"}


def legitimate_frames(game_id, players, options, seed, history):
    """Every (view without its events, legal) each viewer may be sent at some point of this
    game, packed."""
    game = engine.new_game(game_id, players, options, seed)
    viewers = [*range(players), engine.SPECTATOR]
    allowed = {viewer: set() for viewer in viewers}

    def snapshot():
        for viewer in viewers:
            legal = game.legal_actions(viewer) if viewer >= 0 else []
            allowed[viewer].add(msgpack.packb([without_events(game.view(viewer)),
                                               pack_legal(legal)]))

    snapshot()
    for seat, action in history:
        game.apply(seat, action)
        snapshot()
    return allowed


async def test_full_game_five_clients_three_bots_and_a_spectator_leak_nothing(host):
    table_id = host.create_table("timebomb", 8, name="Baker Street", bots=3, seed=SEED,
                                 start_when_full=True)
    port = host.address[1]
    frames: dict[str, list[bytes]] = {}

    def recorder(who):
        frames[who] = []
        return frames[who].append

    spectator = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                         name="Watson", table=table_id,
                                         spectate=True, on_frame=recorder("spectator"))
    players = []
    for i in range(5):
        players.append(await Connection.connect("127.0.0.1", port, code=host.table_code,
                                                name=f"Player {i}",
                                                table=table_id, on_frame=recorder(f"seat {i}")))
    assert [p.seat for p in players] == [0, 1, 2, 3, 4]
    assert spectator.seat is None and spectator.token is None

    finals = await asyncio.wait_for(
        asyncio.gather(watch(spectator), *(play(p, seed=i) for i, p in enumerate(players))),
        TIMEOUT,
    )
    game = host.tables[table_id].game
    assert game.outcome is not None
    referee = game.view(engine.REFEREE)
    # Everyone ends on the same public facts; each player on its own final view.
    assert_view_of(finals[0], game.view(engine.SPECTATOR))
    for seat, final in enumerate(finals[1:]):
        assert_view_of(final, game.view(seat))

    allowed = legitimate_frames("timebomb", 8, game.options, SEED, game.history)
    tokens = {f"seat {p.seat}": p.token for p in players}
    seed_bytes = [msgpack.packb(SEED), str(SEED).encode(), SEED.to_bytes(8, "big")]
    states = 0
    for who, received in frames.items():
        viewer = engine.SPECTATOR if who == "spectator" else int(who.split()[1])
        for raw in received:
            for other, token in tokens.items():
                if other != who:
                    assert token.encode() not in raw, f"{who} received {other}'s token"
            for pattern in seed_bytes:
                assert pattern not in raw, f"{who} received the seed"
            msg = decode_body(raw[4:])
            if msg["t"] == "state":
                states += 1
                assert msg["seat"] == (None if viewer == engine.SPECTATOR else viewer)
                packed = msgpack.packb([msg["view"], msg["legal"]])
                assert packed in allowed[viewer], f"{who} got a state its view does not allow"
                # Its events are the next ones of its own view's log, and no others.
                events = game.view(viewer)["events"]
                first = msg["first"]
                assert msg["events"] == events[first:first + len(msg["events"])], who
                if msg["view"]["outcome"] is None:
                    # Before the reveal: no one else's role or hand, whatever the wording.
                    assert "roles" not in msg["view"] and "hands" not in msg["view"]
                    roles = [e for e in msg["events"] if e["type"] == "role"]
                    own = [] if viewer < 0 or first > 0 else [referee["roles"][viewer]]
                    assert [e["role"] for e in roles] == own
                    hands = [e for e in msg["events"] if e["type"] == "hand"]
                    assert viewer >= 0 or not hands
            elif msg["t"] == "welcome" and viewer >= 0:
                assert msg["token"] == tokens[who]
            else:
                assert "view" not in msg
    assert states > 6 * 5
    for conn in (spectator, *players):
        await conn.close()


async def test_spectator_cannot_act_and_sees_no_legal_actions(host):
    table_id = host.create_table("timebomb", 4, bots=4, start_when_full=True)
    spectator = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                         name="Lestrade",
                                         table=table_id, spectate=True)
    log = []
    final = await asyncio.wait_for(watch(spectator, log), TIMEOUT)
    assert final["outcome"] is not None
    assert all(m.legal == [] for m in log if isinstance(m, State))
    await spectator.send(Act({"type": "cut", "target": 1}))
    error = await spectator.next_message(5)
    assert isinstance(error, Error) and "only a seated player may act" in error.message
    await spectator.close()

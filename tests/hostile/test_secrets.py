"""Secrets at every edge. Full networked games of every game in `engine.GAMES`, with raw
clients that record every byte they receive: the handshake, every sync, a resync after a
reconnect, errors, chat, the end of the game, and the zeroconf TXT record (on loopback only).
No client may get another seat's secret or token, nor the seed; neither may the host's log or
its stdout hold them.

What counts as a secret is taken from the engine generically, so games merged later are
covered: every event whose audience leaves a viewer out must not reach that viewer, and every
state a viewer gets must be exactly that viewer's view at some point of the game.
"""

from __future__ import annotations

import asyncio
import logging
import random

import msgpack
import pytest

import engine
from netplay import announcement, discovery
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.legal import pack_legal

from support.secrets import hidden_from, scan, seed_patterns

from .conftest import (
    TIMEOUT,
    HostProcess,
    RawPeer,
    client_moves,
    sent_view,
    stored_table,
    watch_to_the_end,
)

GAME_IDS = sorted(engine.GAMES)
SEED = 0x5EED_0F_5EC2E7  # distinctive: its bytes would stand out anywhere
BAIT = "nope-not-an-action"


def table_size(game_id: str) -> int:
    cls = engine.GAMES[game_id]
    return min(max(cls.min_players, 5), cls.max_players)


class Seat:
    """One player's side: its raw connection (replaced on reconnect) and every byte it got."""

    def __init__(self, peer: RawPeer, name: str):
        self.peer, self.name = peer, name
        self.received = bytearray()
        self.states: list[dict] = []
        self.refusals: list[str] = []

    def retire(self) -> None:
        self.received += self.peer.received
        self.peer.received.clear()
        self.peer.close()

    def all_bytes(self) -> bytes:
        return bytes(self.received + self.peer.received)


async def play_seat(seat: Seat, port: int, rng: random.Random, reconnect_at: int | None):
    """Play with random legal moves; chat and try a bogus action on the first state; drop
    the link and come back with the token after `reconnect_at` states."""
    first = True
    while True:
        message = await seat.peer.receive(TIMEOUT)
        if message["t"] == "error":
            # The refusal of its bogus action, or of a move made from a state that another
            # seat's move overtook (in simultaneous phases): never fatal, and scanned too.
            assert not message["fatal"], message
            seat.refusals.append(message["message"])
            continue
        if message["t"] != "state":
            continue
        seat.states.append(message)
        view = message["view"]
        if view["outcome"] is not None:
            return view
        if first:
            first = False
            await seat.peer.send({"t": "chat", "text": f"{seat.name} says: trust me"})
            await seat.peer.send({"t": "act", "action": {"type": BAIT}})
        # The refusal of the bait must be in before the link drops: the bots' moves may be
        # sent ahead of it, and a frame the old link never read is lost with it.
        if reconnect_at is not None and len(seat.states) >= reconnect_at and seat.refusals:
            reconnect_at = None
            token = seat.peer.token
            seat.retire()
            seat.peer = await RawPeer.join(port, seat.name, token=token)
            continue  # the resync's state asks again
        moves = client_moves(view["game"], message["legal"])
        if moves and message["seat"] in view["to_act"]:
            await seat.peer.send({"t": "act", "action": rng.choice(moves)})


def allowed_states(game: engine.Game, viewers) -> dict[int, set[bytes]]:
    """Every (view without events, legal) each viewer may be sent at some point of `game`,
    replayed."""
    replay = engine.new_game(game.id, game.players, game.options, game.seed)
    allowed = {viewer: set() for viewer in viewers}

    def snapshot():
        for viewer in viewers:
            legal = replay.legal_actions(viewer) if viewer >= 0 else []
            allowed[viewer].add(msgpack.packb([sent_view(replay, viewer), pack_legal(legal)]))

    snapshot()
    for seat, action in game.history:
        replay.apply(seat, action)
        snapshot()
    return allowed


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_byte_to_every_client_keeps_the_other_seats_secrets(
        tmp_path, monkeypatch, caplog, game_id):
    caplog.set_level(logging.DEBUG)
    txt_records: list[bytes] = []
    publish = discovery.Advertiser.publish

    async def recording_publish(self, summary, port, addresses, fingerprint):
        await publish(self, summary, port, addresses, fingerprint)
        txt_records.append(self._infos[summary["id"]].text)

    monkeypatch.setattr(discovery.Advertiser, "publish", recording_publish)
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002), advertise=True,
                interfaces=["127.0.0.1"])
    await host.start("127.0.0.1", 0)
    try:
        await run_game_and_scan(host, game_id, caplog, txt_records)
    finally:
        await host.stop()


async def run_game_and_scan(host: Host, game_id: str, caplog, txt_records) -> None:
    players = table_size(game_id)
    humans = players - 1  # and one bot, on the host
    table_id = host.create_table(game_id, players, name="Baker Street", bots=1, seed=SEED,
                                 start_when_full=True)
    port = host.address[1]
    browser = discovery.TableBrowser(interfaces=["127.0.0.1"])
    await browser.__aenter__()
    fan = await RawPeer.join(port, "Watson", table=table_id, spectate=True)
    lurker = await RawPeer.join(port, "Lurker")  # in the lobby: tables list only
    seats = [Seat(await RawPeer.join(port, f"Player {i}", table=table_id), f"Player {i}")
             for i in range(humans)]
    assert [s.peer.seat for s in seats] == list(range(humans))
    tokens = {i: s.peer.token for i, s in enumerate(seats)}
    await fan.send({"t": "chat", "text": "Player 0 is the villain"})
    finals = await asyncio.wait_for(asyncio.gather(
        watch_to_the_end(fan),
        *(play_seat(s, port, random.Random(i), reconnect_at=3 if i == humans - 1 else None)
          for i, s in enumerate(seats))), TIMEOUT * 2)
    await lurker.send({"t": "list_tables"})
    await lurker.receive_until("tables")
    found = []

    async def browse():
        async for event in browser:
            found.append(event.table)
            if event.table.id == table_id:
                return

    try:
        await asyncio.wait_for(browse(), 10)
    finally:
        await browser.close()

    game = host.tables[table_id].game
    assert game.outcome is not None
    assert finals[0] == sent_view(game, engine.SPECTATOR)
    assert all(final == sent_view(game, i) for i, final in enumerate(finals[1:]))
    assert seats[-1].received  # the reconnected seat's bytes from before the drop are kept
    assert all(s.refusals for s in seats)

    viewers = [*range(humans), engine.SPECTATOR]
    # A game with private events must give the scan something to look for.
    if any(event.audience is not None for event in game.events):
        assert hidden_from(game, engine.SPECTATOR)[0]
    allowed = allowed_states(game, viewers)
    everyone_tokens = [t.encode() for t in tokens.values()]
    streams = {i: seats[i].all_bytes() for i in range(humans)}
    streams[engine.SPECTATOR] = bytes(fan.received)
    checked_states = 0
    for viewer, data in streams.items():
        packed_events, texts = hidden_from(game, viewer)
        forbidden = {
            "the seed": seed_patterns(SEED),
            "another seat's token": [t.encode() for s, t in tokens.items() if s != viewer],
            "another seat's private event": sorted(packed_events),
            "another seat's private text": [t.encode() for t in sorted(texts)],
        }
        scan(f"the stream to viewer {viewer}", data, forbidden)
        for message in split_frames(data):
            if message["t"] == "state":
                checked_states += 1
                assert message["seat"] == (None if viewer < 0 else viewer)
                packed = msgpack.packb([message["view"], message["legal"]])
                assert packed in allowed[viewer], f"viewer {viewer} got a state not its own"
                events, first = game.view(viewer)["events"], message["first"]
                assert message["events"] == events[first:first + len(message["events"])]
            else:
                assert "view" not in message and "legal" not in message
                if message["t"] == "welcome":
                    assert message["token"] == (None if viewer < 0 else tokens[viewer])
                if message["t"] == "chat" and viewer >= 0:
                    assert message["channel"] == "table", "a player heard the spectators"
    assert checked_states > len(game.history)

    public = {"the seed": seed_patterns(SEED), "a token": everyone_tokens,
              "a private event": sorted(set().union(*(hidden_from(game, v)[0]
                                                      for v in viewers))),
              "a private text": [t.encode() for t in sorted(set().union(
                  *(hidden_from(game, v)[1] for v in viewers)))]}
    scan("the lobby client's stream", bytes(lurker.received), public)
    assert txt_records, "the table was never announced"
    for record in txt_records:
        scan("a zeroconf TXT record", record, public)
        keys = {item.split(b"=")[0].decode() for item in txt_entries(record)}
        assert keys <= set(announcement.TXT_KEYS)
    mine = [t for t in found if t.id == table_id]
    assert mine and mine[-1].host == "127.0.0.1" and mine[-1].name == "Baker Street"
    scan("the host's log", caplog.text.encode(), public)


def split_frames(data: bytes) -> list[dict]:
    messages, offset = [], 0
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 4], "big")
        messages.append(msgpack.unpackb(data[offset + 4:offset + 4 + length], raw=False))
        offset += 4 + length
    return messages


def txt_entries(record: bytes) -> list[bytes]:
    entries, offset = [], 0
    while offset < len(record):
        length = record[offset]
        entries.append(record[offset + 1:offset + 1 + length])
        offset += 1 + length
    return entries


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_the_host_process_prints_and_logs_no_secret(tmp_path, game_id):
    players = table_size(game_id)
    host = HostProcess(tmp_path / "data", tmp_path, "--game", game_id, "--players",
                       str(players), "--bots", str(players - 1), "--seed", str(SEED),
                       "--start-when-full").start()
    try:
        (table_id,) = host.tables
        seat = Seat(await RawPeer.join(host.port, "Ann", table=table_id), "Ann")
        fan = await RawPeer.join(host.port, "Fan", table=table_id, spectate=True)
        await asyncio.wait_for(asyncio.gather(
            play_seat(seat, host.port, random.Random(0), reconnect_at=2),
            watch_to_the_end(fan)), TIMEOUT)
        token = seat.peer.token
        seat.retire()
        fan.close()
    finally:
        host.stop()
    assert "game over" in host.log and "reconnected" in host.log
    game = stored_table(host.data_dir, table_id).game
    assert game.outcome is not None
    secrets = {"the seed": seed_patterns(SEED), "the token": [token.encode()],
               "a private text": [t.encode() for t in sorted(set().union(
                   *(hidden_from(game, v)[1] for v in (0, engine.SPECTATOR))))]}
    scan("the host's stdout", host.stdout.encode(), secrets)
    scan("the host's log", host.log.encode(), secrets)

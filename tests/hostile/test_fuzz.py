"""Fuzzing a live host: thousands of random and mutated frames, from connections of every
kind, while a game is in progress. Afterwards the host answers, the game finishes as its store
says it should, and the host's memory has not grown without bound."""

from __future__ import annotations

import contextlib
import random
import socket
import struct
import time

import msgpack
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import engine
from netplay.protocol import CLIENT_TAGS

from .conftest import HostProcess, frame, sent_view, stored_table, tls_context

pytestmark = pytest.mark.xdist_group("fuzz")

PLAYERS = 4
EXAMPLES = 110
DRAWN_PER_EXAMPLE = (8, 12)
MUTANTS_PER_EXAMPLE = 40
"""Besides the frames hypothesis draws, each example sends cheap byte-level mutants of them:
drawing every frame through hypothesis would take most of the test's time."""
MIN_FRAMES = 5000
FUZZ_SOURCE = "127.0.0.2"  # its own address, so that its token guesses lock out no player
RSS_TOLERANCE = 12 * 1024 * 1024


class SyncPeer:
    """A blocking raw-socket client, for the fuzzing thread."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.sock = tls_context().wrap_socket(
            socket.create_connection(("127.0.0.1", port), timeout=5,
                                     source_address=(source, 0)),
            server_hostname="gaslight")
        self.buffer = bytearray()
        self.inbox: list[dict] = []
        self.seat = None

    def send(self, message: dict) -> None:
        self.sock.sendall(frame(message))

    def pump(self, wait: float = 0.0) -> list[dict]:
        """Read what has arrived (waiting up to `wait` for the first bytes) into the inbox;
        return the whole messages it held."""
        self.sock.settimeout(wait if wait else 0.000001)
        try:
            while chunk := self.sock.recv(1 << 16):
                self.buffer += chunk
                self.sock.settimeout(0.000001)
        except (TimeoutError, BlockingIOError, socket.timeout):
            pass
        messages = []
        while len(self.buffer) >= 4:
            length = struct.unpack(">I", self.buffer[:4])[0]
            if len(self.buffer) < 4 + length:
                break
            messages.append(msgpack.unpackb(bytes(self.buffer[4:4 + length]), raw=False))
            del self.buffer[:4 + length]
        self.inbox += messages
        return messages

    def until(self, tag: str, timeout: float = 10.0) -> dict:
        """The next message tagged `tag`, dropping the ones before it."""
        deadline = time.monotonic() + timeout
        while True:
            while self.inbox:
                message = self.inbox.pop(0)
                if message["t"] == tag:
                    return message
            if time.monotonic() > deadline:
                break
            self.pump(0.05)
        raise TimeoutError(f"no {tag!r} within {timeout} s")

    def close(self) -> None:
        self.sock.close()


def first_cut(legal: list[dict]) -> dict:
    return next(a for a in legal if a["type"] == "cut")


def quiet_seed() -> int:
    """A seed whose game is still running after three first-legal-cut moves."""
    for seed in range(10_000):
        game = engine.new_game("timebomb", PLAYERS, {}, seed)
        for _ in range(3):
            (seat,) = game.to_act()
            game.apply(seat, first_cut(game.legal_actions(seat)))
        if game.outcome is None:
            return seed
    raise AssertionError("no quiet seed")


# -- what the fuzzer sends --------------------------------------------------------------------

FIELDS = ["v", "t", "name", "token", "table", "spectate", "game", "players", "options", "bots",
          "seat", "action", "text", "type", "target", "defusing", "bomb"]
integers = st.integers(-2**63, 2**64 - 1)  # what msgpack can carry
scalars = (st.none() | st.booleans() | integers | st.floats()
           | st.text(max_size=30) | st.binary(max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5) | integers, inner,
                      max_size=4),
    max_leaves=8,
)


def tagged(fields: dict, tag, version) -> dict:
    return {**fields, "t": tag, "v": version}


messages = st.builds(
    tagged,
    st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), values, max_size=5),
    st.sampled_from(sorted(CLIENT_TAGS)) | st.text(max_size=10),
    st.sampled_from([1, 1, 1, 1, 2, 0, "1", None, True, 1.0]),
)


def packed(message: dict) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def valid_frames(table_id: str) -> list[bytes]:
    """Well-formed requests of every kind, for mutation (and some to send as they are)."""
    return [frame(m) for m in [
        {"t": "hello", "name": "Fuzz"},
        {"t": "hello", "name": "Fuzz", "table": table_id, "spectate": True},
        {"t": "hello", "name": "Fuzz", "token": "A" * 32},
        {"t": "act", "action": {"type": "cut", "target": 1}},
        {"t": "act", "action": {"type": "claim", "defusing": 1, "bomb": 0}},
        {"t": "sit", "table": table_id, "seat": 0},
        {"t": "create_table", "game": "timebomb", "players": 4, "options": {}, "bots": 2},
        {"t": "add_bot", "table": table_id},
        {"t": "chat", "text": "hello \x1b[2J"},
        {"t": "list_tables"}, {"t": "ping"}, {"t": "start"}, {"t": "leave"},
        {"t": "play_again"},
    ]]


def random_edits(rng: random.Random) -> list[tuple[int, int, int]]:
    return [(rng.randrange(3), rng.randrange(1 << 16), rng.randrange(256))
            for _ in range(rng.randint(1, 4))]


def mutate(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    out = bytearray(data)
    for op, where, byte in edits:
        at = where % (len(out) + 1)
        if op == 0 and out:
            out[at % len(out)] = byte
        elif op == 1:
            out.insert(at, byte)
        elif out:
            del out[at % len(out)]
    return bytes(out)


def framed(message) -> bytes:
    return frame(packed(message))


def fuzz_frames(table_id: str):
    return st.one_of(
        messages.map(framed),
        st.sampled_from(valid_frames(table_id)),
        st.binary(max_size=80).map(frame),
        st.binary(min_size=1, max_size=40),
        values.map(framed),
    )


# -- the test ---------------------------------------------------------------------------------


def test_thousands_of_hostile_frames_leave_the_host_and_its_game_whole(tmp_path):
    seed = quiet_seed()
    host = HostProcess(tmp_path / "data", tmp_path, "--game", "timebomb", "--players",
                       str(PLAYERS), "--seed", str(seed), "--start-when-full").start()
    try:
        run_fuzz(host, seed, tmp_path)
    finally:
        host.stop()


def run_fuzz(host: HostProcess, seed: int, tmp_path) -> None:
    (table_id,) = host.tables
    players = []
    for i in range(PLAYERS):
        peer = SyncPeer(host.port)
        peer.send({"t": "hello", "name": f"P{i}", "table": table_id})
        peer.seat = peer.until("welcome")["seat"]
        players.append(peer)
    fan = SyncPeer(host.port)
    fan.send({"t": "hello", "name": "Fan", "table": table_id, "spectate": True})
    fan.until("welcome")
    latest = {p.seat: p.until("state") for p in players}
    for _ in range(3):  # a game in progress: three moves made
        latest = advance(players, latest, first_cut)

    sent = 0
    rss: list[int] = []

    # No shrinking: a failure here is a host bug to read in its log, and shrinking thousands
    # of frames against a live process takes minutes.
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(["raw", "lobby", "spectator"]),
           st.lists(fuzz_frames(table_id), min_size=DRAWN_PER_EXAMPLE[0],
                    max_size=DRAWN_PER_EXAMPLE[1]),
           st.randoms(use_true_random=False))
    def fuzz(stage, drawn, rng):
        nonlocal sent
        pool = drawn + valid_frames(table_id)
        frames = drawn + [mutate(rng.choice(pool), random_edits(rng))
                          for _ in range(MUTANTS_PER_EXAMPLE)]
        rng.shuffle(frames)
        hello = {"t": "hello", "name": "Fuzz"}
        if stage == "spectator":
            hello.update(table=table_id, spectate=True)
        peer = None
        for data in frames:
            for attempt in range(2):
                # A connection the host hung up on is replaced, so every frame goes out.
                try:
                    if peer is None:
                        peer = SyncPeer(host.port, FUZZ_SOURCE)
                        if stage != "raw":
                            peer.send(hello)
                    peer.sock.sendall(data)
                    sent += 1
                    break
                except OSError:
                    if peer is not None:
                        peer.close()
                    peer = None
        if peer is not None:
            with contextlib.suppress(OSError):
                peer.pump()
            peer.close()
        # The players and the spectator keep reading and pinging, as real clients do.
        for p in (*players, fan):
            p.pump()
            for message in p.inbox:
                if message["t"] == "state" and p is not fan:
                    latest[p.seat] = message
            p.inbox.clear()
            p.send({"t": "ping"})
        if len(rss) == 0 and sent > MIN_FRAMES // 5:
            rss.append(host.rss())

    started = time.monotonic()
    fuzz()
    elapsed = time.monotonic() - started
    assert sent >= MIN_FRAMES
    rss.append(host.rss())

    # The host answers every kind of client.
    for p in (*players, fan):
        p.send({"t": "ping"})
        p.until("pong")
    lobby = SyncPeer(host.port)
    lobby.send({"t": "hello", "name": "After"})
    lobby.until("welcome")
    lobby.send({"t": "list_tables"})
    tables = lobby.until("tables")["tables"]
    assert table_id in [t["id"] for t in tables]

    # The game finishes, and exactly as its store replays.
    rng = random.Random(seed)
    while (state := next(iter(latest.values())))["view"]["outcome"] is None:
        latest = advance(players, latest, lambda legal: rng.choice(
            [a for a in legal if a["type"] == "cut"]))
    while (watched := fan.until("state"))["view"]["outcome"] is None:
        pass
    table = stored_table(host.data_dir, table_id)
    assert table.game.outcome is not None
    for peer in players:
        assert latest[peer.seat]["view"] == sent_view(table.game, peer.seat)
    assert watched["view"] == sent_view(table.game, engine.SPECTATOR)
    assert len(table.game.history) == len(state["view"]["revealed"])
    growth = rss[-1] - rss[0]
    print(f"fuzz: {sent} frames in {elapsed:.1f} s, {len(tables)} tables, host RSS {rss[0] / 2**20:.1f} MiB "
          f"after warm-up, {rss[-1] / 2**20:.1f} MiB at the end")
    assert growth < RSS_TOLERANCE, f"host RSS grew by {growth / 2**20:.1f} MiB"
    for p in (*players, fan, lobby):
        p.close()


def advance(players, latest, choose):
    """The seat to act makes one move; return everyone's next state."""
    view = next(iter(latest.values()))["view"]
    (seat,) = view["to_act"]
    mover = next(p for p in players if p.seat == seat)
    mover.send({"t": "act", "action": choose(latest[seat]["legal"])})
    return {p.seat: p.until("state") for p in players}

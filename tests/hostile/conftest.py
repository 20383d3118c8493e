"""Shared fixtures for the hostile-client tests: a real host on 127.0.0.1 and a hand-written
client that speaks the wire format from raw bytes.

`RawPeer` deliberately does not use `netplay.client` or `netplay.protocol`: it frames and
unframes msgpack itself, so that a bug in the project's own encoder cannot hide a bug in the
host, and so that it can send anything a modified client could.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import re
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import msgpack

import engine
from netplay.host import Host
from netplay.frames import PROTOCOL_VERSION as VERSION
from netplay.legal import unpack_legal
from netplay.transport import client_context
from support.hosts import TIMEOUT, host, private_data_dir, stored_table  # noqa: F401


def sent_view(game: engine.Game, viewer: int) -> dict:
    """The view a `state` frame carries: the engine's view without its events, which travel
    beside it (see PROTOCOL.md, "Events")."""
    return game.view(viewer, events=False)


def frame(message: dict | bytes) -> bytes:
    """A length-prefixed frame: `message` packed (a dict gets the protocol version unless it has a "v"),
    or raw body bytes as given."""
    if isinstance(message, dict):
        body = msgpack.packb({"v": VERSION, **message}, use_bin_type=True)
    else:
        body = message
    return struct.pack(">I", len(body)) + body



tls_context = client_context  # the library's own: TLS 1.3, no authority


class RawPeer:
    """One TCP connection to the host, driven by hand. Every byte received is kept in
    `received`, so that tests can scan all of it for secrets."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.received = bytearray()
        self.messages: list[dict] = []
        self.seat: int | None = None
        self.token: str | None = None
        self.table: str | None = None

    @classmethod
    async def open(cls, port: int, source: str | None = None, tls: bool = True) -> "RawPeer":
        """A connection from `source` (an address of 127/8), over TLS (its own context, which
        trusts any key: the host lets anyone reach a table that is not private), or in the
        clear as a protocol 2 client would be."""
        local = (source, 0) if source else None
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            "127.0.0.1", port, local_addr=local, ssl=tls_context() if tls else None,
            server_hostname="gaslight" if tls else None), TIMEOUT)
        return cls(reader, writer)

    @classmethod
    async def join(cls, port: int, name: str, source: str | None = None, **hello) -> "RawPeer":
        """Connect and say hello; returns once the welcome arrives (AssertionError on error)."""
        peer = await cls.open(port, source)
        await peer.send({"t": "hello", "name": name, **hello})
        welcome = await peer.receive_until("welcome", "error")
        assert welcome["t"] == "welcome", f"{name} was refused: {welcome.get('message')}"
        return peer

    async def send(self, message: dict) -> None:
        await self.send_bytes(frame(message))

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def receive(self, timeout: float = 5.0) -> dict:
        async def read() -> dict:
            header = await self.reader.readexactly(4)
            body = await self.reader.readexactly(struct.unpack(">I", header)[0])
            self.received += header + body
            return msgpack.unpackb(body, raw=False)

        message = await asyncio.wait_for(read(), timeout)
        self.messages.append(message)
        if message["t"] == "welcome":
            self.seat, self.token, self.table = (message["seat"], message["token"],
                                                 message["table"])
        return message

    async def receive_until(self, *tags: str, timeout: float = 5.0, **fields) -> dict:
        async def find() -> dict:
            while True:
                message = await self.receive(timeout)
                if message["t"] in tags and all(message.get(k) == v for k, v in fields.items()):
                    return message

        return await asyncio.wait_for(find(), timeout)

    async def drain_quiet(self, quiet: float = 0.05) -> list[dict]:
        """Every message that arrives until none has come for `quiet` seconds."""
        got = []
        while True:
            try:
                got.append(await self.receive(quiet))
            except asyncio.TimeoutError:
                return got

    async def ping(self, timeout: float = 5.0) -> None:
        await self.send({"t": "ping"})
        await self.receive_until("pong", timeout=timeout)

    async def closed_by_host(self, timeout: float = 5.0) -> bool:
        """True once the host has closed the connection (EOF), after any last frames."""
        try:
            while chunk := await asyncio.wait_for(self.reader.read(65536), timeout):
                self.received += chunk
        except ConnectionError:
            pass
        return True

    def close(self) -> None:
        self.writer.close()


def client_moves(game_id: str, legal: list[dict]) -> list[dict]:
    """The legal actions that advance the game (free actions such as claims left out), from a
    state's packed `legal`."""
    free = engine.GAMES[game_id].FREE_ACTIONS
    return [a for a in unpack_legal(legal) if a["type"] not in free]


async def play_to_the_end(peer: RawPeer, seed: int = 0, think: float = 0.0,
                          stale_ok: bool = False) -> dict:
    """Play `peer`'s seat with random legal moves from the states it receives until the game
    is over; return the final view. Errors fail the test, unless `stale_ok`: then a refusal of
    a move made from a state that a burst of later ones had already overtaken is expected."""
    rng = random.Random(seed)
    while True:
        message = await peer.receive(TIMEOUT)
        if message["t"] == "error" and stale_ok and not message["fatal"]:
            continue
        if message["t"] == "error":
            raise AssertionError(f"seat {peer.seat} got an error: {message['message']}")
        if message["t"] != "state":
            continue
        view = message["view"]
        if view["outcome"] is not None:
            return view
        moves = client_moves(view["game"], message["legal"])
        if moves and message["seat"] in view["to_act"]:
            if think:
                await asyncio.sleep(think)
            await peer.send({"t": "act", "action": rng.choice(moves)})


async def watch_to_the_end(peer: RawPeer) -> dict:
    while True:
        message = await peer.receive(TIMEOUT)
        if message["t"] == "state" and message["view"]["outcome"] is not None:
            return message["view"]


@functools.cache
def slow_seed(players: int) -> int:
    """A seed whose game survives its first cuts (seat 0 cuts seat 1, then seat 1 cuts seat
    0), so that tests may make them and still have a game in progress."""
    for seed in range(1000):
        game = engine.new_game("timebomb", players, {"first_player": 0}, seed)
        game.apply(0, {"type": "cut", "target": 1})
        if game.outcome is None:
            game.apply(1, {"type": "cut", "target": 0})
            if game.outcome is None:
                return seed
    raise AssertionError("no seed survives two cuts")


async def seated_table(host: Host, humans: int = 2, players: int = 4) -> tuple[
        str, list[RawPeer]]:
    """A Time Bomb table with `humans` raw peers in the first seats and bots in the rest,
    seat 0 holding the Wire Cutter, so the game waits for a human from the start. Its seed
    lets the first two cuts (0 cuts 1, 1 cuts 0) leave the game running."""
    table_id = host.create_table("timebomb", players, {"first_player": 0},
                                 bots=players - humans, seed=slow_seed(players),
                                 start_when_full=True)
    peers = [await RawPeer.join(host.address[1], f"P{i}", table=table_id)
             for i in range(humans)]
    for peer in peers:
        await peer.receive_until("state")
    # The bots claim right after the deal, as people do: let them finish before a test watches
    # for frames or changes.
    game = host.tables[table_id].game
    while {seat for seat, action in game.history if action["type"] == "claim"} != set(
            range(humans, players)):
        await asyncio.sleep(0.005)
    for peer in peers:
        await peer.drain_quiet()
    return table_id, peers


def moves(game: engine.Game) -> list[tuple[int, dict]]:
    """The history's moves, without the claims bots make by themselves."""
    return [(seat, action) for seat, action in game.history if action["type"] != "claim"]


def snapshot(host: Host, table_id: str) -> tuple:
    """Everything a refused request must leave unchanged: the game (as the referee sees it,
    and its history), the seats and what the host has stored."""
    table = host.tables[table_id]
    game = table.game
    return (
        None if game is None else (list(game.history), game.view(engine.REFEREE)),
        [(s.kind, s.name, s.token_hash, s.bot, s.covered) for s in table.seats],
        table.host_seat,
        host.store.appended,
    )


ROOT = Path(__file__).resolve().parents[2]


class HostProcess:
    """`gaslight host` in its own process on 127.0.0.1, as a user runs it, with its stdout and
    its log (stderr) going to files so that a chatty host never blocks on a full pipe."""

    def __init__(self, data_dir: Path, logs: Path, *args: str, port: int = 0,
                 env: dict | None = None, bot_delay: float = 0.002):
        self.data_dir, self.args, self.port, self.bot_delay = data_dir, args, port, bot_delay
        self.env = {**os.environ, **(env or {})}
        logs.mkdir(parents=True, exist_ok=True)
        self.stdout_path = logs / f"host-{id(self)}.out"
        self.stderr_path = logs / f"host-{id(self)}.log"
        self.process: subprocess.Popen | None = None
        self.tables: list[str] = []

    def start(self, timeout: float = TIMEOUT) -> "HostProcess":
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tui.cli", "host", "--interface", "127.0.0.1",
                 "--port", str(self.port), "--no-announce", "--data-dir", str(self.data_dir),
                 "--bot-delay", str(self.bot_delay), *self.args],
                stdout=out, stderr=err, cwd=ROOT, env=self.env,
            )
        deadline = time.monotonic() + timeout
        while "players join with" not in self.stdout:
            if self.process.poll() is not None:
                raise RuntimeError(f"host exited ({self.process.returncode}): {self.log}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"host did not start: {self.log}")
            time.sleep(0.01)
        self.port = int(re.findall(r"listening on 127\.0\.0\.1:(\d+)", self.stdout)[-1])
        self.tables = re.findall(r"^table (\w+):", self.stdout, re.MULTILINE)
        return self

    @property
    def stdout(self) -> str:
        return self.stdout_path.read_text(errors="replace")

    @property
    def log(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def rss(self) -> int:
        """The host's resident memory in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1]) * 1024

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

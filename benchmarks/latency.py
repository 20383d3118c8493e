"""Action to screen over loopback: from a client sending an action until the last of the N
clients at that table has received its view, p50 and p99, at 5 and at 10 players.

    uv run python benchmarks/latency.py [--players 5 10] [--runs 5] [--actions 400]
                                        [--transport tls|plain|both]

The host runs in its own process on 127.0.0.1 (its store on the real disk, fsynced, as in play);
the N players are lean protocol clients in this process (see `Player`), playing the game's
random bot from their own views, one action in flight at a time. A sample ends when the last
byte of the `state` that action caused has reached every player's socket, as the kernel
stamps it (SO_TIMESTAMPNS). When this process got round to reading it is printed apart: with
the N players in one process on a machine the host shares, that later time also holds each
player's wait for the others and for a core, which a player on its own machine does not have.
A player decrypts and decodes its bytes after they are stamped, for the same reason; what that
adds to a player's own view is printed apart too (`decrypt us`; `decode us` is in frames.py).
Each run is a fresh table; a finished game is followed by `play_again`.
The figures are the medians of the runs' p50 and p99. When no game seats N players, the
largest table on offer stands in, and the output says so.

No view leaves the host before its action is durable, so every sample holds one fdatasync of
the store's disk: the output first gives that disk's own fdatasync times, taken just before,
as the floor under the figures. Each table size then first gives the CPU part of a move: its
frames built in this process alone, with no network, store or threads.

Every connection is TLS 1.3, as in play. With `--transport both` (the default) each size is
measured against a second host with no TLS too (a switch of this benchmark's host only: no
Gaslight host runs so), its runs alternating with the TLS host's and playing the same actions,
and the ratio of the p99s is printed: the goal is at most 1.25 at 10 players.

The TLS fan-out floor is measured in the same run: after each TLS run, as many samples of a
server in its own process that has the host's door, key, socket settings and framing and
nothing else (`serve_floor`), where a client's action-sized frame asks for one frame of the
median state's size, written to all N clients as the host writes a state. Its p50 and p99,
timed as the host's figure is (from the ask to the kernel's stamp at the last socket), and of
the fan-out alone (from the server's stamp), are printed, and the TLS p99 over the floor's:
the goal is at most 5x at 10 players. The floor has no engine, store or fsync: at 10 players
the host's p99 holds one fdatasync of its disk, whose own p99 is printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import random
import signal
import socket
import ssl
import struct
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

# harness first: it keeps scripts in this folder from shadowing the engine package.
from harness import (HostProcess, machine_note, median, percentile, process_cpu_seconds,
                     spread, stalls_note, table_frames)

import engine  # noqa: E402
from netplay.connection import NOTHING_TOLD, SOCKET_SEND_BUFFER
from netplay.frames import HEADER_SIZE, decode_body, encode, message, read_frame
from netplay.legal import unpack_legal
from netplay.transport import Door, HostKey, Listener, client_context

TIMEOUT = 10.0
PREFERRED_GAMES = ("timebomb", "machinations")
"""The games to measure a player count with, in order, when the command line names none."""


def game_for(players: int, wanted: str | None) -> tuple[str, int]:
    """The game and player count that stand for an N-player table."""
    if wanted is not None:
        return wanted, players
    ordered = [g for g in PREFERRED_GAMES if g in engine.GAMES] + sorted(engine.GAMES)
    for game_id in ordered:
        cls = engine.GAMES[game_id]
        if cls.min_players <= players <= cls.max_players:
            return game_id, players
    biggest = max(ordered, key=lambda g: engine.GAMES[g].max_players)
    return biggest, engine.GAMES[biggest].max_players


SO_TIMESTAMPNS: Final = getattr(socket, "SO_TIMESTAMPNS", 35)
"""Linux's option (35; Python 3.11 does not name it) by which the kernel stamps each segment
as it reaches a socket, in CLOCK_REALTIME nanoseconds; a TCP read reports its last segment's."""
STAMP_SPACE: Final = socket.CMSG_SPACE(16)
"""Room for the stamp, a struct timespec."""


def kernel_stamps(sock: socket.socket) -> bool:
    """Ask the kernel to stamp what reaches `sock`; whether it will."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        return True
    return False


class Player:
    """A lean client for one seat, on a bare socket. Each read carries two times: when its
    last byte reached the socket (stamped by the kernel) and when this process read it. The
    first ends a sample: with N players in one process, the second also holds each player's
    wait for the others' turns on this process's core, which real players, each on their own
    machine, never have; it is printed apart, as what this harness adds. Bytes are decrypted
    and decoded only when asked, for the same reason; what a real client then adds for itself
    is measured apart (`decrypt us` here, `decode us` from frames.py)."""

    def __init__(self, sock: socket.socket, tls: bool) -> None:
        self.sock = sock
        self.seat: int | None = None
        self.tls: ssl.SSLObject | None = None
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        if tls:
            self.tls = client_context().wrap_bio(self._incoming, self._outgoing,
                                                 server_hostname="gaslight")
        self.received: collections.deque[tuple[int, int, bytes]] = collections.deque()
        """Bytes as they came off the socket, each read with when its last byte reached the
        socket and when it was read (time.time_ns())."""
        self.plain = bytearray()
        self.plain_times = (0, 0)
        """When the last byte now in `plain` reached the socket, and when it was read."""
        self._more = asyncio.Event()
        self._closed: ConnectionError | None = None
        self.decrypting: list[float] = []
        """Seconds each read's bytes took to decrypt."""
        self.state_sizes: list[int] = []
        """Bytes of each `state` frame received, its header included."""
        self._last_size = 0

    @classmethod
    async def connect(cls, port: int, tls: bool) -> "Player":
        """A connection to 127.0.0.1:`port`, its TLS handshake done unless `tls` is off."""
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        kernel_stamps(sock)  # else a read's time stands in, and `measure` says so
        player = cls(sock, tls)
        await loop.sock_connect(sock, ("127.0.0.1", port))
        loop.add_reader(sock.fileno(), player._readable)
        await player.handshake()
        return player

    @classmethod
    async def join(cls, port: int, name: str, table: str, tls: bool) -> "Player":
        """A seat at `table`; over TLS unless the host is the plaintext baseline. A table that
        is not private needs no pairing: the player trusts the host it started."""
        player = await cls.connect(port, tls)
        await player.send(message("hello", name=name, table=table))
        welcome = await player.next_message()
        if welcome["t"] != "welcome":
            raise RuntimeError(f"the host did not seat a benchmark player: {welcome}")
        player.seat = welcome["seat"]
        return player

    async def handshake(self) -> None:
        while self.tls is not None:
            try:
                self.tls.do_handshake()
                await self._flush()
                return
            except ssl.SSLWantReadError:
                await self._flush()
                await self._wait_for_bytes()
                while self.received:
                    self._incoming.write(self.received.popleft()[2])

    async def _flush(self) -> None:
        pending = self._outgoing.read()
        if pending:
            await asyncio.get_running_loop().sock_sendall(self.sock, pending)

    async def _wait_for_bytes(self) -> None:
        while not self.received:
            if self._closed is not None:
                raise self._closed
            self._more.clear()
            async with asyncio.timeout(TIMEOUT):
                await self._more.wait()

    def _readable(self) -> None:
        read = time.time_ns()
        while True:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(65536, STAMP_SPACE)
            except BlockingIOError:
                break
            if not data:
                self._closed = ConnectionError("the host closed a benchmark player's connection")
                asyncio.get_running_loop().remove_reader(self.sock.fileno())
                break
            reached = read
            for level, kind, stamp in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    seconds, nanoseconds = struct.unpack("qq", stamp)
                    reached = seconds * 1_000_000_000 + nanoseconds
            self.received.append((reached, read, data))
        self._more.set()

    async def send(self, msg: dict) -> None:
        if self.tls is None:
            await asyncio.get_running_loop().sock_sendall(self.sock, encode(msg))
        else:
            self.tls.write(encode(msg))
            await self._flush()

    async def act(self, action: dict) -> None:
        await self.send(message("act", action=action))

    async def next_message(self) -> dict:
        return (await self.timed_message())[2]

    async def timed_message(self) -> tuple[int, int, dict]:
        """The next message, when the last of its bytes reached the socket, and when they were
        read (time.time_ns())."""
        while True:
            if len(self.plain) >= HEADER_SIZE:
                length = int.from_bytes(self.plain[:HEADER_SIZE], "big")
                if len(self.plain) >= HEADER_SIZE + length:
                    body = bytes(self.plain[HEADER_SIZE:HEADER_SIZE + length])
                    del self.plain[:HEADER_SIZE + length]
                    self._last_size = HEADER_SIZE + length
                    return *self.plain_times, decode_body(body)
            await self._wait_for_bytes()
            reached, read, data = self.received.popleft()
            self.plain_times = (reached, read)
            self.plain += self._decrypt(data)

    def _decrypt(self, data: bytes) -> bytes:
        if self.tls is None:
            return data
        started = time.perf_counter()
        self._incoming.write(data)
        plain = bytearray()
        with contextlib.suppress(ssl.SSLWantReadError):
            while chunk := self.tls.read(65536):
                plain += chunk
        self.decrypting.append(time.perf_counter() - started)
        return bytes(plain)

    async def next_state(self) -> tuple[int, int, dict]:
        """The next `state` message, when its last byte reached the socket and when it was
        read."""
        while True:
            reached, read, msg = await self.timed_message()
            if msg["t"] == "state":
                self.state_sizes.append(self._last_size)
                return reached, read, msg
            if msg["t"] == "error":
                raise RuntimeError(f"the host refused a benchmark action: {msg['message']}")

    async def close(self) -> None:
        asyncio.get_running_loop().remove_reader(self.sock.fileno())
        if self.tls is not None:  # a close_notify, as a TLS client that leaves sends
            with contextlib.suppress(ssl.SSLError):
                self.tls.unwrap()
            with contextlib.suppress(OSError):
                await self._flush()
        self.sock.close()


@dataclass
class Figures:
    """One transport's runs at one table size."""
    p50s: list[float] = field(default_factory=list)
    p99s: list[float] = field(default_factory=list)
    read_p50s: list[float] = field(default_factory=list)
    read_p99s: list[float] = field(default_factory=list)
    decrypting: list[float] = field(default_factory=list)
    state_sizes: list[int] = field(default_factory=list)
    clients_cpu: float = 0.0
    host_cpu: float = 0.0

    def add(self, reached: list[float], read: list[float]) -> None:
        self.p50s.append(percentile(reached, 0.50))
        self.p99s.append(percentile(reached, 0.99))
        self.read_p50s.append(percentile(read, 0.50))
        self.read_p99s.append(percentile(read, 0.99))


async def one_run(host: HostProcess, game_id: str, players: int, actions: int,
                  rng: random.Random, figures: Figures | None = None
                  ) -> tuple[list[float], list[float]]:
    """Seconds from each action sent until its view had reached the last client's socket, and
    until this process had read the last of them; each read's decryption time and each state
    frame's size go to `figures`."""
    table = await host.create_table(game_id, players)
    conns = [await Player.join(host.port, f"P{i}", table, not host.plaintext)
             for i in range(players)]
    bot = engine.GAMES[game_id].BOTS["random"]
    try:
        # The last seat taken starts the game: everyone gets its first state.
        states = {c.seat: msg for c in conns for *_, msg in [await c.next_state()]}
        by_seat = {c.seat: c for c in conns}
        reached: list[float] = []
        read: list[float] = []
        while len(reached) < actions:
            view = next(iter(states.values()))["view"]
            if view["outcome"] is not None:
                for conn in conns:  # a new game once everyone has asked
                    await conn.send(message("play_again"))
                states = {c.seat: msg for c in conns for *_, msg in [await c.next_state()]}
                continue
            seat = rng.choice(sorted(view["to_act"]))
            own = states[seat]
            action = bot(own["view"], unpack_legal(own["legal"]), rng)
            sent = time.time_ns()
            await by_seat[seat].act(action)
            arrivals = await asyncio.gather(*(c.next_state() for c in conns))
            reached.append((max(at for at, _, _ in arrivals) - sent) / 1e9)
            read.append((max(at for _, at, _ in arrivals) - sent) / 1e9)
            states = {c.seat: msg for c, (*_, msg) in zip(conns, arrivals)}
        return reached, read
    finally:
        for conn in conns:
            await conn.close()
            if figures is not None:
                figures.decrypting.extend(conn.decrypting)
                figures.state_sizes.extend(conn.state_sizes)


# ---------------------------------------------------------------------------------------------
# The TLS fan-out floor


@dataclass
class Percentiles:
    """Each run's p50 and p99 of one measure of the floor."""
    p50s: list[float] = field(default_factory=list)
    p99s: list[float] = field(default_factory=list)

    def add(self, samples: list[float]) -> None:
        self.p50s.append(percentile(samples, 0.50))
        self.p99s.append(percentile(samples, 0.99))


def sized_frame(sent: int, size: int) -> bytes:
    """A `state` frame of `size` bytes (or the smallest there is) that says when it was sent,
    padded with a string as a view is mostly strings."""
    bare = len(encode(message("state", sent=sent, pad=""))) - 1  # less the empty string's byte
    for header, longest in ((1, 31), (2, 255), (3, 65535)):  # msgpack's str headers
        if size - bare - header <= longest:
            return encode(message("state", sent=sent, pad="x" * max(0, size - bare - header)))
    raise ValueError(f"a frame of {size} bytes is over the frame limit")


async def serve_floor() -> None:
    """The floor's server, run as `latency.py --floor-server`: the host's door (its TLS 1.3
    context and asyncio's TLS transport, read 32 KiB at a time), its socket settings and its
    framing, and nothing of the host else. Each frame a client sends asks for one frame of its
    `size` to every connection, stamped with this process's clock just before it is made and
    written as the host writes a state (`Client.enqueue`: the transport's write, no task
    switch). It prints its port, and serves until SIGTERM."""
    loop = asyncio.get_running_loop()
    writers: list[asyncio.StreamWriter] = []
    serving: set[asyncio.Task] = set()

    async def serve(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_SEND_BUFFER)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        streams = await door.open(sock)
        if streams is None:
            return
        reader, writer = streams
        writers.append(writer)
        writer.transport.write(encode(message("welcome")))  # the client knows it is counted
        try:
            while True:
                _, request = await read_frame(reader)
                frame = sized_frame(time.time_ns(), request["size"])
                for each in writers:
                    each.transport.write(frame)
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writers.remove(writer)
            writer.transport.abort()

    def accept(sock: socket.socket, _peer: tuple) -> None:
        task = loop.create_task(serve(sock))
        serving.add(task)
        task.add_done_callback(serving.discard)

    with tempfile.TemporaryDirectory(prefix="gaslight-floor-") as keys:
        door = Door(HostKey(Path(keys) / "host.pem"), TIMEOUT)
        listener = Listener("127.0.0.1", 0, accept)
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        print(json.dumps({"port": listener.address[1]}), flush=True)
        await stop.wait()
        listener.close()
        for task in serving:
            task.cancel()


class FloorProcess:
    """`serve_floor` in a process of its own, as the host is."""

    def __init__(self) -> None:
        self.port = 0
        self._process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> "FloorProcess":
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--floor-server", stdout=asyncio.subprocess.PIPE)
        assert self._process.stdout is not None
        async with asyncio.timeout(TIMEOUT):
            line = await self._process.stdout.readline()
        if not line:
            raise RuntimeError("the fan-out floor's server exited; see its error output above")
        self.port = json.loads(line)["port"]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            async with asyncio.timeout(TIMEOUT):
                await self._process.wait()
        except asyncio.TimeoutError:
            self._process.kill()
            await self._process.wait()


async def floor_run(floor: FloorProcess, players: int, size: int, samples: int
                    ) -> tuple[list[float], list[float]]:
    """Seconds from a client asking for each frame of `size` bytes (sending an action's frame,
    as a player acts) until it had reached the last of `players` TLS clients' sockets (kernel
    stamps, as for the host), one in flight at a time, asked for by each client in turn; and
    of those, the seconds from the server stamping the frame (the fan-out alone)."""
    conns = [await Player.connect(floor.port, tls=True) for _ in range(players)]
    try:
        for conn in conns:
            await conn.next_message()  # welcome: the server writes to this one too now
        reached, fanned_out = [], []
        for sample in range(samples):
            asked = time.time_ns()
            await conns[sample % players].send(message("act", size=size))
            arrivals = await asyncio.gather(*(c.timed_message() for c in conns))
            last = max(at for at, _, _ in arrivals)
            reached.append((last - asked) / 1e9)
            fanned_out.append((last - arrivals[0][2]["sent"]) / 1e9)
        return reached, fanned_out
    finally:
        for conn in conns:
            await conn.close()



async def measure(players: int, game: str | None, runs: int, actions: int, warmup: int,
                  seed: int, store_dir: str | None, transports: list[bool]) -> dict[bool, float]:
    """Print one table size's figures for each transport (plaintext or not); their median
    p99s in seconds. With both, two hosts are up at once and the runs alternate, TLS then
    plaintext, each pair playing the same actions: what the disk or the rest of the machine
    does meanwhile falls on both alike, instead of on whichever came second. Each TLS run is
    followed by a run of the TLS fan-out floor (`floor_run`) with as many samples, its frames
    the median size of the states sent so far, and the TLS p99 is given over the floor's."""
    game_id, seated = game_for(players, game)
    stand_in = "" if seated == players else f" (standing in for {players}: no game seats {players})"
    building = fan_out_times(game_id, seated)
    rngs = {plaintext: random.Random(seed) for plaintext in transports}
    figures = {plaintext: Figures() for plaintext in transports}
    floor, fan_out = Percentiles(), Percentiles()
    """The TLS fan-out floor's runs, from a client's ask, and from the server's stamp."""
    async with contextlib.AsyncExitStack() as stack:
        hosts = {plaintext: await stack.enter_async_context(
                     HostProcess(data_parent=store_dir, plaintext=plaintext))
                 for plaintext in transports}
        floor_server = (await stack.enter_async_context(FloorProcess()) if False in hosts
                        else None)
        warm = Figures()
        if warmup:
            for plaintext, host in hosts.items():
                await one_run(host, game_id, seated, warmup, rngs[plaintext], warm)
            if floor_server is not None:
                await floor_run(floor_server, seated, int(median(warm.state_sizes)), warmup)
        host_cpu = {plaintext: host.cpu_seconds() for plaintext, host in hosts.items()}
        # This process stands in for N machines: its collector's pauses are not the host's.
        gc.collect()
        gc.disable()
        try:
            for _ in range(runs):
                for plaintext, host in hosts.items():
                    mine = process_cpu_seconds(os.getpid())
                    reached, read = await one_run(host, game_id, seated, actions,
                                                  rngs[plaintext], figures[plaintext])
                    figures[plaintext].clients_cpu += process_cpu_seconds(os.getpid()) - mine
                    figures[plaintext].add(reached, read)
                    if not plaintext and floor_server is not None:
                        size = int(median(figures[plaintext].state_sizes))
                        asked, from_server = await floor_run(floor_server, seated, size, actions)
                        floor.add(asked)
                        fan_out.add(from_server)
        finally:
            gc.enable()
        for plaintext, host in hosts.items():
            figures[plaintext].host_cpu = host.cpu_seconds() - host_cpu[plaintext]
    with socket.socket() as probe:
        stamped = kernel_stamps(probe)
    print(f"{game_id} at {seated} players, one move's frames built in this process alone (no "
          f"network, store or threads), {len(building)} times: "
          f"p50 {percentile(building, 0.50) * 1000:.2f} ms, "
          f"p99 {percentile(building, 0.99) * 1000:.2f} ms")
    for plaintext, figure in figures.items():
        transport = "plaintext (baseline)" if plaintext else "TLS 1.3"
        print(f"{game_id} at {seated} players{stand_in}, {transport}: {runs} runs x {actions} "
              "actions" + (", alternating with the other transport's" if len(figures) > 1
                           else ""))
        if not stamped:
            print("  (this kernel does not stamp arrivals: each view's time is when it was read)")
        print(f"  action to last view, p50: {spread(figure.p50s, 1000, ' ms')}")
        print(f"  action to last view, p99: {spread(figure.p99s, 1000, ' ms')}")
        print(f"  ... read by this process, p50: {spread(figure.read_p50s, 1000, ' ms')}, "
              f"p99: {spread(figure.read_p99s, 1000, ' ms')} (the harness: {seated} players "
              "share one process)")
        # CPU time per action suffers far less than wall time when other work shares the cores.
        print(f"  CPU per action: host {figure.host_cpu / (runs * actions) * 1000:.2f} ms, all "
              f"{seated} players {figure.clients_cpu / (runs * actions) * 1000:.2f} ms "
              "(connecting and seating included)")
        if figure.decrypting:
            print(f"  a player's decryption of what one read brought: "
                  f"p50 {percentile(figure.decrypting, 0.50) * 1e6:.0f} us, "
                  f"p99 {percentile(figure.decrypting, 0.99) * 1e6:.0f} us (each player on its "
                  "own machine adds this to its own view, as it adds decode us from frames.py)")
    if floor.p99s:
        tls = figures[False]
        print(f"TLS fan-out floor at {seated} players: an action's frame in, one "
              f"{int(median(tls.state_sizes)):,}-byte frame (the median state's) out to all "
              f"{seated} clients' sockets, over the host's TLS, framing and writes and nothing "
              f"else; {runs} runs x {actions}, each after a TLS run")
        print(f"  action to last frame, p50: {spread(floor.p50s, 1000, ' ms')}, "
              f"p99: {spread(floor.p99s, 1000, ' ms')}")
        print(f"  ... of which the fan-out alone, p50: {spread(fan_out.p50s, 1000, ' ms')}, "
              f"p99: {spread(fan_out.p99s, 1000, ' ms')}")
        pairs = " ".join(f"{host / least:.2f}x" for host, least in zip(tls.p99s, floor.p99s))
        print(f"  TLS action to last view over the floor, p99: "
              f"{median(tls.p99s) / median(floor.p99s):.2f}x (each run's: {pairs}; goal at 10 "
              "players: at most 5x)")
    return {plaintext: median(figure.p99s) for plaintext, figure in figures.items()}


def fan_out_times(game_id: str, players: int, samples: int = 300) -> list[float]:
    """Seconds each of `samples` builds of one move's `state` frames takes in this process, as
    the host builds them for players who were told of the move before (`table_frames`), one
    every 2 ms: the CPU part of a move's path, without the network, the store or the host's
    threads, and its spread on this machine."""
    cls = engine.GAMES[game_id]
    game = engine.new_game(game_id, players, {}, 1)
    rng = random.Random(1)
    told = dict.fromkeys(range(players), NOTHING_TOLD)
    while len(game.history) < 30 and game.outcome is None:
        told = {seat: now_told for seat, (_, now_told) in table_frames(game, told).items()}
        seat = min(game.to_act())
        game.apply(seat, cls.BOTS["random"](None, game.legal_actions(seat), rng))
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        table_frames(game, told)
        times.append(time.perf_counter() - started)
        time.sleep(0.002)
    return times


def disk_syncs(where: str | None, append: bool, syncs: int = 200) -> list[float]:
    """Seconds each of `syncs` fdatasyncs of a 4 KiB write takes in `where` (the system's
    temporary directory by default): what one durable commit of the store there costs at
    least. A store's log grows by appending until its first checkpoint (`append`), then
    overwrites blocks already on disk, which needs no change to the file's size."""
    with tempfile.NamedTemporaryFile(dir=where) as probe:
        probe.write(bytes(16 * 4096))
        probe.flush()
        os.fsync(probe.fileno())
        times = []
        for i in range(syncs):
            offset = (16 + i if append else i % 16) * 4096
            os.pwrite(probe.fileno(), os.urandom(4096), offset)
            started = time.perf_counter()
            os.fdatasync(probe.fileno())
            times.append(time.perf_counter() - started)
            time.sleep(0.001)  # about the pace of the benchmark's commits
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[5, 10],
                        help="table sizes to measure (default: 5 10)")
    parser.add_argument("--game", help="measure this game only (default: per table size)")
    parser.add_argument("--runs", type=int, default=5, help="tables measured per size")
    parser.add_argument("--actions", type=int, default=400, help="actions timed per run")
    parser.add_argument("--warmup", type=int, default=50,
                        help="actions played first and not timed (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--transport", choices=("tls", "plain", "both"), default="both",
                        help="TLS as in play, a plaintext host as the baseline, or both and "
                        "their p99 ratio (default)")
    parser.add_argument("--floor-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--store-dir", help="where the host keeps its store (default: a temporary "
                        "directory on disk); /dev/shm shows what the disk's fsync adds")
    args = parser.parse_args()
    if args.floor_server:
        asyncio.run(serve_floor())
        return
    where = args.store_dir or "a temporary directory on disk"
    print(f"action to screen on 127.0.0.1, store in {where} ({machine_note()})")
    syncs = {how: disk_syncs(args.store_dir, how == "appending") for how in ("overwriting",
                                                                             "appending")}
    print("the store's disk, one 4 KiB write and fdatasync (each action waits for one): "
          + ", ".join(f"{how} p50 {percentile(times, 0.50) * 1000:.2f} ms, "
                      f"p99 {percentile(times, 0.99) * 1000:.2f} ms"
                      for how, times in syncs.items()))
    # The floor under every p99 below: a path of 2 ms that a stall of this machine's lands on
    # takes the stall's length too.
    print("this machine's own stalls, " + stalls_note())
    transports = {"tls": [False], "plain": [True], "both": [False, True]}[args.transport]
    for players in args.players:
        p99 = asyncio.run(measure(players, args.game, args.runs, args.actions, args.warmup,
                                  args.seed, args.store_dir, transports))
        if len(p99) == 2:
            print(f"  {players} players: p99 TLS / plaintext = {p99[False] / p99[True]:.2f}x "
                  "(goal: at most 1.25x)")


if __name__ == "__main__":
    main()

"""Part of an evening with real `gaslight` apps, each in its own tmux terminal at 80x24 (issue 35).

Ann hosts a Time Bomb table from her app, Bob and Cat join it by address with its table code,
Ann starts it; with the claim offer open, Bob types a sentence that starts with a number in
one terminal write and Cat pastes one (a bracketed paste), and both arrive whole while the
offer stays; Bob plays a game key at once after his line, and Ann quits her app keeping the
table running in the background, which Bob's app reconnects to by itself. Everything is asserted on what the terminals show
(`tmux capture-pane -p`), polled against a deadline. Every server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed: the tmux evening test needs it", allow_module_level=True)

pytestmark = [pytest.mark.xdist_group("tmux"), pytest.mark.timeout(240)]

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 80, 24
CHAT = "2 defusing here, honest"
BURST = "3rd cut is mine, 9 lives via phone keyboard"
PASTE = "10 wires to go; é à ü"


def gaslight_command() -> list[str]:
    script = Path(sys.executable).parent / "gaslight"
    if script.exists():
        return [str(script)]
    return ["uv", "run", "--directory", str(REPO), "gaslight"]


class Terminals:
    """The tmux sessions of one test, on a tmux server of their own."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # The server's socket lives with the test's files, so none is left behind in /tmp.
        self.socket = str(root / "tmux.sock")

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True,
                              text=True, check=check, timeout=10)

    def start(self, session: str, name: str) -> None:
        home = self.root / session
        env = {
            "GASLIGHT_INTERFACES": "127.0.0.1",
            "GASLIGHT_NAME": name,
            "GASLIGHT_CONFIG_DIR": str(home / "config"),
            "GASLIGHT_DATA_DIR": str(home / "data"),
        }
        command = shlex.join(["env", *(f"{k}={v}" for k, v in env.items()),
                              *gaslight_command()])
        self.tmux("new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT),
                  command)

    def screen(self, session: str) -> str:
        result = self.tmux("capture-pane", "-p", "-t", session, check=False)
        return result.stdout if result.returncode == 0 else f"<no session {session}>"

    def alive(self, session: str) -> bool:
        return self.tmux("has-session", "-t", session, check=False).returncode == 0

    def pane_pid(self, session: str) -> int:
        return int(self.tmux("display-message", "-p", "-t", session, "#{pane_pid}").stdout)

    def keys(self, session: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", session, *keys)

    def type(self, session: str, text: str) -> None:
        """`text` in one write to the terminal, as a fast typist's keys or a multiplexer's
        line reach it."""
        self.tmux("send-keys", "-t", session, "-l", text)

    def paste(self, session: str, text: str) -> None:
        """`text` pasted, bracketed as a terminal pastes for an app that asks it to."""
        self.tmux("set-buffer", "-b", "paste", text)
        self.tmux("paste-buffer", "-p", "-d", "-b", "paste", "-t", session)

    def wait(self, session: str, check: Callable[[str], object] | str, what: str,
             timeout: float = 15.0) -> str:
        """The screen of `session` once `check` holds (a string: once it shows it)."""
        test = (lambda screen: check in screen) if isinstance(check, str) else check
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(session)
            if test(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"{session}: {what} not seen within {timeout:.0f} s; "
                            f"the screen was:\n{screen}")
            time.sleep(0.2)

    def close(self) -> None:
        self.tmux("kill-server", check=False)


def own_processes(root: Path) -> list[int]:
    """The pids of the processes this test started: their command line or their environment
    names its directory (the apps have it in theirs, and the background host inherits it)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if any(str(root).encode() in (entry / part).read_bytes()
                   for part in ("cmdline", "environ")):
                pids.append(int(entry.name))
    return pids


def exited(pid: int) -> bool:
    """Whether process `pid` has exited (a zombie not yet reaped by tmux has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def stop_everything(terminals: Terminals, root: Path) -> None:
    """Kill the apps first (an app whose terminal closes may leave its table running in the
    background), the background host (its pid is kept beside its store), then the terminals."""
    for pid_file in root.glob("*/data/*.pid"):
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    deadline = time.monotonic() + 5
    while (pids := own_processes(root)) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
    terminals.close()
    for pid in own_processes(root):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def chat_of(screen: str) -> str:
    """The chat panel's lines, joined: the right-hand column under its "Chat" title."""
    lines = screen.splitlines()
    start = next((i for i, line in enumerate(lines) if "─ Chat ─" in line), len(lines))
    if start == len(lines):
        return ""
    left = lines[start].index("╭─ Chat")
    return " ".join(line[left + 1:].strip("│╰─╯ ") for line in lines[start + 1:])


def table_rows(screen: str) -> list[str]:
    """The rows of the lobby's table list, top to bottom."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"│ Table\s+Game", line))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("╰") or not line.strip("│ "):
            break
        rows.append(line)
    return rows


def host_table(t: Terminals) -> tuple[str, str]:
    """Ann hosts Time Bomb for 5 with 2 bots: the table's HOST:PORT and its code's digits."""
    t.wait("ann", "^n Host", "the lobby")
    t.keys("ann", "C-n")
    t.wait("ann", "Host a table on this computer", "the host form")
    t.wait("ann", re.compile(r"Game\s+Time Bomb").search, "Time Bomb in the form")
    t.wait("ann", re.compile(r"Players\s+5\s").search, "5 players in the form")
    t.keys("ann", "Tab", "Tab", "Tab")  # the game, the table's name, the players, the bots
    t.wait("ann", "Bots take this many seats", "the bots field in focus")
    t.keys("ann", "Enter")
    t.wait("ann", "2 (3 for people)", "the bot counts offered")
    t.keys("ann", "Up", "Enter")
    t.wait("ann", re.compile(r"Bots\s+2 \(3 for people\)").search, "2 bots chosen")
    t.keys("ann", "Tab", "Tab", "Tab", "Tab", "Tab")  # the pace, hints, first cutter, claims, Host
    t.keys("ann", "Enter")
    pattern = re.compile(r"join at\s+(127\.0\.0\.1:\d+), with the code (\d{4})-(\d{4})")
    screen = t.wait("ann", lambda s: pattern.search(" ".join(
        line.strip("│ ") for line in s.splitlines())), "the waiting room's address and code")
    found = pattern.search(" ".join(line.strip("│ ") for line in screen.splitlines()))
    assert found is not None
    assert re.search(r"code \d{4}-\d{4}", screen.splitlines()[0]), screen
    return found.group(1), found.group(2) + found.group(3)


def join_by_address(t: Terminals, session: str, name: str, address: str, code: str) -> None:
    t.wait(session, "^o Address", "the lobby")
    t.keys(session, "C-o")
    t.wait(session, "The host's address, as HOST:PORT", "the address dialog")
    t.wait(session, "192.168.1.20:7777", "the address field")  # its placeholder
    t.type(session, address)
    t.wait(session, lambda s: "192.168.1.20:7777" not in s, "the address typed")
    t.keys(session, "Enter")
    t.wait(session, f"Table code for {address}", "the table code dialog")
    t.wait(session, "1234-5678", "the code field")  # its placeholder
    t.type(session, code)
    t.wait(session, lambda s: "1234-5678" not in s, "the code typed")
    t.keys(session, "Enter")
    # The lobby lists the host's table; other tables on the LAN may be listed too.
    screen = t.wait(session, lambda s: "Table code for" not in s and "▀" not in s
                    and any(address in row for row in table_rows(s)),
                    f"the table at {address} listed")
    index = next(i for i, row in enumerate(table_rows(screen)) if address in row)
    t.keys(session, "Home", *(["Down"] * index), "Enter")
    screen = t.wait(session, f"{name} (you)", "the waiting room")
    assert "waiting for players" in screen.splitlines()[0], screen
    assert "1. Ann  hosts" in screen, screen
    assert "The game starts when Ann, who hosts, presses" in screen, screen


def test_an_evening_in_tmux(tmp_path: Path) -> None:
    t = Terminals(tmp_path)
    try:
        t.start("ann", "Ann")
        t.start("bob", "Bob")
        t.start("cat", "Cat")

        # 1. Ann hosts, and reads the address and the code off her waiting room.
        address, code = host_table(t)

        # 2. Bob and Cat join by address, typing the code; they wait for Ann.
        join_by_address(t, "bob", "Bob", address, code)
        join_by_address(t, "cat", "Cat", address, code)
        screen = t.wait("ann", "The table is full: press Ctrl+S to start.",
                        "the full table naming Ctrl+S")
        assert "3. Cat" in screen and "2. Bob" in screen, screen
        for session in ("bob", "cat"):
            screen = t.wait(session, "The table is full.", "the full waiting room")
            assert "waiting for players" in screen.splitlines()[0], screen
            assert "Round 1" not in screen, screen

        # 3. Ann starts the game: it starts for all three, each offered a claim. With the
        # offer open, Bob types a line in one write and Cat pastes one: chat, whole, and the
        # offer stays until each skips it.
        t.keys("ann", "C-s")
        for session in ("ann", "bob", "cat"):
            t.wait(session, "Role: ", "the game started")  # the header may be cut short
            t.wait(session, "dealt: claim?", "the claim offer")
        t.type("bob", BURST)
        t.keys("bob", "Enter")
        t.paste("cat", PASTE)
        t.wait("cat", PASTE, "the paste in Cat's line")
        t.keys("cat", "Enter")
        for session in ("ann", "bob", "cat"):
            for line in (f"Bob: {BURST}", f"Cat: {PASTE}"):
                t.wait(session, lambda s: line in " ".join(chat_of(s).split()), line)
        for session in ("ann", "bob", "cat"):
            # A cut of one's own wire closes the offer, with a word why; else Esc skips it.
            if "dealt: claim?" in t.screen(session):
                t.keys(session, "Escape")
            t.wait(session, lambda s: "dealt: claim?" not in s and "type to chat" in s,
                   "the claim skipped")

        # 4. Bob chats a sentence that starts with a number: it is a chat line, not a move.
        t.type("bob", CHAT)
        t.keys("bob", "Enter")
        for session in ("ann", "bob", "cat"):
            t.wait(session, f"Bob: {CHAT}", "Bob's chat line")
        assert "You cannot cut" not in t.screen("bob"), t.screen("bob")
        # The keys are the game's again at once: Ctrl+K offers the claim.
        t.keys("bob", "C-k")
        screen = t.wait("bob", "Claim what you hold", "the claim dialog of Ctrl+K")
        assert "You cannot cut" not in screen, screen
        t.keys("bob", "Escape")
        t.wait("bob", lambda s: "Claim what you hold" not in s, "the claim dialog closed")

        # 5. Ann quits mid-game and keeps the table running in the background: a stray Enter
        # stays, Ctrl+Q again moves to keeping it running, and Enter then quits.
        ann_pid = t.pane_pid("ann")
        t.keys("ann", "C-q")
        t.wait("ann", "Quit, keeping it running", "the quit question")
        t.keys("ann", "Enter")
        t.wait("ann", lambda s: "Quit, keeping" not in s, "Enter stays")
        t.keys("ann", "C-q")
        t.wait("ann", "Quit, keeping it running", "the quit question again")
        t.keys("ann", "C-q")
        time.sleep(0.3)
        t.keys("ann", "Enter")
        deadline = time.monotonic() + 10
        while (t.alive("ann") or not exited(ann_pid)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not t.alive("ann"), t.screen("ann")
        assert exited(ann_pid), f"Ann's app (pid {ann_pid}) is still running"
        assert list(tmp_path.glob("ann/data/*.pid")), "no background host was started"
        t.wait("bob", lambda s: "» Reconnected." in s and "● connected" in s.splitlines()[0],
               "Bob connected to the background host", timeout=10)
        screen = t.screen("bob")
        assert "reconnecting" not in screen.splitlines()[0], screen
        # The host's recent chat, sent again on the reconnect, is not shown twice.
        assert screen.count(f"Bob: {CHAT}") == 1, screen
    finally:
        # 6. Stop the background host and every terminal.
        stop_everything(t, tmp_path)
    assert not own_processes(tmp_path)

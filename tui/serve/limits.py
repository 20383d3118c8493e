"""Every bound `gaslight serve` keeps, in one record with the defaults an owner gets.

A guest's page is a process with its owner's rights, so each of them is bounded: how long its
app may take to quit, how much it may send and draw, how long a client may sit on a connection
without doing what a browser does at once. Tests and the soak benchmark shorten the deadlines
(`--limit NAME=VALUE`, kept out of `--help`); SECURITY.md ("In a browser") states each default.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServeLimits:
    exit_grace: float = 3.0
    """Seconds a guest's app has to quit once its page is gone (closed, its socket dead, not
    reading) or the server stops, before its process group is killed."""
    send_deadline: float = 10.0
    """Seconds one screen update may wait for a page that does not read it: the page is then
    taken as gone."""
    heartbeat: float = 15.0
    """Seconds between the websocket pings that tell a dead socket (no pong within half)."""
    first_message: float = 10.0
    """Seconds a new websocket has to send its first message: a real page sends its size and a
    ping at once; a client that never opens a page costs an app for this long at most."""
    idle: float = 1800.0
    """Seconds a page may send nothing at all (no key, no click, no focus) before its app ends,
    as a closed tab's would: its seats stay its guest's."""
    request_deadline: float = 10.0
    """Seconds a new connection has to finish its TLS handshake and send its first request."""
    keepalive: float = 15.0
    """Seconds an idle connection between two requests is kept."""
    connections_per_address: int = 64
    """Connections from one address at once: a browser opens six or so per site, and a
    device has a few pages at most."""
    connections: int = 512
    """Connections at once from everyone, below the file descriptors the server has (it
    asks for enough at its start, `descriptors_needed`)."""
    columns: int = 300
    rows: int = 100
    """The largest screen a page may ask for: a large monitor's at a small font. A phone on its
    side gets 80x24 (the page fits its font to them)."""
    smallest_columns: int = 10
    smallest_rows: int = 5
    stdin_message: int = 16 * 1024
    """Bytes of one websocket message from a page: a paste, a burst of keys."""
    stdin_per_second: int = 4 * 1024
    """Bytes a page may send each second, on average (keys and mouse moves come to far less).
    Beyond it the server reads the page more slowly: the app never gets input faster."""
    app_packet: int = 4 * 1024 * 1024
    """Bytes of one packet from a guest's app: a full screen of the largest size is about a
    quarter of it. An app sending more is not ours to relay: it is ended."""
    app_memory: int = 512 * 1024 * 1024
    """Bytes of data a guest's app may map (RLIMIT_DATA): about eight times what one playing a
    game uses."""

    def descriptors_needed(self, sessions: int) -> int:
        """File descriptors for every connection, the apps' pipes and the server's own."""
        return self.connections + 8 * sessions + 64

    def screen(self, width: int, height: int) -> tuple[int, int]:
        """The screen a page asked for, within the bounds."""
        return (min(max(width, self.smallest_columns), self.columns),
                min(max(height, self.smallest_rows), self.rows))

    def changed(self, settings: list[str]) -> "ServeLimits":
        """These limits with `NAME=VALUE` settings applied; ValueError names a wrong one."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        values = {}
        for setting in settings:
            name, _, text = setting.partition("=")
            if name not in fields:
                raise ValueError(f"there is no limit {name!r}; the limits are "
                                 f"{', '.join(fields)}")
            kind = int if fields[name].type == "int" else float
            try:
                values[name] = kind(text)
            except ValueError:
                raise ValueError(f"{name} takes a number, not {text!r}") from None
        return dataclasses.replace(self, **values)

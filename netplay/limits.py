"""The host's settings: every limit it keeps, in one record with the defaults players get.

Tests and benchmarks change a few (a short heartbeat, bots that do not wait); everything else
is what `gaslight host` and the app run with. PROTOCOL.md states each default.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HostLimits:
    bot_delay: float | None = None
    """Seconds every bot waits before a move, whatever its table's pace: tests and screenshots
    run bots without waiting. None: each table's pace (`Table.bot_pace`), as players chose."""
    deal_wait: float | None = None
    """Seconds the bots wait at a deal for people to claim, at most (see PROTOCOL.md,
    "Deals"). None: the `bot_delay` when one is set, else the pace's `DEAL_WAITS`."""
    heartbeat_timeout: float = 30.0
    """Seconds without any frame from a client before the host drops it as dead."""
    handshake_timeout: float = 10.0
    """Seconds a new connection has to send its `hello`."""
    outbound_limit: int = 256 * 1024
    """Bytes waiting for one client beyond its socket's buffers. A client this far behind is
    not reading: drop it."""
    max_connections_per_address: int = 16
    chat_burst: int = 10
    """Chat messages a connection may send at once before the rate applies."""
    chat_per_second: float = 2.0
    claim_burst: int = 10
    """Free actions (claims) a seat may make at once before the rate applies; a bot keeps to
    it too."""
    claim_per_second: float = 2.0
    hint_burst: int = 3
    """Hints a connection may ask for at once before the rate applies: each runs a bot."""
    hint_per_second: float = 1.0
    max_tables: int = 64
    """Tables one host keeps in memory, so that a visitor may not create them without end."""
    max_tables_per_address: int = 8
    """Waiting or running tables created from one address."""
    abandoned_after: float = 600.0
    """Seconds a table may have no person connected before it is closed (a started game
    stays in the store for `--resume`)."""

"""PROTOCOL.md and the host agree (issue 26): the chat a newcomer is told, the silent-connection
limit and its tolerance, and the `first` rule of "Events" after a tail that starts above 0."""

from __future__ import annotations

import time

from netplay.client import Connection
from netplay.event_log import EventLog
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.protocol import Chat, ChatLine, State
from netplay.table import CHAT_TAIL

from .conftest import RawClient, next_of


async def past_lines(conn: Connection) -> list[tuple[str, str]]:
    """The chat lines with `past: true` that a newcomer is told, as (channel, text)."""
    lines = []
    while True:
        try:
            msg = await next_of(conn, ChatLine, timeout=0.5)
        except TimeoutError:
            return lines
        assert msg.past
        lines.append((msg.channel, msg.text))


async def test_a_newcomer_gets_at_most_20_past_lines_of_its_channels_in_order(tmp_path):
    """PROTOCOL.md, `chat`: "at most 20 in all, of the channels it reads"."""
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002, chat_burst=100))
    await host.start()
    try:
        table_id = host.create_table("timebomb", 4, {"first_player": 0}, bots=2,
                                     start_when_full=True)
        ann = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                       name="Ann", table=table_id)
        eve = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                       name="Eve", table=table_id,
                                       spectate=True)
        said = []
        for i in range(15):  # 30 lines, the channels taking turns
            await ann.send(Chat(text=f"table {i}"))
            await next_of(ann, ChatLine, text=f"table {i}")
            await eve.send(Chat(text=f"spectators {i}"))
            await next_of(eve, ChatLine, text=f"spectators {i}")
            said += [("table", f"table {i}"), ("spectators", f"spectators {i}")]
        late = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                        name="Late",
                                        table=table_id, spectate=True)
        assert await past_lines(late) == said[-CHAT_TAIL:]
        # A player reads the table's channel only.
        token = ann.token
        await ann.close()
        back = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                        name="Ann", token=token)
        assert await past_lines(back) == [line for line in said if line[0] == "table"]
        for conn in (eve, late, back):
            await conn.close()
    finally:
        await host.stop()


async def test_a_silent_connection_is_dropped_after_the_limit_and_not_before(tmp_path):
    """PROTOCOL.md, "Heartbeats": dropped `heartbeat_timeout` after its last frame, no sooner,
    and later only by the host's own lateness (the tests allow a second)."""
    limit = 0.5
    host = Host(data_dir=tmp_path / "data", limits=HostLimits(heartbeat_timeout=limit))
    await host.start()
    try:
        raw = await RawClient.open(host.address[1])
        sent = time.monotonic()
        await raw.send("hello", name="Ghost")
        await raw.receive_until("welcome")
        assert await raw.closed_by_host(timeout=5)
        silent = time.monotonic() - sent
        assert limit <= silent < limit + 1.0, silent
        raw.close()
    finally:
        await host.stop()


def state(first: int, events: list[int]) -> State:
    return State(view={}, legal=[], seat=0, events=[{"n": n} for n in events], first=first)


def test_a_client_that_joined_late_keeps_appending_after_its_tail():
    """PROTOCOL.md, "Events": after a tail that starts above 0, a `state` whose `first` is the
    index just past the client's last event appends; `first` 0 starts a new list."""
    log = EventLog()
    view = log.full_state(state(50, list(range(50, 90)))).view
    assert (view["events_from"], len(view["events"])) == (50, 40)
    for first, last in [(90, 92), (92, 95), (95, 98)]:
        view = log.full_state(state(first, list(range(first, last)))).view
    assert view["events_from"] == 50
    assert [e["n"] for e in view["events"]] == list(range(50, 98))
    view = log.full_state(state(0, [0, 1])).view  # a new game
    assert (view["events_from"], [e["n"] for e in view["events"]]) == (0, [0, 1])

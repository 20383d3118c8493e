"""Secrets stay secret, over real sockets: nothing of a running game goes out through the
replay path, to a seat, a spectator or the table's host; a finished game goes to those who
were at its table (a seat's token, a spectator at the end) or to everyone when the table says
so; and every game's seed is drawn afresh from the OS."""

from __future__ import annotations

import asyncio
import random

import netplay.table
from netplay.client import Connection
from netplay.protocol import FetchRecord, PlayAgain, RecordPart, ShowReplay, State
from netplay.table import game_ref

from .conftest import TIMEOUT, listing, next_reply, play_game, refusal, step

NOT_YOURS = "no finished game"


async def lobby(host, name="Stranger") -> Connection:
    return await Connection.connect("127.0.0.1", host.address[1], code=host.table_code, name=name)


async def refused(conn: Connection, game: str, token: str | None = None, eyes=0) -> None:
    """Neither a step nor the record of `game` goes to `conn`, and the refusal says the same
    as for a game that does not exist."""
    await conn.send(ShowReplay(game=game, eyes=eyes, step=0, token=token))
    said = await refusal(conn)
    await conn.send(ShowReplay(game=game + "0", eyes=eyes, step=0, token=token))
    assert said.replace(game, "?") == (await refusal(conn)).replace(game + "0", "?")
    assert NOT_YOURS in said
    await conn.send(FetchRecord(game=game, part=0, token=token))
    assert NOT_YOURS in await refusal(conn)


async def test_a_running_game_is_refused_to_its_seats_its_spectator_and_its_host(host):
    table_id = host.create_table("holmes", 2, {}, bots=0, seed=3, start_when_full=True)
    port = host.address[1]
    ann = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Ann", table=table_id)
    bob = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Bob", table=table_id)
    eve = await Connection.connect("127.0.0.1", port, code=host.table_code,
                                   name="Eve", table=table_id, spectate=True)
    stranger = await lobby(host)
    table = host.tables[table_id]
    assert table.phase == "playing" and table.host_seat == ann.seat
    game = game_ref(table_id, 1)
    try:
        for conn, token in ((ann, None), (ann, ann.token), (bob, bob.token), (eve, None),
                            (stranger, ann.token)):
            for eyes in (0, "spectator", "all"):
                await refused(conn, game, token, eyes)
            assert await listing(conn, [token] if token else []) == []
    finally:
        for conn in (ann, bob, eve, stranger):
            await conn.close()


async def test_a_finished_game_goes_to_its_seats_and_spectators_at_the_end_only(host):
    played = await play_game(host, "timebomb", 4, 1, seed=11)
    late = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code, name="Late",
                                    table=played.table, spectate=True)
    stranger = await lobby(host)
    try:
        game = game_ref(played.table, 1)
        seat = played.people[0]
        # A seat, by its connection or by its token from anywhere; the spectator at the end.
        assert (await step(seat, game, 0, 0)).game == game
        assert [g["game"] for g in await listing(stranger, [seat.token])] == [game]
        assert (await step(stranger, game, "all", 3, token=seat.token)).step == 3
        assert [g["game"] for g in await listing(played.spectator)] == [game]
        assert (await step(played.spectator, game, "spectator", 1)).step == 1
        # Not a stranger, not a spectator who came after the end, not a wrong token.
        for conn, token in ((stranger, None), (late, None), (stranger, "x" * 32)):
            assert await listing(conn, [token] if token else []) == []
            await refused(conn, game, token)
    finally:
        await played.close()
        await late.close()
        await stranger.close()


async def test_a_table_with_public_replays_shows_its_finished_games_to_anyone(host):
    played = await play_game(host, "timebomb", 4, 1, seed=12, public_replays=True)
    stranger = await lobby(host)
    try:
        game = game_ref(played.table, 1)
        assert [g["game"] for g in await listing(stranger)] == [game]
        assert (await step(stranger, game, "all", 2)).step == 2
        await stranger.send(FetchRecord(game=game, part=0))
        assert (await next_reply(stranger, RecordPart)).part == 0
    finally:
        await played.close()
        await stranger.close()


async def test_the_next_game_has_a_fresh_seed_from_the_os_and_stays_secret(host, monkeypatch):
    """Game 1's record, seed included, goes to its seat; game 2 draws its own seed from
    `secrets` (not from game 1's), and while it runs nothing of it goes out."""
    drawn = []

    def randbits(bits: int) -> int:
        value = random.SystemRandom().getrandbits(bits)
        drawn.append((bits, value))
        return value

    monkeypatch.setattr(netplay.table.secrets, "randbits", randbits)
    played = await play_game(host, "timebomb", 4, 1, seed=13)
    seat = played.people[0]
    try:
        first = game_ref(played.table, 1)
        await seat.send(FetchRecord(game=first, part=0))
        head = (await next_reply(seat, RecordPart)).body[0]
        assert head["e"] == "game" and head["seed"] == 13
        table = host.tables[played.table]
        await seat.send(PlayAgain())

        async def second_game():
            while table.games < 2:
                await asyncio.sleep(0.005)
        await asyncio.wait_for(second_game(), TIMEOUT)
        # (`secrets` is one module: the bots draw their own 64 bits from it too.)
        assert [value for bits, value in drawn if bits == 63] == [table.seed]
        assert table.seed != 13
        await refused(seat, game_ref(played.table, 2))
        await refused(played.spectator, game_ref(played.table, 2), eyes="all")
        assert [g["game"] for g in await listing(seat)] == [first]
    finally:
        await played.close()


async def test_a_state_never_carries_the_seed(host):
    played = await play_game(host, "timebomb", 4, 1, seed=0x5EED5EED)
    try:
        for states in played.states.values():
            for state in states:
                assert isinstance(state, State)
                assert 0x5EED5EED not in state.view.values()
    finally:
        await played.close()

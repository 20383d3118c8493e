"""A modified client trying to cheat: every attempt gets a clear error frame, changes nothing
(game, seats, store) and tells nobody anything."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging

import pytest

import engine
from netplay.seating import TOKEN_FAILURES
from netplay.legal import unpack_legal

from .conftest import (RawPeer, frame, moves, play_to_the_end, seated_table, sent_view,
                       snapshot)

ERROR_KEYS = {"v", "t", "message", "fatal"}


async def assert_refused(host, table_id, peer, request, words, *, fatal=False, bystanders=()):
    """Send `request` (a message or raw frame bytes) from `peer`; expect an error frame saying
    `words`, no change at the table, and not one frame to anyone else."""
    await asyncio.gather(*(other.drain_quiet(0.02) for other in bystanders))
    before = snapshot(host, table_id)
    await peer.send_bytes(request if isinstance(request, bytes) else frame(request))
    reply = await peer.receive_until("error")
    assert set(reply) == ERROR_KEYS
    assert words in reply["message"], reply["message"]
    assert reply["fatal"] is fatal
    if fatal:
        assert await peer.closed_by_host()
    assert snapshot(host, table_id) == before
    for heard in await asyncio.gather(*(other.drain_quiet() for other in bystanders)):
        # A closed connection shows as "away" in the lobby; nothing else may reach anyone.
        assert [m["t"] for m in heard] == (["lobby"] * len(heard) if fatal else [])
    return reply


# -- turns and seats ---------------------------------------------------------------------------


async def test_acting_out_of_turn_is_refused(host):
    table_id, (ann, bob) = await seated_table(host)
    await assert_refused(host, table_id, bob, {"t": "act", "action": {"type": "cut", "target": 0}},
                         "it is not your turn: waiting for seat 0", bystanders=[ann])


@pytest.mark.parametrize(
    "request_, words, fatal",
    [
        ({"t": "act", "seat": 0, "action": {"type": "cut", "target": 2}},
         "a 'act' message has no field 'seat'", True),
        ({"t": "act", "action": {"type": "cut", "target": 2, "seat": 0}},
         "a 'cut' action has no field 'seat'", False),
        ({"t": "act", "action": {"type": "cut", "target": 2}, "as": 0},
         "a 'act' message has no field 'as'", True),
    ],
    ids=["seat-in-message", "seat-in-action", "alias-field"],
)
async def test_acting_for_another_seat_is_refused(host, request_, words, fatal):
    table_id, (ann, bob) = await seated_table(host)
    # Seat 0 (Ann) holds the Wire Cutter: Bob tries to move in her name.
    await assert_refused(host, table_id, bob, request_, words, fatal=fatal, bystanders=[ann])


@pytest.mark.parametrize(
    "request_, words",
    [
        ({"t": "act", "action": {"type": "cut", "target": 1}}, "only a seated player may act"),
        ({"t": "act", "action": {"type": "claim", "defusing": 1, "bomb": 0}},
         "only a seated player may act"),
        ({"t": "start"}, "only a seated player may start the game"),
        ({"t": "play_again"}, "only a seated player may ask to play again"),
        ({"t": "add_bot", "table": "TABLE", "seat": 1}, "only the player who hosts table"),
        ({"t": "sit", "table": "TABLE", "seat": 3}, "already at table"),
    ],
    ids=["cut", "free-claim", "start", "play-again", "add-bot", "sit"],
)
async def test_a_spectator_can_do_nothing_but_watch(host, request_, words):
    table_id, (ann, bob) = await seated_table(host)
    fan = await RawPeer.join(host.address[1], "Fan", table=table_id, spectate=True)
    await fan.receive_until("state")
    request_ = {k: table_id if v == "TABLE" else v for k, v in request_.items()}
    await assert_refused(host, table_id, fan, request_, words, bystanders=[ann, bob])
    # Nor can a client that is at no table at all.
    lurker = await RawPeer.join(host.address[1], "Lurker")
    if request_["t"] == "act":
        await assert_refused(host, table_id, lurker, request_, "only a seated player may act")


def candidate_values(spec, players: int) -> list:
    """Values of one action field's declared type, well-formed but mostly absurd."""
    if isinstance(spec, list):
        return [[], [99], [0, 0, 0], [-1]]
    if spec is bool:
        return [True, False]
    if spec is int:
        return [-1, *range(players + 2), 99, 2**40]
    return ["", "x", "bomb", "moriarty", "\x1b[2J"]


def well_formed_illegal_actions(game_cls, seat_legal: list[dict], players: int) -> list[dict]:
    """For each action type: one well-formed action that is not in `seat_legal`, plus a wrong
    field type, a missing field and an extra field."""
    found = []
    for kind, fields in game_cls.ACTIONS.items():
        names = list(fields)
        for values in itertools.product(*(candidate_values(fields[n], players) for n in names)):
            action = {"type": kind, **dict(zip(names, values))}
            if action not in seat_legal:
                found.append(action)
                break
        if names:
            wrong = {"type": kind, **{n: candidate_values(fields[n], players)[0] for n in names}}
            wrong[names[0]] = {"nested": "map"}
            found.append(wrong)
            found.append({"type": kind, **{n: candidate_values(fields[n], players)[0]
                                           for n in names[1:]}})
        found.append({"type": kind, **{n: candidate_values(fields[n], players)[0]
                                       for n in names}, "cheat": 1})
    found.append({"type": "win_now"})
    found.append({})
    return found


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
async def test_illegal_moves_of_every_action_type_are_refused(host, game_id):
    game_cls = engine.GAMES[game_id]
    players = game_cls.min_players
    table_id = host.create_table(game_id, players, start_when_full=True)
    peers = [await RawPeer.join(host.address[1], f"P{i}", table=table_id)
             for i in range(players)]
    states = [await peer.receive_until("state") for peer in peers]
    game = host.tables[table_id].game
    tried = 0
    for peer, state in zip(peers, states):
        others = [p for p in peers if p is not peer]
        for action in well_formed_illegal_actions(game_cls, unpack_legal(state["legal"]), players):
            reply = await assert_refused(host, table_id, peer, {"t": "act", "action": action},
                                         "", bystanders=others)
            assert reply["message"]
            tried += 1
    assert tried >= len(game_cls.ACTIONS) * players
    assert moves(game) == []


async def test_replaying_an_old_action_is_refused(host):
    table_id, (ann, bob) = await seated_table(host)
    cut = frame({"t": "act", "action": {"type": "cut", "target": 1}})
    await ann.send_bytes(cut)
    await ann.receive_until("state")
    await bob.receive_until("state")
    game = host.tables[table_id].game
    assert len(moves(game)) == 1 and game.cutter == 1
    # The very same bytes again, from Ann, then from Bob who now holds the cutter.
    await assert_refused(host, table_id, ann, cut, "it is not your turn: waiting for seat 1",
                         bystanders=[bob])
    await assert_refused(host, table_id, bob, cut, "you may never cut your own wire",
                         bystanders=[ann])
    # And once more after Ann's link drops and she comes back with her token.
    ann.close()
    again = await RawPeer.join(host.address[1], "Ann", token=ann.token)
    await again.receive_until("state")
    await assert_refused(host, table_id, again, cut, "it is not your turn", bystanders=[bob])
    assert len(moves(game)) == 1


# -- tokens -------------------------------------------------------------------------------------


async def assert_token_refused(host, table_id, token, words="belongs to no seat"):
    before = snapshot(host, table_id)
    thief = await RawPeer.open(host.address[1])
    await thief.send({"t": "hello", "name": "Moriarty", "token": token})
    reply = await thief.receive_until("error", "welcome")
    assert reply["t"] == "error" and reply["fatal"] is True and words in reply["message"]
    assert await thief.closed_by_host()
    assert snapshot(host, table_id) == before
    return thief


async def test_another_seats_token_cannot_be_forged_or_reused(host):
    table_id, (ann, bob, _carl) = await seated_table(host, humans=3)
    table = host.tables[table_id]
    near_miss = ann.token[:-1] + ("A" if ann.token[-1] != "A" else "B")
    stored_hash = hashlib.sha256(ann.token.encode()).hexdigest()
    await host.store.flush()
    stored = b"".join(p.read_bytes() for p in host.store.path.parent.glob("*.sqlite3*"))
    assert stored_hash.encode() in stored and ann.token.encode() not in stored
    await assert_token_refused(host, table_id, near_miss)
    await assert_token_refused(host, table_id, stored_hash)
    await assert_token_refused(host, table_id, ann.token.upper())
    assert table.seats[0].client is not None  # Ann never lost her seat

    # Bob's own token, even with Ann's table and a request to spectate, gives Bob's seat only.
    twin = await RawPeer.join(host.address[1], "Ann", token=bob.token, table=table_id,
                              spectate=True)
    assert twin.seat == 1 and twin.token == bob.token
    state = await twin.receive_until("state")
    assert state["view"] == sent_view(table.game, 1)

    # A hello on an open connection is no way in either: it closes that connection only.
    await assert_refused(host, table_id, twin, {"t": "hello", "name": "x", "token": ann.token},
                         "'hello' is only for the first message", fatal=True)
    assert table.seats[0].client is not None


async def test_a_covered_seat_is_still_its_players_and_nobody_elses(host):
    table_id, (ann, bob, carl) = await seated_table(host, humans=3)
    bob.close()
    seat = host.tables[table_id].seats[1]
    while seat.client is not None:
        await asyncio.sleep(0.005)
    # Only the table's host may cover it, and only while Bob is away.
    await assert_refused(host, table_id, carl, {"t": "add_bot", "table": table_id, "seat": 1},
                         "only the player who hosts")
    await assert_refused(host, table_id, ann, {"t": "add_bot", "table": table_id, "seat": 2},
                         "no seat for a bot")
    await ann.send({"t": "add_bot", "table": table_id, "seat": 1})
    while not seat.covered:
        await ann.receive_until("lobby")
    assert seat.kind == "human"
    while host.tables[table_id].game.claims[1] is None:
        await asyncio.sleep(0.005)  # the covering bot claims after the deal, as Bob would
    await assert_token_refused(host, table_id, bob.token.upper())
    back = await RawPeer.join(host.address[1], "Bob", token=bob.token)
    assert back.seat == 1 and not seat.covered and seat.client is not None


async def test_guessed_tokens_are_limited_per_address_and_never_logged(host, caplog):
    caplog.set_level(logging.DEBUG)
    table_id, (ann, bob) = await seated_table(host)
    guesses = [f"{i:032x}" for i in range(TOKEN_FAILURES)]
    for guess in guesses:
        await assert_token_refused(host, table_id, guess)
    # The limit holds, whatever the next guess, for every new connection from that address.
    for guess in ("x", bob.token, "y"):
        await assert_token_refused(host, table_id, guess, "too many wrong seat tokens")
    # The limit is per address: a player on another address is not locked out by the guesser.
    back = await RawPeer.join(host.address[1], "Bob", source="127.0.0.2", token=bob.token)
    assert back.seat == 1
    assert caplog.text.count("unknown seat token from 127.0.0.1") == TOKEN_FAILURES
    assert "rate limited" in caplog.text
    for secret in (*guesses, ann.token, bob.token):
        assert secret not in caplog.text
    # The table never moved.
    assert moves(host.tables[table_id].game) == []


# -- seats and tables ---------------------------------------------------------------------------


async def test_claiming_a_taken_seat_is_refused(host):
    table_id = host.create_table("timebomb", 5, bots=1, start_when_full=True)
    port = host.address[1]
    ann = await RawPeer.join(port, "Ann", table=table_id)
    lurker = await RawPeer.join(port, "Lurker")
    for seat, words in [(0, "seat 0 at table"), (4, "seat 4 at table"), (5, "has no seat 5"),
                        (-1, "has no seat -1")]:
        await assert_refused(host, table_id, lurker, {"t": "sit", "table": table_id,
                                                      "seat": seat}, words, bystanders=[ann])
    # A seated player may not grab a second seat.
    await assert_refused(host, table_id, ann, {"t": "sit", "table": table_id, "seat": 1},
                         "already at table", bystanders=[])
    # Two clients racing for the same seat: exactly one gets it.
    rivals = [await RawPeer.join(port, f"R{i}") for i in range(2)]
    for rival in rivals:
        await rival.drain_quiet()
    await asyncio.gather(*(r.send({"t": "sit", "table": table_id, "seat": 2}) for r in rivals))
    replies = [await r.receive_until("welcome", "error") for r in rivals]
    assert sorted(r["t"] for r in replies) == ["error", "welcome"]
    assert host.tables[table_id].seats[2].name in ("R0", "R1")


async def test_no_seat_once_the_game_runs(host):
    table_id, (ann, bob) = await seated_table(host)
    late = await RawPeer.open(host.address[1])
    await late.send({"t": "hello", "name": "Late", "table": table_id})
    reply = await late.receive_until("error")
    assert reply["fatal"] and "has started; you may watch it" in reply["message"]
    lurker = await RawPeer.join(host.address[1], "Lurker")
    await assert_refused(host, table_id, lurker, {"t": "sit", "table": table_id, "seat": 3},
                         "has started", bystanders=[ann, bob])


async def test_starting_or_running_someone_elses_table_is_refused(host):
    port = host.address[1]
    mine = host.create_table("timebomb", 5, bots=1, start_when_full=True)
    holmes = await RawPeer.join(port, "Holmes", table=mine)  # seat 0: hosts the table
    watson = await RawPeer.join(port, "Watson", table=mine)
    theirs = host.create_table("timebomb", 5, bots=1, start_when_full=True)
    moriarty = await RawPeer.join(port, "Moriarty", table=theirs)  # hosts the other table
    for request_, words in [
        ({"t": "start"}, "only the player who hosts table"),
        ({"t": "add_bot", "table": mine}, "only the player who hosts table"),
    ]:
        await assert_refused(host, mine, watson, request_, words, bystanders=[holmes])
    # Moriarty hosts a table, but not this one.
    await assert_refused(host, mine, moriarty, {"t": "add_bot", "table": mine, "seat": 2},
                         f"only the player who hosts table {mine}", bystanders=[holmes])
    assert host.tables[mine].phase == "waiting"


async def test_a_refused_cheat_leaves_the_game_playable_to_its_end(host):
    table_id, (ann, bob) = await seated_table(host)
    await assert_refused(host, table_id, bob, {"t": "act", "action": {"type": "cut",
                                                                      "target": 0}},
                         "not your turn", bystanders=[ann])
    await ann.send({"t": "act", "action": {"type": "cut", "target": 1}})
    finals = await asyncio.gather(play_to_the_end(ann, 1), play_to_the_end(bob, 2))
    game = host.tables[table_id].game
    assert finals == [sent_view(game, 0), sent_view(game, 1)] and game.outcome is not None
    assert moves(game)[0] == (0, {"type": "cut", "target": 1})

"""A replay is the game rebuilt through the engine, view for view: games of every kind are
played at a host by connected players and bots, every state each seat and a spectator received
is kept, and the replay of each step through the same eyes is the same view, byte for byte."""

from __future__ import annotations

import msgpack
import pytest

import engine
from netplay.replays import EYES_ALL, round_of

from .conftest import listing, play_game, step

GAMES = [("timebomb", 5, 2), ("timebomb_evolution", 5, 2), ("machinations", 5, 2),
         ("holmes", 2, 1)]


def packed(view: dict) -> bytes:
    return msgpack.packb(view, use_bin_type=True)


@pytest.mark.parametrize("game, players, people", GAMES)
async def test_every_step_replays_as_each_seat_and_the_spectator_saw_it(host, game, players,
                                                                       people):
    played = await play_game(host, game, players, people, seed=20261125)
    try:
        table = host.tables[played.table]
        history = table.game.history
        seer = played.people[0]
        games = await listing(seer)
        assert [g["table"] for g in games] == [played.table]
        game_id = games[0]["game"]
        assert games[0]["result"] == table.game.outcome.text
        for eyes, states in played.states.items():
            # One state at the deal, then one after each move: step k is the k-th state.
            assert len(states) == len(history) + 1
            for number, live in enumerate(states):
                shown = await step(seer, game_id, eyes, number)
                assert (shown.step, shown.steps) == (number, len(history))
                assert packed(shown.view) == packed(live.view), (eyes, number)
        # Everything: the referee's view of the game rebuilt from the table's own history.
        for number in (0, len(history) // 2, len(history)):
            shown = await step(seer, game_id, EYES_ALL, number)
            rebuilt = engine.replay(game, players, table.options, table.seed, history[:number])
            expected = rebuilt.view(engine.REFEREE)
            assert {k: v for k, v in shown.view.items() if k not in ("events", "events_from")} \
                == {k: v for k, v in expected.items() if k != "events"}
            assert shown.view["events"] == \
                expected["events"][shown.view["events_from"]:]
    finally:
        await played.close()


@pytest.mark.parametrize("game, players, people", GAMES)
async def test_about_names_the_players_and_marks_begin_each_round(host, game, players, people):
    played = await play_game(host, game, players, people, seed=7)
    try:
        table = host.tables[played.table]
        seer = played.people[0]
        game_id = (await listing(seer))[0]["game"]
        first = await step(seer, game_id, 0, 0)
        about = first.about
        assert [s["kind"] for s in about["seats"]] == \
            ["human"] * people + ["bot"] * (players - people)
        assert [s["name"] for s in about["seats"]] == [s.name for s in table.seats]
        assert about["options"] == table.options and about["forced"] == []
        assert first.marks[0] == 0 and first.marks == sorted(set(first.marks))
        # Each mark is where the round changes, and only there.
        rounds = [round_of(engine.replay(game, players, table.options, table.seed,
                                         table.game.history[:n]).view(engine.SPECTATOR))
                  for n in range(len(table.game.history) + 1)]
        changes = [0] + [n for n in range(1, len(rounds)) if rounds[n] != rounds[n - 1]]
        assert first.marks == changes and len(changes) > 1
        # The next step appends to the events; it carries no `about` again.
        second = await step(seer, game_id, 0, 1)
        assert second.about is None and second.moved["seat"] == table.game.history[0][0]
        assert second.moved["by"] in ("person", "bot")
    finally:
        await played.close()


@pytest.mark.parametrize("game, players, people", GAMES)
async def test_a_step_back_keeps_the_events_held_and_drops_only_the_undone(host, game, players,
                                                                          people):
    """PROTOCOL.md, "Replays": a step of the same game and eyes whose `first` falls within the
    events held keeps those before it. Through everything (the most events), forward from the
    deal and back again, the list never starts over: it starts at 0 all the way, each step's
    events being the referee's up to that step, though each step back brings a tail."""
    played = await play_game(host, game, players, people, seed=5)
    try:
        table = host.tables[played.table]
        history = table.game.history
        seer = played.people[0]
        game_id = (await listing(seer))[0]["game"]
        walk = [*range(len(history) + 1), *range(len(history) - 1, -1, -1)]
        for number in walk:
            shown = await step(seer, game_id, EYES_ALL, number)
            assert shown.view["events_from"] == 0, number
            assert shown.view["events"] == referee_events(table, number), number
    finally:
        await played.close()


@pytest.mark.parametrize("game, players, people", GAMES)
async def test_a_step_back_after_a_tail_keeps_the_lists_start(host, game, players, people):
    """PROTOCOL.md, "Replays": a fresh connection that jumps to the end gets a tail; each step
    back from there keeps the list starting where the tail did (the host sends no earlier
    tail), until a step goes back past that start."""
    played = await play_game(host, game, players, people, seed=5)
    try:
        table = host.tables[played.table]
        seer = played.people[0]
        game_id = (await listing(seer))[0]["game"]
        last = len(table.game.history)
        start = (await step(seer, game_id, EYES_ALL, last)).view["events_from"]
        assert start > 0, "the game is long enough for a tail"
        for number in range(last - 1, -1, -1):
            shown = await step(seer, game_id, EYES_ALL, number)
            everything = referee_events(table, number)
            if len(everything) >= start:
                assert shown.view["events_from"] == start, number
            assert shown.view["events"] == everything[shown.view["events_from"]:], number
    finally:
        await played.close()


def referee_events(table, number: int) -> list[dict]:
    """Everything a referee saw of `table`'s game after its first `number` moves."""
    rebuilt = engine.replay(table.game_id, table.players, table.options, table.seed,
                            table.game.history[:number])
    return rebuilt.view(engine.REFEREE)["events"]

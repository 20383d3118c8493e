"""What the store keeps of each game is enough for a replay (times, who made each move, covers
with the steps they began and ended, who played each seat, the options, the table's chat), and
`--resume` still reads a store that holds it."""

from __future__ import annotations

import contextlib
import random

import engine
from netplay.game_record import GameRecord, table_games
from netplay.replays import Replay
from netplay.store import Store
from netplay.journal import BY_TIMER
from netplay.table import HUMAN
from netplay.tables import Tables, restore_table


def move(table, rng: random.Random) -> None:
    game = table.game
    seat = min(game.to_act())
    legal = [a for a in game.legal_actions(seat) if a["type"] not in game.FREE_ACTIONS]
    table.play(seat, rng.choice(legal))


def test_the_record_holds_times_movers_covers_seats_and_chat(tmp_path):
    with contextlib.closing(Store.open(tmp_path)) as store:
        tables = Tables(store)
        table = tables.create("timebomb", 4, {"first_player": 0}, "Baker Street", bots=2)
        ann, _ = tables.sit(table, "Ann", None)
        bob, _ = tables.sit(table, "Bob", None)
        ann.client, bob.client = "Ann's connection", "Bob's connection"  # both here at first
        table.say("before the game", ann.seat, ann.name, spectator=False)
        table.start_game(20261125)  # a deal whose Bomb is not among the first cuts
        rng = random.Random(1)
        table.say("good luck", ann.seat, ann.name, spectator=False)
        table.say("a spectator's aside", None, "Eve", spectator=True)
        move(table, rng)
        table.cover(table.seats[bob.seat], BY_TIMER)
        while table.game.outcome is None and len(table.game.history) < 3:
            move(table, rng)
        assert len(table.game.history) == 3
        table.uncover(table.seats[bob.seat])
        while table.game.outcome is None:
            move(table, rng)
        table.say("gg", bob.seat, bob.name, spectator=False)
        records = store.records(table.id)

    [record] = table_games(records)
    assert record.game == f"{table.id}-1" and record.seed == table.seed
    assert record.options == table.options and record.name == "Baker Street"
    assert [(p.name, p.kind) for p in record.seats] == \
        [("Ann", HUMAN), ("Bob", HUMAN), ("Bot 3", "bot"), ("Bot 4", "bot")]
    assert [(m.seat, m.action) for m in record.moves] == table.game.history
    assert all(isinstance(m.time, float) for m in record.moves)
    # Moves made while the timer's bot covered Bob are the timer's; the others' are known.
    [cover] = record.covers
    assert (cover.seat, cover.start, cover.end, cover.by) == (bob.seat, 1, 3, BY_TIMER)
    for step, m in enumerate(record.moves, 1):
        expected = ("timer" if m.seat == bob.seat and 1 < step <= 3
                    else "person" if m.seat in (ann.seat, bob.seat) else "bot")
        assert m.by == expected, step
    assert record.about()["forced"] == [s for s, m in enumerate(record.moves, 1)
                                        if m.by == "timer"]
    # The table's chat of this game, with the step it was said at; not the spectators'.
    assert [(s.step, s.text) for s in record.chat] == [(0, "good luck"),
                                                       (len(record.moves), "gg")]
    # The entries read back as the same record, and it replays to the same end.
    again = GameRecord.from_entries(record.entries())
    assert again.entries() == record.entries()
    assert Replay(again).outcome == table.game.outcome


def test_resume_reads_the_new_records_and_keeps_the_chat(tmp_path):
    with contextlib.closing(Store.open(tmp_path)) as store:
        tables = Tables(store)
        table = tables.create("timebomb", 4, {}, bots=3, public_replays=True)
        ann, _ = tables.sit(table, "Ann", None)
        table.start_game(None)
        table.say("still here?", ann.seat, ann.name, spectator=False)
        move(table, random.Random(2))
        table.cover(table.seats[ann.seat], BY_TIMER)
        records = store.records(table.id)
    back = restore_table(table.id, records)
    assert back.game.history == table.game.history and back.seed == table.seed
    assert back.games == 1 and back.public_replays
    assert back.seats[ann.seat].cover_by == BY_TIMER
    assert [line.text for line in back.recent_chat(spectator=False)] == ["still here?"]


def test_every_game_at_a_table_that_plays_again_is_its_own_record(tmp_path):
    with contextlib.closing(Store.open(tmp_path)) as store:
        tables = Tables(store)
        table = tables.create("timebomb", 4, {}, bots=4)
        seeds, histories = [], []
        for game in range(3):
            table.start_game(None)
            rng = random.Random(game)
            while table.game.outcome is None:
                move(table, rng)
            seeds.append(table.seed)
            histories.append(list(table.game.history))
        records = store.records(table.id)
    games = table_games(records)
    assert [g.game for g in games] == [f"{table.id}-{n}" for n in (1, 2, 3)]
    # The evening's record: each game, its result and its winners, as the lobby tells it,
    # and the same after --resume.
    evening = table.lobby().evening
    assert [e["game"] for e in evening] == [g.game for g in games]
    for entry, game in zip(evening, games):
        outcome = Replay(game).outcome
        assert entry["result"] == outcome.text and entry["team"] == outcome.winning_team
        assert entry["winners"] == [table.seats[s].name for s in sorted(outcome.winners)]
    assert restore_table(table.id, records).evening == evening
    assert [g.seed for g in games] == seeds and len(set(seeds)) == 3
    assert [[(m.seat, m.action) for m in g.moves] for g in games] == histories
    assert all(Replay(g).finished for g in games)


def test_a_running_game_replays_unfinished(tmp_path):
    with contextlib.closing(Store.open(tmp_path)) as store:
        tables = Tables(store)
        table = tables.create("machinations", 5, {}, bots=5)
        table.start_game(None)
        move(table, random.Random(3))
        [record] = table_games(store.records(table.id))
    replay = Replay(record)
    assert not replay.finished and replay.steps == 1
    assert replay.game_at(1).view(engine.REFEREE) == table.game.view(engine.REFEREE)

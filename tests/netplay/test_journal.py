"""The store's journal reads the same whatever wrote it: a table's records written as literal
maps, the way the host wrote them before they were typed (and before paces, movers, covers'
authors and the game's seats were kept), still resume and still replay; and the typed records
write those same maps, key for key."""

from __future__ import annotations

import contextlib

import engine
from netplay.game_record import table_games
from netplay.journal import (
    DEFAULT_PACE,
    PERSON,
    Acted,
    Chatted,
    GameStarted,
    HostSeatSet,
    SeatSet,
    TableMade,
    read_record,
)
from netplay.store import Store
from netplay.tables import restore_table

SEED = 20261127


def cuts(count: int) -> list[tuple[int, dict]]:
    """The first `count` moves of a 4-seat Time Bomb game from `SEED`, each the first cut."""
    game = engine.new_game("timebomb", 4, {}, SEED)
    moves = []
    while len(moves) < count and game.outcome is None:
        seat = min(game.to_act())
        action = next(a for a in game.legal_actions(seat) if a["type"] == "cut")
        game.apply(seat, action)
        moves.append(game.history[-1])
    return moves


def oldest_journal() -> list[dict]:
    """A table's records as the first stores wrote them: no pace, no replay, privacy or
    starting setting, no cover's author, a game with neither its time nor its seats, moves with
    neither their time nor their mover, and a chat line without its time."""
    seats = [{"t": "seat", "seat": i, "kind": "bot", "name": f"Bot {i + 1}", "token_hash": None,
              "bot": "novice", "covered": False} for i in range(1, 4)]
    return [
        {"t": "table", "id": "ab12cd34", "name": "Baker Street", "game": "timebomb",
         "players": 4, "options": {}, "bot_level": "novice", "turn_timer": 60},
        {"t": "seat", "seat": 0, "kind": "human", "name": "Ann", "token_hash": "f" * 64,
         "bot": None, "covered": False},
        {"t": "host_seat", "seat": 0},
        *seats,
        {"t": "game", "seed": SEED},
        {"t": "chat", "seat": 0, "name": "Ann", "text": "good luck"},
        *({"t": "act", "seat": seat, "action": action} for seat, action in cuts(2)),
        {"t": "seat", "seat": 0, "kind": "human", "name": "Ann", "token_hash": "f" * 64,
         "bot": "novice", "covered": True},
    ]


def test_a_journal_written_as_literal_maps_the_old_way_still_resumes_and_replays(tmp_path):
    with contextlib.closing(Store.open(tmp_path)) as store:
        store.add_table("ab12cd34")
        for record in oldest_journal():
            store.append("ab12cd34", record)
        records = store.records("ab12cd34")

    table = restore_table("ab12cd34", records)
    assert (table.bot_pace, table.public_replays, table.private, table.start_when_full) == \
        (DEFAULT_PACE, False, False, False)
    assert table.game.history == cuts(2) and table.host_seat == 0
    assert table.seats[0].covered and table.seats[0].cover_by is None
    assert [line.text for line in table.recent_chat(spectator=False)] == ["good luck"]

    [game] = table_games(records)
    assert game.game == "ab12cd34-1" and game.seed == SEED and game.started is None
    assert [(p.name, p.kind) for p in game.seats] == \
        [("Ann", "human"), ("Bot 2", "bot"), ("Bot 3", "bot"), ("Bot 4", "bot")]
    assert [(m.seat, m.action, m.time, m.by) for m in game.moves] == \
        [(seat, action, None, PERSON) for seat, action in cuts(2)]
    assert [(c.seat, c.start, c.end, c.by) for c in game.covers] == [(0, 2, 2, "host")]
    assert [(s.step, s.text, s.time) for s in game.chat] == [(0, "good luck", None)]
    assert game.token_hashes == ("f" * 64, None, None, None)


def test_each_typed_record_writes_the_map_the_store_always_kept():
    """Key for key and in the same order: the stored bytes do not change with the types."""
    written = [
        (TableMade(id="ab12cd34", name="Baker Street", game="timebomb", players=4, options={},
                  bot_level="novice", bot_pace="fast", turn_timer=0, public_replays=True,
                  private=False, start_when_full=True, hints=True),
            {"t": "table", "id": "ab12cd34", "name": "Baker Street", "game": "timebomb",
             "players": 4, "options": {}, "bot_level": "novice", "bot_pace": "fast",
             "turn_timer": 0, "public_replays": True, "private": False,
             "start_when_full": True, "hints": True}),
        (SeatSet(seat=0, kind="human", name="Ann", token_hash="f" * 64, bot=None,
                 covered=False, cover_by=None, person="ab" * 16),
            {"t": "seat", "seat": 0, "kind": "human", "name": "Ann", "token_hash": "f" * 64,
             "bot": None, "covered": False, "cover_by": None, "person": "ab" * 16}),
        (HostSeatSet(seat=0), {"t": "host_seat", "seat": 0}),
        (GameStarted(seed=SEED, time=1.5, seats=[{"name": "Ann", "kind": "human"}]),
            {"t": "game", "seed": SEED, "time": 1.5, "seats": [{"name": "Ann", "kind": "human"}]}),
        (Acted(seat=1, action={"type": "cut", "target": 2}, time=2.5, by="bot"),
            {"t": "act", "seat": 1, "action": {"type": "cut", "target": 2}, "time": 2.5,
             "by": "bot"}),
        (Chatted(seat=None, name="Eve", text="hi", time=3.5),
            {"t": "chat", "seat": None, "name": "Eve", "text": "hi", "time": 3.5}),
    ]
    for record, stored in written:
        assert list(record.to_dict().items()) == list(stored.items())
        assert read_record(stored) == record
    # A seat stored before persons were named reads as naming nobody.
    older = {k: v for k, v in written[1][1].items() if k != "person"}
    assert read_record(older).person is None
    # A table stored before hints allows none.
    assert not read_record({k: v for k, v in written[0][1].items() if k != "hints"}).hints

"""The seat rules, synchronously: no event loop, no sockets (the store commits at once)."""

from __future__ import annotations

import pytest

from netplay.errors import Refusal
from netplay.store import Store
from netplay.table import BOT, EMPTY, HUMAN, OVER, PLAYING, WAITING
from netplay.tables import Tables, restore_table


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path)
    yield store
    store.close()


@pytest.fixture
def tables(store):
    return Tables(store)


def test_a_seat_belongs_to_its_token_and_leaving_before_the_game_voids_it(tables):
    table = tables.create("timebomb", 4, bots=2)
    seat, token = tables.sit(table, "Ann", None)
    assert (seat.seat, seat.kind, table.host_seat) == (0, HUMAN, 0)
    assert tables.find_token(token) == (table, seat)
    assert tables.find_token(token + "x") is None
    tables.vacate(table, seat.seat)
    assert tables.find_token(token) is None
    assert (seat.kind, table.host_seat) == (EMPTY, None)


def test_the_host_role_passes_to_the_next_person_when_the_host_leaves(tables):
    table = tables.create("timebomb", 4)
    ann, _ = tables.sit(table, "Ann", None)
    bob, _ = tables.sit(table, "Bob", None)
    tables.vacate(table, ann.seat)
    assert table.host_seat == bob.seat


def test_a_taken_or_missing_seat_is_refused_and_changes_nothing(tables):
    table = tables.create("timebomb", 4, bots=3)
    with pytest.raises(Refusal, match="seat 3 at table .* is taken"):
        tables.sit(table, "Ann", 3)
    with pytest.raises(Refusal, match="has no seat 9"):
        tables.sit(table, "Ann", 9)
    assert table.seats_taken() == 3


def test_a_bot_takes_an_empty_seat_before_the_game_and_an_away_seat_during_it(tables):
    table = tables.create("timebomb", 4, bots=2)
    ann, token = tables.sit(table, "Ann", None)
    ann.client = "Ann's connection"
    bot = tables.add_bot(table, None)
    assert bot.kind == BOT and table.phase == WAITING
    table.start_game(seed=1)
    assert table.phase == PLAYING
    with pytest.raises(Refusal, match="no seat for a bot"):
        tables.add_bot(table, None)  # Ann is here: only an away player's seat may take a bot
    ann.client = None
    assert tables.add_bot(table, ann.seat) is ann
    # The bot covers Ann's seat: it stays hers, and her token brings her back.
    assert (ann.kind, ann.covered, ann.bot_plays, ann.bot) == (HUMAN, True, True, table.bot_level)
    assert tables.find_token(token) == (table, ann)
    assert table.lobby().seats[ann.seat]["covered"] is True
    with pytest.raises(Refusal, match="no seat for a bot"):
        tables.add_bot(table, ann.seat)  # covered already
    table.uncover(ann)
    assert (ann.covered, ann.bot_plays) == (False, False)


def test_a_covered_seat_survives_in_the_store(tables, store):
    table = tables.create("timebomb", 4, bots=3, bot_level="novice", turn_timer=60)
    ann, _ = tables.sit(table, "Ann", None)
    ann.client = "Ann's connection"
    table.start_game(seed=3)
    ann.client = None
    tables.add_bot(table, ann.seat)
    restored = restore_table(table.id, store.records(table.id))
    assert restored.seats[ann.seat].covered and restored.seats[ann.seat].bot == "novice"
    assert (restored.bot_level, restored.turn_timer) == ("novice", 60)
    assert [s.bot for s in restored.seats[1:]] == ["novice"] * 3


def test_play_again_waits_for_every_connected_person(tables):
    table = tables.create("timebomb", 4, bots=2)
    ann, _ = tables.sit(table, "Ann", None)
    bob, _ = tables.sit(table, "Bob", None)
    ann.client, bob.client = "Ann's connection", "Bob's connection"
    table.start_game(seed=1)
    with pytest.raises(Refusal, match="not over yet"):
        table.ask_play_again(ann.seat)
    game = table.game
    while game.outcome is None:
        seat = min(game.to_act())
        game.apply(seat, next(a for a in game.legal_actions(seat) if a["type"] == "cut"))
    assert table.phase == OVER
    assert table.ask_play_again(ann.seat) is False
    assert table.lobby().play_again == [ann.seat]
    bob.client = None  # Bob is away: the people still here decide
    assert table.everyone_asked()


def test_bad_bot_levels_and_timers_are_refused_and_create_nothing(tables):
    with pytest.raises(Exception, match="no bot level 'genius'"):
        tables.create("timebomb", 4, bot_level="genius")
    with pytest.raises(ValueError, match="turn timer is one of 0, 30, 60, 120"):
        tables.create("timebomb", 4, turn_timer=45)
    assert len(tables) == 0


def test_a_table_over_its_limit_is_refused(store):
    tables = Tables(store, max_tables=1)
    tables.create("timebomb", 4)
    with pytest.raises(ValueError, match="the limit is 1"):
        tables.create("timebomb", 4)


def test_the_summary_counts_people_and_bots_and_a_covered_seat_as_its_person(tables):
    """PROTOCOL.md, `tables`: `people` and `bots` split the taken seats; a bot covering an
    away person's seat does not make it a bot's."""
    table = tables.create("timebomb", 5, bots=2)
    ann, _ = tables.sit(table, "Ann", None)
    bob, _ = tables.sit(table, "Bob", None)
    facts = table.summary()
    assert (facts["seats_taken"], facts["people"], facts["bots"]) == (4, 2, 2)
    table.start_game(seed=1)  # the empty seat takes a bot
    table.cover(bob)  # Bob is away
    facts = table.summary()
    assert (facts["seats_taken"], facts["people"], facts["bots"]) == (5, 2, 3)

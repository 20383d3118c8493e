"""The seat rules, synchronously: no event loop, no sockets."""

from __future__ import annotations

import pytest

from netplay.errors import Refusal
from netplay.tables import BOT, EMPTY, HUMAN, PLAYING, WAITING, Tables


@pytest.fixture
def tables(tmp_path):
    return Tables(tmp_path)


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
    assert tables.add_bot(table, ann.seat) is ann and ann.kind == BOT
    assert tables.find_token(token) is None


def test_a_table_over_its_limit_is_refused(tmp_path):
    tables = Tables(tmp_path, max_tables=1)
    tables.create("timebomb", 4)
    with pytest.raises(ValueError, match="the limit is 1"):
        tables.create("timebomb", 4)

"""Plain tests of the headless view models, on real engine views."""

from __future__ import annotations

import pytest

import engine
from tui.address import Address, AddressError, parse_address
from tui.config import InvalidName, clean_name, load_name, save_name
from tui.listing import connect_error_text
from tui.games.timebomb.model import build_ending, build_model, counts_text, team_label
from tui.models.seats import SeatInfo, event_text, seat_infos

SEATS = [SeatInfo(s, n, "human", True) for s, n in enumerate(["Ann", "Bea", "Cy", "Dot", "Eve"])]


def game(seed=3):
    return engine.new_game("timebomb", 5, {}, seed)


def test_the_cutter_may_pick_exactly_the_legal_targets():
    g = game()
    cutter = g.cutter
    model = build_model(g.view(cutter), g.legal_actions(cutter), cutter, SEATS)
    assert model.may_cut
    assert model.targets == [a["target"] for a in g.legal_actions(cutter) if a["type"] == "cut"]
    assert cutter not in model.targets


def test_someone_else_waiting_has_no_target_but_may_claim():
    g = game()
    other = (g.cutter + 1) % 5
    model = build_model(g.view(other), g.legal_actions(other), other, SEATS)
    assert not model.may_cut and model.targets == []
    assert model.claims and all(c["type"] == "claim" for c in model.claims)
    assert model.role in ("sherlock", "moriarty") and sum(model.hand.values()) == 5


def test_a_spectator_model_holds_no_role_and_no_hand():
    g = game()
    model = build_model(g.view(engine.SPECTATOR), [], None, SEATS)
    assert model.spectator and model.role is None and model.hand is None
    assert not model.may_cut and not model.claims


def test_revealed_wires_are_listed_under_their_holder():
    g = game()
    cutter = g.cutter
    target = next(a["target"] for a in g.legal_actions(cutter) if a["type"] == "cut")
    g.apply(cutter, {"type": "cut", "target": target})
    model = build_model(g.view(engine.SPECTATOR), [], None, SEATS)
    assert len(model.players[target].revealed) == 1
    assert model.revealed[0]["target"] == target
    assert model.cuts_left == 4


def test_the_ending_names_winners_roles_and_remaining_wires():
    g = engine.new_game("timebomb", 4, {}, 11)
    while g.outcome is None:
        g.apply(g.cutter, next(a for a in g.legal_actions(g.cutter) if a["type"] == "cut"))
    ending = build_ending(g.view(0), 0, SEATS[:4])
    assert "team wins" in ending.headline
    assert [r.won for r in ending.rows] == [s in g.outcome.winners for s in range(4)]
    assert ending.set_aside is not None  # 4 players: one role card is set aside (TB-2)


def test_wire_kinds_and_teams_carry_words_not_only_colour():
    assert counts_text({"safe": 2, "defusing": 1, "bomb": 0}, ["safe", "defusing", "bomb"]) == (
        "2 ○ Safe · 1 ◆ Defusing"
    )
    assert team_label("moriarty") == "♠ Moriarty" and team_label("sherlock") == "☂ Sherlock"


def test_event_text_fills_in_player_names():
    assert event_text({"text": "{0} cuts a wire of {1}: Safe.", "seats": [0, 3]}, ["A", "B", "C", "D"]) == (
        "A cuts a wire of D: Safe."
    )


def test_seats_the_lobby_has_not_named_yet_are_free():
    seats = seat_infos([{"seat": 1, "name": "Robo", "kind": "bot", "connected": True}], 3)
    assert [s.status for s in seats] == ["empty", "bot", "empty"]


@pytest.mark.parametrize(
    "text, expected",
    [("127.0.0.1:7420", ("127.0.0.1", 7420)), (" host.lan:1 ", ("host.lan", 1)),
     ("[::1]:80", ("::1", 80))],
)
def test_addresses_parse(text, expected):
    address = parse_address(text)
    assert (address.host, address.port) == expected


@pytest.mark.parametrize("text", ["", "host", "host:", "host:abc", "host:0", "host:70000", ":80"])
def test_bad_addresses_say_what_to_type(text):
    with pytest.raises(AddressError, match="HOST:PORT|port"):
        parse_address(text)


def test_the_name_is_remembered_and_the_environment_overrides_it(monkeypatch):
    assert load_name() is None
    save_name("  Irene   Adler ")
    assert load_name() == "Irene Adler"
    monkeypatch.setenv("GASLIGHT_NAME", "Tester")
    assert load_name() == "Tester"


@pytest.mark.parametrize("text", ["", "   ", "x" * 25, "bell\x07"])
def test_unusable_names_are_refused_with_a_reason(text):
    with pytest.raises(InvalidName):
        clean_name(text)


def test_connection_errors_say_what_to_check():
    address = Address("127.0.0.1", 1)
    refused = connect_error_text(address, ConnectionRefusedError(111, "Connection refused"))
    assert refused == "Nobody answers at 127.0.0.1:1: is the host running, and is the port right?"
    assert "did not answer in time" in connect_error_text(address, TimeoutError())

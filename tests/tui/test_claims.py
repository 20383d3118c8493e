"""Claims are part of every deal (Time Bomb and Évolution), at 80x24: each person is offered
their claim right after each deal, the truth first, said with Enter or skipped with Esc; a
digit names a claim by its count; typing goes on into the chat beside the offer, which stays
open; the offer never holds the cutter up and closes when the state it was made for moves on;
past rounds' claims stay on the board beside the wires cut from their player."""

from __future__ import annotations

from support.flows import claim_offer, open_dialog, post_burst
from support.offline import (
    lobby,
    lobby_changed,
    open_table,
    seeded_game,
    skip_claim_offer,
)
from support.positions import arranged_game
from support.offline import offline_app as app
from support.screen_text import screen_text

import engine
from netplay.protocol import Act, Chat, ClaimDone
from tui.games.timebomb.model import build_model as build_timebomb_model
from tui.games.timebomb_evolution.model import build_model as build_evolution_model
from tui.messages import StateChanged
from tui.models.seats import seat_infos

TIMEBOMB_EVOLUTION = "timebomb_evolution"


def recording(screen) -> list:
    sent: list = []
    screen.send = sent.append
    return sent


def not_the_cutter(game) -> int:
    return next(s for s in range(game.players) if s != game.cutter)


async def offered(pilot) -> bool:
    """The claim offer is on screen, within a few frames."""
    for _ in range(10):
        if claim_offer(pilot.app):
            return True
        await pilot.pause()
    return False


def highlighted(application) -> dict:
    dialog = open_dialog(application)
    return dialog.choices[dialog.choice_list.highlighted].answer


def truth_of(game, seat: int) -> dict:
    hand = game.view(seat)["hand"]
    return {"type": "claim", "defusing": hand["defusing"], "bomb": hand["bomb"]}


async def show(screen, game, seat, pilot) -> None:
    screen.post_message(StateChanged(game.view(seat), game.legal_actions(seat), seat))
    for _ in range(3):
        await pilot.pause()


async def test_each_deal_offers_the_claim_with_the_truth_first_and_enter_says_it():
    game = seeded_game(0)
    for seat in (game.cutter, not_the_cutter(game)):  # the cutter is a person at the table too
        application = app()
        async with application.run_test(size=(80, 24)) as pilot:
            screen = await open_table(application, game, seat)
            await pilot.pause()
            assert await offered(pilot)
            assert "Round 1 dealt" in screen_text(application)
            assert "← true" in screen_text(application)
            assert highlighted(application) == truth_of(game, seat)
            sent = recording(screen)
            await pilot.press("enter")
            await pilot.pause()
            assert sent == [Act(truth_of(game, seat))]
            assert application.screen is screen and screen.board.dialog is None


async def test_a_digit_names_a_claim_by_its_count():
    """In the list of counts, "3" says 3 (not the list's third line), and Enter claims it."""
    game = seeded_game(0)
    seat = not_the_cutter(game)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        assert await offered(pilot)
        sent = recording(screen)
        await pilot.press("3")
        assert highlighted(application) == {"type": "claim", "defusing": 3, "bomb": 0}
        await pilot.press("enter")
        await pilot.pause()
        assert sent == [Act({"type": "claim", "defusing": 3, "bomb": 0})]


async def test_evolution_offers_its_claim_with_the_defusing_wires_and_the_commonest_colour():
    game = engine.new_game(TIMEBOMB_EVOLUTION, 5, {}, 7)
    seat = not_the_cutter(game)
    hand = game.view(seat)["hand"]
    colours = {k: n for k, n in hand.items() if k != "defusing" and n}
    commonest = max(colours.values())
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat, lobby(game=TIMEBOMB_EVOLUTION))
        assert await offered(pilot)
        truth = highlighted(application)
        assert truth["defusing"] == hand["defusing"] and hand[truth["colour"]] == commonest
        sent = recording(screen)
        await pilot.press("enter")
        await pilot.pause()
        assert sent == [Act(truth)]


async def test_esc_skips_the_offer_tells_the_bots_not_to_wait_and_it_is_not_offered_again():
    game = seeded_game(0)
    seat = not_the_cutter(game)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        assert await offered(pilot)
        sent = recording(screen)
        await pilot.press("escape")
        await pilot.pause()
        # No claim, and the host hears so: its bots need not wait for one (PROTOCOL.md, "Deals").
        assert screen.board.dialog is None and sent == [ClaimDone()]
        await show(screen, game, seat, pilot)  # another state of the same round
        assert screen.board.dialog is None


async def test_the_offer_never_holds_the_cutter_up_and_closes_when_its_wires_change():
    """Others' offers stay open while the cutter cuts; a cut of this player's wire changes the
    truth under the offer, so it closes and says why."""
    game = seeded_game(0)
    seat = not_the_cutter(game)
    other = next(s for s in range(5) if s not in (seat, game.cutter))
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        assert await offered(pilot)
        cutter = game.cutter
        game.apply(cutter, {"type": "cut", "target": other})  # the cutter cuts meanwhile
        await show(screen, game, seat, pilot)
        assert await offered(pilot)
        game.apply(game.cutter, {"type": "cut", "target": seat})
        await show(screen, game, seat, pilot)
        assert screen.board.dialog is None
        assert any("a wire of yours was cut" in n.message for n in application._notifications)


async def test_the_offer_leaves_the_players_their_claims_and_the_log_in_sight():
    """A compact panel under the board, not a box over it: at 80x24 the players, their
    claims, the log, with how the last round ended, and the chat with its line stay
    readable."""
    game = seeded_game(5)  # round 2, just dealt
    seat = not_the_cutter(game)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, seat)
        assert await offered(pilot) and "Round 2 dealt" in screen_text(application)
        text = screen_text(application)
        assert "─ Players ─" in text and "─ Log ─" in text and "claim" in text
        assert "─ Chat ─" in text and "type to chat" in text
        for seat_info in lobby()["seats"]:
            assert seat_info["name"] in text
        assert "cuts a wire of" in text and "Round 2: " in text  # the last cut, the deal


async def test_a_new_deal_closes_the_last_rounds_offer_and_offers_again():
    before, after = seeded_game(4), seeded_game(5)  # five cuts at five players: round 2
    assert before.round == 1 and after.round == 2 and after.cuts == 0
    seat = not_the_cutter(after)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, seeded_game(0), seat)
        assert await offered(pilot)
        await show(screen, after, seat, pilot)
        assert await offered(pilot) and "Round 2 dealt" in screen_text(application)
        assert highlighted(application) == truth_of(after, seat)
        assert any("a new round has begun" in n.message for n in application._notifications)


async def test_a_sentence_typed_at_the_offer_is_chat_and_the_offer_stays():
    """Key by key or in one burst, a sentence is chat: it claims nothing and closes nothing,
    and the Enter after it claims."""
    for burst in (False, True):
        game = seeded_game(0)
        seat = not_the_cutter(game)
        application = app()
        async with application.run_test(size=(80, 24)) as pilot:
            screen = await open_table(application, game, seat)
            assert await offered(pilot)
            sent = recording(screen)
            line = "2 defusing here, honest"
            if burst:
                post_burst(application, line)
            else:
                await pilot.press(*line, "enter")
            for _ in range(3):
                await pilot.pause()
            assert sent == [Chat(line)]
            assert claim_offer(application)
            await pilot.press("enter")
            await pilot.pause()
            assert sent == [Chat(line), Act(truth_of(game, seat))]


async def test_a_deal_while_the_player_is_mid_sentence_offers_the_claim_beside_the_line():
    game = seeded_game(4)
    seat = not_the_cutter(seeded_game(5))
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        await pilot.pause()
        sent = recording(screen)
        await pilot.press(*"wait")
        await show(screen, seeded_game(5), seat, pilot)  # round 2 is dealt as they type
        assert await offered(pilot)
        await pilot.press(*" a sec", "enter")
        await pilot.pause()
        assert sent == [Chat("wait a sec")]
        assert claim_offer(application)


def claimed_round_one():
    """Round 1 with every seat's claim, then cut to round 2: the same every run."""
    game = engine.new_game("timebomb", 5, {}, 7)
    for seat in range(5):
        game.apply(seat, truth_of(game, seat))
    while game.round == 1:
        cutter = game.cutter
        game.apply(cutter, next(a for a in game.legal_actions(cutter) if a["type"] == "cut"))
    return game


def round_one_cuts(game) -> dict[int, str]:
    from tui.games.timebomb.model import wire_symbol

    cut: dict[int, str] = {}
    for wire in game.view(0)["revealed"]:
        if wire["round"] == 1:
            cut[wire["target"]] = cut.get(wire["target"], "") + wire_symbol(wire["wire"])
    return cut


def test_past_claims_are_kept_beside_the_wires_cut_from_their_player():
    game = claimed_round_one()
    seats = seat_infos(lobby()["seats"], 5)
    model = build_timebomb_model(game.view(0), game.legal_actions(0), 0, seats)
    cut = round_one_cuts(game)
    assert len(model.history) == 5
    for seat, line in enumerate(model.history):
        hand = game.events  # the round-1 claim of this seat is its round-1 truth
        claim = next(e for e in hand if e.type == "claim" and e.seats == (seat,)).data
        bomb = "✹ Bomb" if claim["bomb"] else "no ✹"
        assert line == (f"R1 {seats[seat].name} claimed {claim['defusing']}◆ {bomb} · "
                        f"cut {cut.get(seat, 'none')}")
    # The round being played is on the players' rows, not yet in the history.
    game.apply(1, {"type": "claim", "defusing": 0, "bomb": 0})
    model = build_timebomb_model(game.view(0), game.legal_actions(0), 0, seats)
    assert len(model.history) == 5 and all(line.startswith("R1 ") for line in model.history)


async def test_past_claims_are_on_the_board_at_80x24():
    game = claimed_round_one()
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, 0)
        await skip_claim_offer(pilot)
        text = screen_text(application)
        assert "past claims" in text
        assert "R1 Ada claimed" in text and "· cut" in text


def test_evolution_history_names_colours_and_the_wires_cut():
    game = engine.new_game(TIMEBOMB_EVOLUTION, 5, {}, 7)
    game.apply(0, {"type": "claim", "defusing": 1, "colour": game.colours[0]})
    while game.round == 1 and game.outcome is None:
        (seat,) = game.to_act()
        game.apply(seat, next(a for a in game.legal_actions(seat) if a["type"] != "claim"))
    model = build_evolution_model(game.view(1), game.legal_actions(1), 1, seat_infos(lobby()["seats"], 5))
    line = next(line for line in model.history if line.startswith("R1 Ada "))
    assert line.startswith(f"R1 Ada claimed 1◆ +{game.colours[0].capitalize()} · cut ")


async def test_a_covered_seats_claims_are_the_bots_only_while_the_cover_lasts():
    game = seeded_game(1)
    claim = next(a for a in game.legal_actions(4) if a["type"] == "claim")
    game.apply(4, claim)
    covered = lobby()
    covered["seats"][4] = {**covered["seats"][4], "covered": True}
    application = app()
    async with application.run_test(size=(120, 40)) as pilot:
        screen = await open_table(application, game, 0, covered)
        await skip_claim_offer(pilot)

        def edith_row() -> str:
            return next(line.split("││")[0] for line in screen_text(application).splitlines()
                        if "Edith" in line.split("││")[0] and "▮" in line)

        assert "(bot's)" in edith_row()
        back = lobby()
        back["seats"][4] = {**back["seats"][4], "connected": True}
        screen.post_message(lobby_changed(back))
        await show(screen, game, 0, pilot)
        assert "(bot's)" not in edith_row() and "(bot playing)" not in edith_row()


async def test_evolution_rows_stay_one_line_with_a_claim_and_every_mark():
    """The forced target's row, with the longest claim and the designation mark: at 80
    columns the colour is its initial, as in the revealed column."""
    game = arranged_game()
    colour = max(game.colours, key=len)
    for seat in range(5):
        held = sum(game.hands[seat])
        if held:
            game.apply(seat, {"type": "claim", "defusing": held - 1, "colour": colour})
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, 0, lobby(game=TIMEBOMB_EVOLUTION))
        await skip_claim_offer(pilot)
        text = screen_text(application)
        rows = [line for line in text.splitlines() if "▮" in line]
        assert len(rows) == 5
        assert sum(f"+{colour[0].upper()}" in row for row in rows) >= 4
        assert "⇦" in text


def test_a_colour_that_went_off_is_not_a_warning():
    from tui.games.timebomb_evolution.model import ColourRow

    assert ColourRow("red", 3, 4, None).one_from_exploding
    assert not ColourRow("red", 4, 4, None).one_from_exploding
    assert ColourRow("red", 4, 4, None).gone_off
    assert not ColourRow("red", 4, 4, 1).gone_off and not ColourRow("red", 4, 4, 1).one_from_exploding


async def test_the_log_keeps_each_rounds_claims_before_the_next_deal():
    """Where a short board has no room left (Évolution at 80x24), the log has them."""
    from tui.widgets.event_log import EventLog

    game = engine.new_game(TIMEBOMB_EVOLUTION, 5, {}, 7)
    game.apply(0, {"type": "claim", "defusing": 0, "colour": ""})
    while game.round == 1 and game.outcome is None:
        (seat,) = game.to_act()
        game.apply(seat, next(a for a in game.legal_actions(seat) if a["type"] != "claim"))
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, 0, lobby(game=TIMEBOMB_EVOLUTION))
        await skip_claim_offer(pilot)
        entries = application.screen.query_one(EventLog).entries
        deal = next(i for i, e in enumerate(entries)
                    if isinstance(e, dict) and e["type"] == "deal" and e["round"] == 2)
        summary = []
        for entry in reversed(entries[:deal]):
            if not (isinstance(entry, str) and entry.startswith("R1 ")):
                break
            summary.append(entry)
        assert any(line.startswith("R1 Ada claimed 0◆ · cut") for line in summary)


async def test_a_game_key_right_behind_a_sentence_typed_at_the_offer_reaches_the_game():
    """"2 defusing here, honest", Enter and Ctrl+K, as fast as a terminal sends them: the
    line is chat, and Ctrl+K opens the claim in place of the offer."""
    from textual import events

    game = seeded_game(0)
    seat = not_the_cutter(game)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, seat)
        assert await offered(pilot)
        sent = recording(screen)
        post_burst(application, "2 defusing here, honest")
        application.post_message(events.Key("ctrl+k", None))
        for _ in range(6):
            await pilot.pause()
        assert sent == [Chat("2 defusing here, honest")]
        dialog = open_dialog(application)
        assert dialog is not None and " dealt: " not in dialog.panel_title  # Ctrl+K's claim

"""Everyone sees what the table waits for, and names are text: at 80x24, from the messages a
host sends (the offline play screen), a status line that names an away or covered player, the
bell once when the game starts waiting for you, the play-again roster on another player's end
screen, and names holding Rich markup drawn literally on every screen of a table."""

from __future__ import annotations

from support.offline import (
    finished_game,
    lobby,
    lobby_changed,
    open_table,
    seeded_game,
    skip_claim_offer,
)
from support.offline import offline_app as app
from support.screen_text import screen_text

from netplay.protocol import PlayAgain
from tui.messages import ChatReceived, StateChanged
from tui.screens.end import EndScreen
from tui.widgets.status_bar import StatusBar

MARKUP_NAME = "[reverse]Les[/]trade [b]X"
MARKUP_TABLE = "[b]Baker[/b] [red]St"


def cutter_at(seat: int):
    """A game whose cutter is `seat`: the one whose wire was cut cuts next."""
    game = seeded_game(0)
    if game.cutter != seat:
        game.apply(game.cutter, {"type": "cut", "target": seat})
    assert game.cutter == seat and game.outcome is None
    return game


def waiting_for_edith():
    """A game whose cutter is Edith, the away player of the offline lobby (seat 4)."""
    return cutter_at(4)


def status(application) -> str:
    bar = application.screen.query_one(StatusBar)
    return " ".join(str(bar.query_one(f"#status-{part}").render()) for part in ("turn", "game"))


async def test_the_status_line_says_the_player_it_waits_for_is_away_and_who_can_help():
    """Whoever may let a bot cover the away player now (the host names who: `may_cover`)
    reads the key; the others read who can, or that anyone can after a pause."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, waiting_for_edith(), 0, lobby(may_cover=[0]))
        await pilot.pause()
        assert "Edith cuts, away: press Ctrl+O for a bot" in status(application)
        for _ in range(20):  # the footer is drawn again after the bindings changed
            if "^o Bot for away" in screen_text(application):
                break
            await pilot.pause()
        assert "^o Bot for away" in screen_text(application)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, waiting_for_edith(), 0,
                                  lobby(host_seat=2, may_cover=[2]))
        await pilot.pause()
        assert "Edith cuts, away: Cyril can press Ctrl+O" in status(application)
        assert not screen.check_action("cover", ())
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        # Edith hosts, and is away; Cyril holds the host's powers while she is, and anyone
        # may after the pause the table sees.
        screen = await open_table(application, waiting_for_edith(), 0,
                                  lobby(host_seat=4, acting_host=2))
        await pilot.pause()
        assert "Edith cuts, away: Cyril can press Ctrl+O (soon anyone)" in status(application)
        assert not screen.check_action("cover", ())
        screen.post_message(lobby_changed(lobby(host_seat=4, acting_host=2, may_cover=[0, 2])))
        await pilot.pause()
        await pilot.pause()
        assert screen.check_action("cover", ())


async def test_a_covered_seat_reads_bot_playing_and_its_claims_are_the_bots():
    game = waiting_for_edith()
    claim = next(a for a in game.legal_actions(4) if a["type"] == "claim")
    game.apply(4, claim)
    covered = lobby()
    covered["seats"][4] = {**covered["seats"][4], "covered": True}
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, 0, covered)
        await pilot.pause()
        assert "Edith (bot playing) cuts" in status(application)
        assert "away" not in status(application)
        row = next(line for line in screen_text(application).splitlines() if "Edith (" in line and "▮" in line)
        assert "Edith (bot)" in row  # at 80 columns; "(bot playing)" and "(bot's)" from 100
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        row = next(line for line in screen_text(application).splitlines()
                   if "Edith (" in line and "▮" in line)
        assert "Edith (bot playing)" in row and "(bot's)" in row


async def test_the_bell_rings_once_when_the_game_starts_waiting_for_you(monkeypatch):
    before, after = seeded_game(0), seeded_game(1)
    seat = after.cutter
    assert before.cutter != seat
    application = app()
    rings = []
    monkeypatch.setattr(application, "bell", lambda: rings.append(1))
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, before, seat)
        await pilot.pause()
        assert rings == []
        for game in (after, after):
            screen.post_message(StateChanged(game.view(seat), game.legal_actions(seat), seat))
            await pilot.pause()
        assert rings == [1]
        assert "your cut" in status(application)


async def test_no_bell_when_the_player_turned_it_off(monkeypatch):
    from tui.config import save_setting

    save_setting("bell", False)
    application = app()
    rings = []
    monkeypatch.setattr(application, "bell", lambda: rings.append(1))
    async with application.run_test(size=(80, 24)) as pilot:
        game = seeded_game(1)
        await open_table(application, game, game.cutter)
        await pilot.pause()
        assert rings == []


async def test_every_end_screen_shows_who_asked_for_another_game_and_who_is_awaited():
    """Cyril asked; Ada, who has not, sees it and the key to join in; then Ada asks too."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, finished_game(), 0,
                                  lobby(phase="over", play_again=[2]))
        while not isinstance(application.screen, EndScreen):
            await pilot.pause()
        await pilot.pause()
        text = " ".join(screen_text(application).split())
        assert "Asked: Cyril. Waiting for: you. Press Ctrl+R to join in." in text
        sent = []
        screen.send = sent.append
        await pilot.press("ctrl+r")
        assert sent == [PlayAgain()]
        screen.post_message(lobby_changed(lobby(phase="over", play_again=[0, 2])))
        await pilot.pause()
        await pilot.pause()
        text = " ".join(screen_text(application).split())
        assert "Asked: you, Cyril. Waiting for: nobody. You asked." in text
        assert isinstance(application.screen, EndScreen)


def markup_lobby(**overrides):
    message = lobby(name=MARKUP_TABLE, **overrides)
    message["seats"][2] = {**message["seats"][2], "name": MARKUP_NAME}
    return message


async def test_names_with_markup_are_drawn_as_text_on_every_screen_of_a_table():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, None, 0, markup_lobby(phase="waiting"))
        await pilot.pause()
        text = screen_text(application)
        assert MARKUP_NAME in text and MARKUP_TABLE in text  # seats, and the panel's title
        # Cyril's seat holds the name: a game where they cut, and were cut.
        game = cutter_at(2)
        screen.post_message(lobby_changed(markup_lobby()))
        screen.post_message(StateChanged(game.view(0), game.legal_actions(0), 0))
        screen.post_message(ChatReceived(MARKUP_NAME, "[b]bold?[/b]", "table"))
        await pilot.pause()
        await pilot.pause()
        text = screen_text(application)
        assert f"✂ {MARKUP_NAME} cuts" in status(application)
        assert text.count(MARKUP_NAME) >= 3  # status line, players, log
        chat = application.screen.query_one("#chat-log")
        said = "".join(line.text for line in chat.lines)
        assert f"{MARKUP_NAME}: [b]bold?[/b]" in said and "[reverse]Les" in text  # chat
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, finished_game(), 0, markup_lobby(phase="over"))
        while not isinstance(application.screen, EndScreen):
            await pilot.pause()
        await pilot.pause()
        assert MARKUP_NAME in screen_text(application)


async def test_a_claim_dialog_open_when_the_game_ends_closes_and_says_why(waiter):
    """The issue's claim dialog that outlived its game: it closes when the state moves on."""
    from support.flows import open_dialog

    game = seeded_game(0)
    seat = next(s for s in range(5) if s != game.cutter)
    application = app()
    async with application.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        screen = await open_table(application, game, seat)
        await skip_claim_offer(pilot)
        await pilot.press("ctrl+k")
        await waiter.until(pilot, lambda: open_dialog(application), "claims")
        over = finished_game()
        screen.post_message(StateChanged(over.view(seat), over.legal_actions(seat), seat))
        # The word is a notification: the app takes it in a message of its own, after the
        # dialog has closed, so wait for it rather than for a number of pauses.
        await waiter.until(pilot, lambda: any(
            "The dialog closed: the game is over." in n.message
            for n in application._notifications), "the closing word")
        assert screen.board.dialog is None


async def test_a_cut_dialog_closes_when_a_new_round_begins_under_it():
    from support.flows import open_dialog

    game = seeded_game(0)
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, game, game.cutter)
        await skip_claim_offer(pilot)
        await pilot.press("enter")
        for _ in range(3):
            await pilot.pause()
        assert open_dialog(application) is not None
        later = seeded_game(6)  # five cuts at five players: a new round is dealt
        assert later.view(0)["round"] != game.view(0)["round"]
        screen.post_message(StateChanged(later.view(game.cutter), later.legal_actions(game.cutter),
                                         game.cutter))
        for _ in range(4):
            await pilot.pause()
        assert screen.board.dialog is None
        assert any("The dialog closed" in n.message for n in application._notifications)


async def test_at_a_deal_the_status_line_says_whose_claims_the_bots_wait_for():
    """PROTOCOL.md, "Deals": a bot's cut waits for the people's claims, and says so."""
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        screen = await open_table(application, cutter_at(1), 0, lobby(claim_wait=[0, 2]))
        await skip_claim_offer(pilot)
        assert "✂ Bot 2 cuts once you and Cyril have claimed" in status(application)
        screen.post_message(lobby_changed(lobby(claim_wait=[2])))
        await pilot.pause()
        assert "✂ Bot 2 cuts once Cyril has claimed" in status(application)
        screen.post_message(lobby_changed(lobby(claim_wait=[])))
        await pilot.pause()
        assert "once" not in status(application)

"""Pilot flows: the real app against a real in-process host on 127.0.0.1."""

from __future__ import annotations

from support.flows import claim_offer, open_dialog, pair, play_screen, question, second_waiter
from support.screen_text import screen_text

from netplay.pairing import show_code
from tui.screens.end import EndScreen
from tui.screens.pairing import PairingScreen
from tui.widgets.event_log import EventLog
from tui.widgets.player_list import PlayerList
from tui.widgets.table_list import TableList


async def test_play_against_bots_until_the_end_then_play_again(app_factory, waiter):
    """Lobby, b and Enter (Time Bomb at 5, the default), cut wires by keyboard until the end
    screen, then play again."""
    app = app_factory()
    async with app.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g", "enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the play screen")
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        await waiter.until(
            pilot, lambda: table.board.model.may_cut or table.view["outcome"], "my turn"
        )
        if claim_offer(app):  # bots this fast may have cut before the first deal was drawn
            await pilot.press("escape")
        if not table.view["outcome"]:
            # A claim changed from its dialog; then the first cut by mouse: a player, a wire.
            await pilot.press("ctrl+k")
            await waiter.until(pilot, lambda: open_dialog(app), "claims")
            await pilot.press("0", "enter")  # a count: "I hold 0 Defusing wires"
            await waiter.until(
                pilot, lambda: table.view["claims"][table.seat]["defusing"] == 0
                and not table.view["claims"][table.seat]["bomb"], "my changed claim"
            )
            assert "0◆ no ✹" in screen_text(app)
            players = table.board.query_one(PlayerList)
            row = next(i for i, e in enumerate(players.entries) if e.pickable)
            before = len(table.view["revealed"])
            await pilot.click(players, offset=(4, row))
            wires = await waiter.until(pilot, lambda: open_dialog(app), "the wires")
            await pilot.click(wires.choice_list, offset=(2, 0))
            await waiter.until(
                pilot,
                lambda: len(table.view["revealed"]) > before or table.view["outcome"],
                "the mouse cut",
            )
            assert table.view["revealed"][before]["target"] == players.entries[row].seat
        cuts = offers = 0
        while not isinstance(app.screen, EndScreen):
            await waiter.until(
                pilot,
                lambda: isinstance(app.screen, EndScreen) or claim_offer(app)
                or (table.board.model and table.board.model.may_cut and app.screen is table),
                "my turn, a claim offer or the end",
            )
            if isinstance(app.screen, EndScreen):
                break
            if claim_offer(app):  # a deal: the truth is highlighted, Enter says it
                truth = {k: v for k, v in table.board.model.truth.items() if k != "type"}
                await pilot.press("enter")
                await waiter.until(pilot, lambda: table.view["claims"][table.seat] == truth
                                   or table.view["outcome"], "my truthful claim")
                offers += 1
                continue
            await pilot.press("enter")
            await waiter.until(pilot, lambda: open_dialog(app), "the wire picker")
            before = len(table.view["revealed"])
            await pilot.press("1", "enter")  # a digit picks a wire, Enter cuts it
            await waiter.until(
                pilot,
                lambda: len(table.view["revealed"]) > before or table.view["outcome"],
                "my cut to be revealed",
            )
            cuts += 1
        assert cuts > 0
        text = screen_text(app)
        assert "team wins" in text and "Play again" in text
        assert table.view["outcome"] is not None
        final = table.view
        await pilot.press("ctrl+r")
        # Any state after the final one is the new game's. It may be over already: bots that
        # never cut this player's wires can end a game before the app draws it running (the
        # race that once made this test fail on a loaded machine), so ask nothing more of it.
        await waiter.until(pilot, lambda: table.view is not final, "a new game after play again")
        assert table.view["events_from"] == 0 and table.view["events"] != final["events"]


async def play_my_turns(pilot, waiter, app, table, until) -> None:
    """Cut by keyboard whenever it is this app's turn, until `until()` holds."""
    while not until():
        model = table.board.model if table.board else None
        if claim_offer(app):
            await pilot.press("escape")
            await pilot.pause()
        elif model and model.may_cut and app.screen is table:
            before = len(table.view["revealed"])
            await pilot.press("enter")
            await waiter.until(pilot, lambda: open_dialog(app), "the wire picker")
            await pilot.press("enter")
            await waiter.until(
                pilot,
                lambda: len(table.view["revealed"]) > before or table.view["outcome"],
                "the cut",
            )
        else:
            await waiter.until(
                pilot,
                lambda: until() or claim_offer(app) or (table.board and table.board.model
                                                        and table.board.model.may_cut),
                "a turn",
            )


async def test_host_a_table_and_a_second_app_joins_by_address(app_factory, waiter):
    """n hosts a 4-seat table with 2 bots; another app finds it by HOST:PORT and sits."""
    host_app = app_factory("Ann")
    guest_app = app_factory("Bob")
    guest_waiter = second_waiter()
    async with host_app.run_test(size=(100, 30), message_hook=waiter.hook) as host_pilot:
        await host_pilot.press("ctrl+n")
        await waiter.until(host_pilot, lambda: host_app.screen.query("#host-players"), "the form")
        form = host_app.screen
        form.query_one("#host-players").value = 4
        await host_pilot.pause()
        form.query_one("#host-bots").value = 2
        await host_pilot.pause()
        # No claims: their offer at each deal would come between this test's keys.
        form.query_one("#opt-claims").value = 1
        await host_pilot.pause()
        await host_pilot.click("#host-go")
        table = await waiter.until(host_pilot, lambda: play_screen(host_app), "the table")
        await waiter.until(host_pilot, lambda: table.lobby.phase == "waiting", "lobby")
        assert "waiting for players" in screen_text(host_app)
        port = host_app.backend.hosts[0].address[1]
        code = show_code(host_app.backend.hosts[0].table_code)
        assert code in screen_text(host_app)  # the waiting room shows its table code
        async with guest_app.run_test(size=(100, 30), message_hook=guest_waiter.hook) as guest:
            await guest.press("ctrl+o")
            await guest.press(*f"127.0.0.1:{port}", "enter")
            # A host met for the first time: its table code, asked once.
            await guest_waiter.until(
                guest, lambda: isinstance(guest_app.screen, PairingScreen), "the code's dialog"
            )
            await guest.press(*"1234", "enter")
            await guest_waiter.until(guest, lambda: "8 digits" in screen_text(guest_app),
                                     "a word about the mistyped code")
            guest_app.screen.query_one("#code-input").value = ""
            await guest.press(*code, "enter")
            await guest_waiter.until(
                guest, lambda: guest_app.screen.query_one("#tables").row_count, "the listing"
            )
            await guest.press("enter")
            guest_table = await guest_waiter.until(
                guest, lambda: play_screen(guest_app), "the guest's table"
            )
            # The last seat taken does not start the game: both see the waiting room, and
            # the host's says the table is full and names the key.
            await waiter.until(host_pilot, lambda: "The table is full: press Ctrl+S to start"
                               in screen_text(host_app), "the host told the table is full")
            await guest_waiter.until(
                guest, lambda: "The game starts when Ann, who hosts," in screen_text(guest_app),
                "the guest's waiting room")
            assert "presses Ctrl+S" in screen_text(guest_app)
            assert "Claims: no" in screen_text(guest_app)
            assert guest_table.view is None
            await host_pilot.press("ctrl+s")
            await guest_waiter.until(guest, lambda: guest_table.view is not None, "a state")
            await waiter.until(host_pilot, lambda: table.view is not None, "the host's state")
            assert guest_table.seat == 1 and table.seat == 0
            names = [s.name for s in guest_table.seats]
            assert names[:2] == ["Ann", "Bob"] and all(n.startswith("Bot") for n in names[2:])
            assert "Bob (you)" in screen_text(guest_app)
            assert "Ann (you)" in screen_text(host_app)

            # Bob steps out to the lobby mid-game (Esc, then "Back to the lobby").
            assert not table.check_action("cover", ())
            await guest.press("escape")
            await guest_waiter.until(guest, lambda: question(guest_app), "the question")
            await guest.press("2", "enter")
            await guest_waiter.until(guest, lambda: guest_app.screen is guest_app.lobby, "lobby")
            await waiter.until(
                host_pilot, lambda: not table.seats[1].connected, "Bob shown away"
            )
            assert "Bob (away)" in screen_text(host_app)
            log = table.query_one(EventLog)
            assert "Bob is away. Press Ctrl+O to let a bot play their seat" in " ".join(
                line.text.strip() for line in log.lines
            )

            # Ann, who hosts the table, hands Bob's seat to a bot.
            assert table.check_action("cover", ())
            await host_pilot.press("question_mark", "enter")
            await waiter.until(
                host_pilot, lambda: "A bot plays the seat of a player" in " ".join(
                    screen_text(host_app).split()), "the key listed"
            )
            await host_pilot.press("escape")
            await waiter.until(host_pilot, lambda: host_app.screen is table, "the table again")
            await host_pilot.press("ctrl+o")
            await waiter.until(
                host_pilot, lambda: table.lobby.seats[1]["covered"], "a bot covering Bob"
            )
            assert not table.check_action("cover", ())
            assert "A bot plays Bob's seat until they return." in " ".join(
                line.text.strip() for line in log.lines
            )

            # Bob finds his seat marked in the lobby and takes it back from the bot.
            await guest.press("ctrl+o", *f"127.0.0.1:{port}", "enter")
            await guest_waiter.until(
                guest, lambda: guest_app.screen.query_one("#tables").row_count, "the listing"
            )
            assert "★ Ann's table" in screen_text(guest_app)
            await guest.press("enter")
            back = await guest_waiter.until(
                guest, lambda: (s := play_screen(guest_app)) and s.view and s, "the seat again"
            )
            assert back.seat == 1 and not back.spectator
            await waiter.until(
                host_pilot,
                lambda: table.lobby.seats[1]["connected"]
                and not table.lobby.seats[1]["covered"],
                "Bob back in his own seat",
            )


async def test_spectator_never_sees_a_role_or_a_hand(app_factory, waiter):
    """A spectator app watching a whole game never renders a role, a hand or a private event."""
    from tui.address import Address
    from tui.app import create_app

    player = app_factory("Ann")
    async with player.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g", "enter")
        table = await waiter.until(pilot, lambda: play_screen(player), "the table")
        await waiter.until(pilot, lambda: table.view is not None, "a state")
        port = player.backend.hosts[0].address[1]
        spectator_backend = player.backend.__class__(discover=False, interfaces=["127.0.0.1"])
        pair(spectator_backend, player.backend.hosts[0])
        spectator = create_app(
            spectator_backend,
            player_name="Sam",
            initial=(Address("127.0.0.1", port), True),
        )
        spectator_waiter = second_waiter()
        seen_views = []

        texts = []

        def check(message) -> None:
            spectator_waiter.hook(message)
            view = getattr(message, "view", None)
            if isinstance(view, dict):
                seen_views.append(view)
            watched = play_screen(spectator)
            if isinstance(view, dict) and watched is not None and not watched.end.ended:
                texts.append(screen_text(spectator))

        async with spectator.run_test(size=(100, 30), message_hook=check) as watcher:
            watched = await spectator_waiter.until(
                watcher, lambda: play_screen(spectator), "the spectator's table"
            )
            await spectator_waiter.until(watcher, lambda: watched.view is not None, "a view")
            await watcher.press("t", *"who is Moriarty?", "enter")
            await spectator_waiter.until(
                watcher, lambda: "who is Moriarty?" in screen_text(spectator), "spectator chat"
            )
            # Watch the player make three cuts (or the game end), checking every render.
            goal = len(table.view["revealed"]) + 3
            await play_my_turns(
                pilot, waiter, player, table,
                lambda: table.view["outcome"] or len(table.view["revealed"]) >= goal,
            )
            await spectator_waiter.until(
                watcher,
                lambda: watched.view["revealed"] == table.view["revealed"],
                "the spectator to see the same cuts",
            )
            for text in texts:
                assert "Role:" not in text and "Wires:" not in text
                assert "You see your wires" not in text and "team." not in text
            assert all("role" not in v and "hand" not in v for v in seen_views if not v["outcome"])
            assert watched.spectator and watched.board.model.spectator
            assert len(texts) > 1
        assert "who is Moriarty?" not in screen_text(player)


async def test_losing_the_host_and_reconnecting(app_factory, waiter, tmp_path):
    """The host goes away: the indicator says reconnecting; it comes back: the seat is kept."""
    from netplay.host import Host
    from netplay.limits import HostLimits

    app = app_factory("Ann", bot_delay=60)
    async with app.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+p", *"against bots")
        await waiter.until(pilot, lambda: "Play against bots" in screen_text(app), "commands")
        await pilot.press("enter")
        await waiter.until(pilot, lambda: "Play against bots on" in screen_text(app), "picker")
        await pilot.press("enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the table")
        await waiter.until(pilot, lambda: table.view is not None, "a state")
        await waiter.until(pilot, lambda: claim_offer(app), "the first deal's claim offer")
        await pilot.press("escape")  # no claim: the offer is not made again this round
        seat, round_ = table.seat, table.view["round"]
        old = app.backend.hosts[0]
        port = old.address[1]
        await old.stop()
        await waiter.until(pilot, lambda: table.status == "reconnecting", "reconnecting")
        assert "reconnecting" in screen_text(app)
        new = Host(data_dir=old.store.path.parent, store=old.store.path.stem,
                   limits=HostLimits(bot_delay=60))
        app.backend.hosts.append(new)
        assert new.resume()
        await new.start("127.0.0.1", port)
        await waiter.until(pilot, lambda: table.status == "connected", "reconnected", timeout=40)
        await waiter.until(pilot, lambda: "Reconnected" in screen_text(app), "the note")
        assert table.seat == seat and table.view["round"] == round_
        assert "● connected" in screen_text(app)

        # Esc asks first, and says how to come back; Esc again stays, and so does Enter.
        for stay in ("escape", "enter"):
            await pilot.press("escape")
            await waiter.until(pilot, lambda: question(app), "the question")
            assert "your seat stays yours: rejoin it from the lobby" in screen_text(app)
            await pilot.press(stay)
            await waiter.until(pilot, lambda: app.screen is table, "the table again")
        await pilot.press("escape")
        await waiter.until(pilot, lambda: question(app), "the question")
        await pilot.press("2", "enter")  # Back to the lobby
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby again")
        tables = app.lobby.query_one(TableList)
        await waiter.until(pilot, lambda: tables.listings, "the held table listed")
        (listing,) = tables.listings.values()
        assert listing.held and listing.phase == "playing"
        assert "★ Ann against bots" in screen_text(app)

        # Enter on it takes the seat back.
        await pilot.press("enter")
        back = await waiter.until(
            pilot, lambda: (s := play_screen(app)) and s.view and s, "the seat again"
        )
        assert back.seat == seat and not back.spectator


async def test_lobby_lists_tables_as_they_appear_and_vanish(app_factory, waiter, tmp_path):
    """Discovery on loopback: an announced table shows up live, and goes when its host stops."""
    from netplay.host import Host

    host = Host(data_dir=tmp_path / "lan", advertise=True, interfaces=["127.0.0.1"])
    app = app_factory("Ann", discover=True)
    async with app.run_test(size=(100, 30), message_hook=waiter.hook) as pilot:
        tables = app.screen.query_one("#tables")
        _, port = await host.start("127.0.0.1", 0)
        # Other tests announce tables on loopback too: look for this host's table only, by its
        # identity (a port is another host's once this one freed it).
        def ours():
            return [t for t in tables.listings.values() if t.host_id == host.host_id]

        try:
            table_id = host.create_table("timebomb", 6, {}, name="Baker Street", bots=2,
                                         start_when_full=True)
            await waiter.until(pilot, ours, "the table to appear", timeout=30)
            assert [(t.id, t.name, t.seats_free) for t in ours()] == [(table_id, "Baker Street", 4)]
            assert "Baker Street" in screen_text(app)
        finally:
            await host.stop()
        await waiter.until(pilot, lambda: not ours(), "the table to vanish", timeout=30)


async def test_the_name_is_asked_once_and_remembered(app_factory, waiter):
    """First start asks the name and stores it; the next start goes straight to the lobby."""
    from tui.config import load_name
    from tui.screens.name import NameScreen

    app = app_factory(None)
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await waiter.until(pilot, lambda: isinstance(app.screen, NameScreen), "the question")
        await pilot.press("enter")
        assert "type a name" in screen_text(app)
        await pilot.press(*"Mrs Hudson", "enter")
        await waiter.until(pilot, lambda: app.screen is app.lobby, "the lobby")
        assert "Playing as Mrs Hudson" in screen_text(app)
    assert load_name() == "Mrs Hudson"
    again = app_factory(load_name())
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.screen is again.lobby


async def test_the_command_palette_lists_keys_once(app_factory, waiter):
    """Ctrl+P then "Keys": one command, Gaslight's list of this screen's keys."""
    from tui.screens.keys import KeysScreen

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        commands = [c.title for c in app.get_system_commands(app.lobby)]
        assert commands.count("Keys") == 1
        await pilot.press("ctrl+p", *"Keys")
        await waiter.until(pilot, lambda: "Every key you can press here" in screen_text(app), "it")
        await pilot.press("enter")
        await waiter.until(pilot, lambda: isinstance(app.screen, KeysScreen), "the keys")

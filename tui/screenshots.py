"""Regenerate `screenshots/*.svg` from real app runs against a real in-process host.

    uv run python -m tui.screenshots

Fixed seeds make every run draw the same game: the lobby, a Time Bomb table mid-game from a
seat, the same moment as a spectator sees it, and the end screen; a Holmes table against the
bot on Day 2, and its dialog of legal choices; a Time Bomb Évolution table with the Variante;
a Machinations table. All at 80x24, the size most terminals open at, and the Holmes table
once more at 120x40.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

SIZE = (80, 24)
"""The size most terminals open at: every shot but one is taken at it."""
WIDE = (120, 40)
SEED = 7
HOST_PORT = 47420
OUT = Path(__file__).resolve().parent.parent / "screenshots"


async def settle(pilot, condition, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await pilot.pause(0.05)


def dialog(app):
    """The dialog open at the table on `app`'s stack, once drawn (a key typed before that
    never answers it), or None."""
    from tui.screens.play import PlayScreen

    table = next((s for s in app.screen_stack if isinstance(s, PlayScreen)), None)
    board = table.board if table is not None else None
    panel = board.dialog[0] if board is not None and board.dialog is not None else None
    return panel if panel is not None and panel.choice_list.shown_at < float("inf") else None


def claim_offer(app) -> bool:
    panel = dialog(app)
    return panel is not None and " dealt: " in panel.panel_title


async def main() -> None:
    os.environ.setdefault("GASLIGHT_CONFIG_DIR", tempfile.mkdtemp(prefix="gaslight-shots-"))
    from netplay.host import Host
    from netplay.limits import HostLimits
    from netplay.protocol import Chat

    from tui.address import Address
    from tui.app import create_app
    from tui.backend import Backend
    from tui.screens.end import EndScreen
    from tui.screens.play import PlayScreen

    data = Path(tempfile.mkdtemp(prefix="gaslight-shots-data-"))
    # Quick play remembers its choices in the config: start from none, like a new player.
    os.environ["GASLIGHT_CONFIG_DIR"] = tempfile.mkdtemp(prefix="gaslight-shots-config-")
    OUT.mkdir(exist_ok=True)

    def backend(**kwargs) -> Backend:
        return Backend(interfaces=["127.0.0.1"], data_dir=data, bot_delay=0, seed=SEED,
                       discover=False, **kwargs)

    # The lobby, listing the tables of a host found by its address.
    other = Host(data_dir=data, limits=HostLimits(bot_delay=60))
    await other.start("127.0.0.1", HOST_PORT + 1)
    other.create_table("timebomb", 6, {}, name="Baker Street", bots=3, seed=SEED)
    other.create_table("timebomb", 5, {}, name="The Diogenes Club", bots=5, seed=SEED)
    lobby_backend = backend()  # Ada has paired with that host before: no code to type
    lobby_backend.remember_code(Address("127.0.0.1", HOST_PORT + 1), other.table_code)
    lobby_app = create_app(lobby_backend, player_name="Ada")
    async with lobby_app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+o", *f"127.0.0.1:{HOST_PORT + 1}", "enter")
        await settle(pilot, lambda: lobby_app.screen.query_one("#tables").row_count == 2)
        await pilot.pause(0.5)  # let the notification's fade-in finish drawing
        lobby_app.save_screenshot(str(OUT / "lobby.svg"))
    await other.stop()

    # A game against bots, played by keyboard, watched by a spectator.
    player = create_app(backend(port=HOST_PORT), player_name="Ada")
    async with player.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+g", "1", "enter")  # quick play: Time Bomb, as it comes
        await settle(pilot, lambda: isinstance(player.screen, PlayScreen) and player.screen.view)
        table = player.screen

        async def my_cut() -> None:
            await settle(pilot, lambda: table.view["outcome"] or table.board.model.may_cut)
            if table.view["outcome"]:
                return
            if claim_offer(player):  # a deal's claim offer: the truth
                await pilot.press("enter")
                await settle(pilot, lambda: table.board.dialog is None)
                return
            before = len(table.view["revealed"])
            await pilot.press("enter")
            await settle(pilot, lambda: dialog(player))
            await pilot.press("enter")
            await settle(pilot, lambda: len(table.view["revealed"]) > before
                         or table.view["outcome"])

        while len(table.view["revealed"]) < 6 and not table.view["outcome"]:
            await my_cut()
        await settle(pilot, lambda: table.view["outcome"] or table.board.model.may_cut)
        table.send(Chat("I hold nothing dangerous, honest."))
        await settle(pilot, lambda: "honest" in str(table.query_one("#chat-log").lines))
        await pilot.pause(0.3)
        player.save_screenshot(str(OUT / "table-seat.svg"))

        watching = backend()
        watching.remember_code(Address("127.0.0.1", HOST_PORT),
                               player.backend.hosts[0].table_code)
        spectator = create_app(
            watching, player_name="Sam", initial=(Address("127.0.0.1", HOST_PORT), True)
        )
        async with spectator.run_test(size=SIZE) as watcher:
            await settle(watcher, lambda: isinstance(spectator.screen, PlayScreen)
                         and spectator.screen.view)
            await watcher.pause(0.3)
            spectator.save_screenshot(str(OUT / "table-spectator.svg"))

        while not table.view["outcome"]:
            await my_cut()
        await settle(pilot, lambda: isinstance(player.screen, EndScreen))
        await pilot.pause(0.3)
        player.save_screenshot(str(OUT / "end.svg"))

        # The same game again, from the end screen: the second round, through everything.
        from tui.screens.replay import ReplayScreen

        await pilot.press("ctrl+w")
        await settle(pilot, lambda: isinstance(player.screen, ReplayScreen)
                     and player.screen.drawn is not None)
        replay = player.screen
        await pilot.press("right_square_bracket", "right", "a")
        await settle(pilot, lambda: replay.drawn == (replay.marks[1] + 1, "all"))
        await pilot.pause(0.3)
        player.save_screenshot(str(OUT / "replay.svg"))

    await holmes_shots(backend)
    await evolution_screenshot(backend)
    await machinations_shot(backend(port=HOST_PORT + 4), pilot_settle=settle)
    for name in ("lobby", "table-seat", "table-spectator", "end", "replay", "holmes-table",
                 "holmes-choice", "holmes-table-wide", "evolution-table", "machinations-seat"):
        print(OUT / f"{name}.svg")


async def holmes_shots(backend) -> None:
    """Holmes against the smart bot, every choice the first one offered, until Day 2."""
    from tui.app import create_app
    from tui.screens.play import PlayScreen

    app = create_app(backend(port=HOST_PORT + 2), player_name="Ada")
    async with app.run_test(size=SIZE) as pilot:
        ticket = await app.backend.play_bots("Ada", game="holmes", players=2)
        app.screen.go(ticket)
        await settle(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.view)
        table = app.screen

        def my_turn() -> bool:
            return table.board.your_turn and app.screen is table

        while not (table.view["day"] >= 2 and my_turn()
                   and table.view["pending"]["kind"] == "move"):
            await settle(pilot, my_turn)
            if table.view["day"] >= 2 and table.view["pending"]["kind"] == "move":
                break
            before = len(table.view["events"])
            await pilot.press("ctrl+k")
            await settle(pilot, lambda: dialog(app))
            await pilot.press("enter")
            await settle(pilot, lambda: len(table.view["events"]) > before)
        await pilot.pause(0.3)
        app.save_screenshot(str(OUT / "holmes-table.svg"))
        await pilot.press("ctrl+k")
        await settle(pilot, lambda: dialog(app))
        await pilot.pause(0.3)
        app.save_screenshot(str(OUT / "holmes-choice.svg"))
        await pilot.press("escape")
        await pilot.resize_terminal(*WIDE)
        await pilot.pause(0.3)
        app.save_screenshot(str(OUT / "holmes-table-wide.svg"))



async def evolution_screenshot(backend) -> None:
    """Time Bomb Évolution with the Variante against bots, from a seat, once a Defusing wire
    lies on a colour or a Number card has been drawn: the bombs board at work."""
    from tui.screens.play import PlayScreen

    from tui.app import create_app

    app = create_app(backend(port=HOST_PORT + 3), player_name="Ada")
    async with app.run_test(size=SIZE) as pilot:
        ticket = await app.backend.host_table(
            "timebomb_evolution", 5, {"variante": True}, name="Évolution", bots=4,
            advertise=False, start_when_full=True,
        )
        app.screen.go(ticket)
        # The first deal may offer a claim at once: the table is under it.
        await settle(pilot, lambda: any(isinstance(s, PlayScreen) and s.view
                                        for s in app.screen_stack))
        table = next(s for s in app.screen_stack if isinstance(s, PlayScreen))

        def shows_enough() -> bool:
            view = table.view
            return bool(view["outcome"] or ((view["defused"] or view["draws"])
                                            and view["pending"] is None))

        while not shows_enough():
            await settle(pilot, lambda: shows_enough() or dialog(app)
                         or (app.screen is table and table.board.model is not None
                             and table.board.model.may_cut))
            if shows_enough():
                break
            events = len(table.view["events"])
            if dialog(app):
                await pilot.press("enter")
            else:
                await cut_or_decide(pilot)
            await settle(pilot, lambda: len(table.view["events"]) > events)
        await pilot.pause(0.3)
        app.save_screenshot(str(OUT / "evolution-table.svg"))


async def cut_or_decide(pilot) -> None:
    """Enter on the first target, then Enter in whichever dialog opens: the wires, or a
    decision of the player's that opened first. Enter again if a bot's move came between."""
    app = pilot.app
    for _ in range(5):
        await pilot.press("enter")
        try:
            await settle(pilot, lambda: dialog(app), 3)
        except TimeoutError:
            continue
        await pilot.press("enter")
        return
    raise TimeoutError("no dialog opened at my turn")


async def machinations_shot(backend, pilot_settle) -> None:
    """A 7-player Moriarty's Machinations table against bots, after its first heist, at the
    moment the player must act: played by keyboard through the same dialogs as a person."""
    from tui.app import create_app
    from tui.screens.play import PlayScreen

    app = create_app(backend, player_name="Ada")
    async with app.run_test(size=SIZE) as pilot:
        ticket = await backend.play_bots("Ada", "machinations", 7)
        app.screen.go(ticket)
        await pilot_settle(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.view)
        table = app.screen

        def ready() -> bool:
            return bool(table.view["outcome"] or table.board.your_turn)

        while True:
            await pilot_settle(pilot, ready)
            model = table.board.model
            if table.view["outcome"] or table.view["heists"]:
                break
            before = (len(table.view["events"]), table.view["phase"], model.my_choice)
            if model.crews:
                for seat in min(model.crews, key=lambda c: (len(c), c)):
                    await pilot.press(str(seat + 1), "enter")
                await pilot.press("ctrl+s")
                await pilot_settle(pilot, lambda: dialog(app))
                await pilot.press(*"Crown Jewels", "enter")
            elif model.can_vote:
                await pilot.press("ctrl+t")
                await pilot_settle(pilot, lambda: dialog(app))
                await pilot.press("1", "enter")
            elif model.cards:
                await pilot.press("ctrl+k")
                await pilot_settle(pilot, lambda: dialog(app))
                await pilot.press("enter")
            else:
                await pilot.press(str(model.targets[0] + 1), "enter")
                await pilot_settle(pilot, lambda: dialog(app))
                await pilot.press("enter")
            await pilot_settle(pilot, lambda: table.view["outcome"] or (
                len(table.view["events"]), table.view["phase"],
                table.board.model.my_choice) != before)
        model = table.board.model
        if model.crews:  # show the crew picker with an eligible crew picked
            for seat in min(model.crews, key=lambda c: (len(c) != 3, c)):
                await pilot.press(str(seat + 1), "enter")
        await pilot.pause(0.3)
        app.save_screenshot(str(OUT / "machinations-seat.svg"))


if __name__ == "__main__":
    asyncio.run(main())

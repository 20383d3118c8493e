"""Sizes: where no layout fits (60x20 tried) a screen cannot show every button, and the app
says once that the terminal is too small and how large it must be, on whatever screen it opens
at, and not again on every new screen (where it covered a player's row). A phone upright gets
the narrow layouts, and no notice; on a narrow or a touch screen the footer's keys are buttons
a tap presses, and at a table the log and the chat share the room under the board (issue
43)."""

from __future__ import annotations

import pytest
from support.offline import (
    finished_game,
    lobby,
    offline_backend,
    open_table,
    seeded_game,
)
from support.screen_text import screen_text

from tui.app import TOO_SMALL_SHOWN, create_app, fits
from tui.screens.end import EndScreen
from tui.screens.quick_play import QuickPlayScreen


async def at_lobby(application, pilot):
    pass


async def at_quick_play(application, pilot):
    await application.push_screen(QuickPlayScreen())


async def at_waiting_room(application, pilot):
    await open_table(application, None, 0, lobby(phase="waiting"))


async def at_table(application, pilot):
    await open_table(application, seeded_game(3), 0)


async def at_end(application, pilot):
    await open_table(application, finished_game(), 0, lobby(phase="over"))
    while not isinstance(application.screen, EndScreen):
        await pilot.pause()


@pytest.mark.parametrize("reach", [at_lobby, at_quick_play, at_waiting_room, at_table, at_end],
                         ids=["lobby", "quick play", "waiting room", "table", "end screen"])
async def test_every_screen_says_the_terminal_is_too_small_and_how_large_it_must_be(reach):
    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(60, 20), notifications=True) as pilot:
        await reach(application, pilot)
        for _ in range(4):
            await pilot.pause()
        text = screen_text(application)
        assert "Terminal too small" in text and "60x20" in text and "80x24" in text
        await pilot.resize_terminal(80, 24)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" not in screen_text(application)


async def test_the_notice_is_said_once_and_not_again_on_the_next_screen():
    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(60, 20), notifications=True) as pilot:
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" in screen_text(application)
        assert [n.timeout for n in application._notifications] == [TOO_SMALL_SHOWN]
        application.clear_notifications()  # as its timeout does
        await open_table(application, seeded_game(3), 0)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" not in screen_text(application)
        await pilot.resize_terminal(80, 24)
        await pilot.resize_terminal(60, 20)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" in screen_text(application)  # shrunk again: said again


@pytest.mark.parametrize("size, fit", [((46, 50), True), ((40, 36), True), ((80, 24), True),
                                       ((39, 50), False), ((46, 35), False),
                                       ((100, 20), False), ((60, 20), False)])
def test_a_layout_fits_a_phone_upright_and_a_terminal_of_80x24_and_nothing_smaller(size, fit):
    assert fits(*size) == fit


async def test_a_phone_upright_is_not_told_its_screen_is_too_small_and_a_shrink_is():
    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(46, 50), notifications=True) as pilot:
        await open_table(application, seeded_game(3), 0)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" not in screen_text(application)
        await pilot.resize_terminal(46, 30)
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" in screen_text(application)
        await pilot.resize_terminal(46, 50)  # turned back: the notice goes at once
        for _ in range(4):
            await pilot.pause()
        assert "Terminal too small" not in screen_text(application)


# -- taps --------------------------------------------------------------------------------------

def touch_app(monkeypatch):
    from tui.serve.page_app import TOUCH_ENV

    monkeypatch.setenv(TOUCH_ENV, "1")
    return create_app(offline_backend(), player_name="Ada")


def buttons(application) -> dict[str, object]:
    from tui.widgets.action_bar import ActionButton

    return {button.words: button for button in application.screen.query(ActionButton)
            if button.region.height}


async def settle(pilot, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause()


@pytest.mark.parametrize("size", [(110, 26), (46, 50)], ids=["on its side", "upright"])
async def test_a_touch_screens_buttons_are_the_footers_keys_and_a_tap_presses_one(monkeypatch,
                                                                                 size):
    """A phone's page has no Ctrl, Esc or F key: each key the footer would show is a button,
    named in words, and a tap on it does what its key does, at the table through the table's
    keyboard (the rules open, Esc's button closes them, secrets hide)."""
    from tui.screens.play import PlayScreen
    from tui.screens.rules import RulesScreen

    application = touch_app(monkeypatch)
    async with application.run_test(size=size) as pilot:
        await open_table(application, seeded_game(3), 0)
        await settle(pilot)
        if "No claim" in buttons(application):  # the claim offered at the deal
            await pilot.click(buttons(application)["No claim"])
            await settle(pilot)
        table = application.screen
        shown = {active.binding.description for active in table.active_bindings.values()
                 if active.binding.show and active.enabled}
        assert set(buttons(application)) == shown
        assert {"Rules", "Keys", "Hide", "Lobby"} <= shown
        await pilot.click(buttons(application)["Rules"])
        await settle(pilot)
        assert isinstance(application.screen, RulesScreen)
        await pilot.click(buttons(application)["Close"])
        await settle(pilot)
        assert isinstance(application.screen, PlayScreen)
        await pilot.click(buttons(application)["Hide"])
        await settle(pilot)
        assert table.board.secret_hidden and "Show" in buttons(application)
        # The hidden panel names the button that shows it again, not a key the page lacks.
        hidden = str(table.board.query_one("#tb-secret").content)
        assert hidden.endswith("the Show button shows them") and "Ctrl" not in hidden


async def test_under_a_narrow_board_the_log_and_the_chat_take_turns_and_count_what_is_new():
    """An upright phone's table: the board whole, under it the log or the chat (a tap on its
    tab), the chat's line under either; lines said while the chat is not shown are counted on
    its tab until it is."""
    from tui.widgets.pane_tabs import PaneTab

    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(46, 50)) as pilot:
        screen = await open_table(application, seeded_game(3), 0)
        await settle(pilot)
        view = screen.game_view
        chat_log, line = view.query_one("#chat-log"), view.query_one("#chat-input")
        assert view.event_log.region.height and not chat_log.region.height
        assert line.region.height and view.board.region.height
        view.chat_panel.add("Cyril", "who has the bomb?")
        view.chat_panel.add("Edith", "not me")
        await settle(pilot)
        assert str(view.query_one("#tab-chat", PaneTab).content) == "Chat 2"
        await pilot.click("#tab-chat")
        await settle(pilot)
        assert chat_log.region.height and not view.event_log.region.height
        assert line.region.height and view.board.region.height
        assert "Cyril: who has the bomb?" in screen_text(application)
        assert str(view.query_one("#tab-chat", PaneTab).content) == "Chat"


async def test_a_dialog_answered_at_once_on_a_narrow_screen_leaves_the_app_running():
    """The bar of buttons of a screen gone before its first refresh does not fit itself to a
    screen it no longer has: a guest's phone that tapped Play at once lost its app so."""
    application = create_app(offline_backend(), player_name="Ada")
    async with application.run_test(size=(46, 50)) as pilot:
        for _ in range(5):
            await application.push_screen(QuickPlayScreen())
            application.pop_screen()
        for _ in range(4):
            await pilot.pause()
        assert application.is_running and application.return_code is None
        assert "Tables on your network" in screen_text(application)

"""The `?` list of keys: every key of the screen, each description whole, all of it reachable."""

from __future__ import annotations

from support.offline import offline_app
from support.screen_text import screen_text

from tui.screens.keys import GENERAL_KEYS, KeysScreen


async def test_a_long_list_scrolls_to_its_last_key_at_80x24():
    keys = [(f"k{i}", f"does thing {i}, said at some length so that it wraps " * 2)
            for i in range(20)]
    application = offline_app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(KeysScreen(keys))
        await pilot.pause()
        last_key, last_words = GENERAL_KEYS[-1]
        assert last_words not in screen_text(application)  # below the fold, at first
        await pilot.press(*["down"] * 60)
        await pilot.pause()
        text = screen_text(application)
        assert last_key in text and last_words in text
        await pilot.press("escape")
        assert not isinstance(application.screen, KeysScreen)

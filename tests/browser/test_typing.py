"""Text typed into a page of `gaslight serve` arrives as typed (issue 41): keys sent with no
delay between them, and text inserted at once as a phone keyboard or an input method hands it
over, at a table whose game goes on meanwhile, in Debian's Chromium driven by Playwright."""

from __future__ import annotations

import pytest
from support.browser import CHROMIUM, Guest, launch, start_serve

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
                allow_module_level=True)

from playwright.async_api import async_playwright  # noqa: E402
from support.chat_table import ChatTable, say_in_the_page, sit_in_the_page  # noqa: E402
from support.sentences import sentences  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")

LINES = [
    "9 lives via phone keyboard",
    "10 wires to go, 3 safe",
    "3rd cut is mine",
    "?? who cut that",
    "Élodie says: à bientôt!",
    *sentences(41, 5),
]


async def test_typed_and_inserted_lines_arrive_whole_at_a_table(tmp_path):
    table = ChatTable(tmp_path / "host", "Ann", advertise=True)
    await table.start()
    served = start_serve(tmp_path / "serve")
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            context = await browser.new_context(viewport={"width": 1000, "height": 600},
                                                ignore_https_errors=True)
            guest = await Guest.open(context, served.url)
            await sit_in_the_page(guest, table, "Ann")
            await say_in_the_page(guest, table, LINES)
            assert table.heard == LINES
            # The game went on under the keys, and they chose nothing for Ann: no claim (the
            # offer at each deal was open), no cut.
            game = table.host.tables[table.table].game
            ann = next(s.seat for s in table.host.tables[table.table].seats if s.name == "Ann")
            assert not [e for e in game.events if e.type == "claim" and e.seats == (ann,)]
            assert not [w for w in game.view(ann)["revealed"] if w["cutter"] == ann]
            await browser.close()
    finally:
        served.stop()
        await table.stop()

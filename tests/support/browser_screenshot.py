"""`uv run python tests/support/browser_screenshot.py` takes ../screenshots/browser.png: a
guest's page under `gaslight serve`, in Debian's Chromium, at a Time Bomb table against bots
once the first round's claims are said, with a line in the chat."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.async_api import async_playwright  # noqa: E402
from support.browser import Guest, launch, start_serve  # noqa: E402

SHOT = Path(__file__).resolve().parents[2] / "screenshots" / "browser.png"


async def take() -> None:
    served = start_serve(Path(tempfile.mkdtemp(prefix="gaslight-shot-")))
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            context = await browser.new_context(ignore_https_errors=True,
                                                viewport={"width": 1100, "height": 640})
            guest = await Guest.open(context, served.url)
            await guest.give_name("Irene")
            await guest.press("Control+g")
            await guest.wait_for("Play against bots")
            await guest.act("1")
            await guest.press("Enter")
            await guest.wait_for("Enter: claim it")
            await guest.act("Enter")
            await guest.wait_for("Bot 5 claims")
            await guest.type("Someone here is bluffing.")
            await guest.press("Enter")
            await guest.wait_for("Irene: Someone here is bluffing.")
            await guest.page.screenshot(path=str(SHOT))
            await browser.close()
    finally:
        served.stop()
    print(f"wrote {SHOT}")


if __name__ == "__main__":
    asyncio.run(take())

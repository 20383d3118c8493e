"""`uv run python tests/support/phone_screenshots.py` takes ../screenshots/phone-portrait.png
and phone-landscape.png: a guest's page under `gaslight serve` in Debian's Chromium with a
phone's emulation, upright (390x844) and on its side (844x390), at a Time Bomb table against
bots once the guest has claimed. Beside browser_screenshot.py, which takes a laptop's page:
tui/screenshots.py draws the app's SVGs in-process, without a browser."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.async_api import async_playwright  # noqa: E402
from support.browser import PHONE, PHONE_ON_ITS_SIDE, Guest, launch, start_serve  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


async def at_a_table(browser, url: str, device: dict, shot: Path) -> None:
    context = await browser.new_context(ignore_https_errors=True, **device)
    guest = await Guest.open(context, url)
    await guest.wait_for("What name should the other players see?")
    await guest.insert("Irene")
    await guest.press("Enter")
    await guest.wait_for("Playing as Irene")
    await guest.press("Control+g")
    await guest.wait_for("Play against bots")
    await guest.act("1")
    await guest.press("Enter")
    await guest.wait_for("Enter: claim it", "dealt: claim?", timeout=90)
    await guest.act("Enter")
    await guest.wait_for("Irene claims")
    await asyncio.sleep(1)
    await guest.page.screenshot(path=str(shot))
    await context.close()
    print(f"wrote {shot}")


async def take() -> None:
    served = start_serve(Path(tempfile.mkdtemp(prefix="gaslight-shot-")) / "serve")
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            await at_a_table(browser, served.url, PHONE, SHOTS / "phone-portrait.png")
            await at_a_table(browser, served.url, PHONE_ON_ITS_SIDE,
                             SHOTS / "phone-landscape.png")
            await browser.close()
    finally:
        served.stop()


if __name__ == "__main__":
    asyncio.run(take())

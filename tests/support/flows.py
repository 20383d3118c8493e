"""Helpers the Pilot flow tests share besides fixtures: waiting on the app, pairing, finding the
play screen, and the sentence that must never run a command."""

from __future__ import annotations

import asyncio
import contextlib
import math

from support.waiting import failing_after

from netplay.client import Connection
from tui.screens.play import PlayScreen

SENTENCE = "so, are we all here? let us start. play again? b, p, c, v, s, h, l, d, x, a"
"""Every letter that ever ran a command at a table, and the words that would run them: typed
anywhere, it must only ever be chat or nothing."""


LOOK_AGAIN = 0.05
"""Seconds a waiter sleeps at most between two looks at what it waits for."""


class Waiter:
    """Wakes whenever the app handles a message; `until` re-checks a condition each time."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def hook(self, message) -> None:
        self.event.set()

    async def until(self, pilot, predicate, what: str, timeout: float = 30.0):
        async with failing_after(timeout, what):
            while True:
                await pilot.pause()
                if result := predicate():
                    return result
                self.event.clear()
                # Some changes post no message (a dialog's first frame is drawn: its
                # choices are on screen), so look again now and then too.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.event.wait(), LOOK_AGAIN)


def post_burst(app, text: str) -> None:
    """`text` and Enter as a terminal delivers a fast typist's keys: all posted together,
    before the app has handled the first (`pilot.press` waits after each key)."""
    from textual import events
    from textual.keys import _character_to_key

    for character in text:
        app.post_message(events.Key(_character_to_key(character), character))
    app.post_message(events.Key("enter", "\r"))


def second_waiter() -> Waiter:
    """A waiter for a second app in the same test: each app wakes only its own waiter."""
    return Waiter()


def play_screen(app) -> PlayScreen | None:
    """The play screen on `app`'s stack, if it has one."""
    return next((s for s in app.screen_stack if isinstance(s, PlayScreen)), None)


def open_dialog(app):
    """The dialog open at the table on `app`'s stack (a `ChoicePanel`), once it is on screen
    (a key typed before that never answers it), if any."""
    screen = play_screen(app)
    board = screen.board if screen is not None else None
    dialog = board.dialog[0] if board is not None and board.dialog is not None else None
    return dialog if dialog is not None and dialog.choice_list.shown_at < math.inf else None


def question(app):
    """The question on top of `app`'s stack, once it is on screen, if any."""
    from tui.screens.question import Question

    screen = app.screen
    shown = isinstance(screen, Question) and screen.choice_list.shown_at < math.inf
    return screen if shown else None


def claim_offer(app) -> bool:
    """The claim offered after each deal of Time Bomb and Évolution is open."""
    dialog = open_dialog(app)
    return dialog is not None and " dealt: " in dialog.panel_title


def pair(backend, host) -> None:
    """As if `backend`'s player had paired with `host` before: its key pinned (the pairing
    itself is tested in tests/netplay/test_pairing.py and in the flow test that types a
    code)."""
    backend.known_hosts.pin(host.key.fingerprint, f"127.0.0.1:{host.address[1]}")


async def host_for_bob(app, pilot, waiter):
    """Ann hosts a 4-seat table with 2 bots from the app; Bob sits by the wire and Ann
    starts the game. The table screen and Bob's connection."""
    await pilot.press("ctrl+n")
    await waiter.until(pilot, lambda: app.screen.query("#host-players"), "the form")
    app.screen.query_one("#host-players").value = 4
    await pilot.pause()
    app.screen.query_one("#host-bots").value = 2
    await pilot.pause()
    app.screen.query_one("#opt-claims").value = 1  # no claim offers between the keys
    await pilot.pause()
    await pilot.click("#host-go")
    table = await waiter.until(pilot, lambda: play_screen(app), "the table")
    await waiter.until(pilot, lambda: table.lobby.phase == "waiting", "the lobby")
    host = app.backend.hosts[0]
    bob = await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                   name="Bob", table=table.lobby.table)
    await waiter.until(pilot, lambda: table.check_action("start", ()) and not any(
        s.kind == "empty" for s in table.seats), "Bob seated")
    await pilot.press("ctrl+s")
    await waiter.until(pilot, lambda: table.view is not None, "the game")
    return table, bob

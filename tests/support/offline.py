"""A play screen fed with engine views instead of a host, for deterministic snapshots.

Flows drive the real host (test_flows.py); snapshots need the exact same pixels each run, so
here the screen receives the same messages the host would send, built from a seeded game.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tui.address import Address
from tui.app import create_app
from tui.backend import Backend
from tui.listing import Ticket
from netplay.protocol import parse_host_message
from tui.messages import Connected, ConnectionStatusChanged, LobbyChanged, StateChanged
from tui.screens.play import PlayScreen

NAMES = ["Ada", "Bot 2", "Cyril", "Bot 4", "Edith"]
KINDS = ["human", "bot", "human", "bot", "human"]


class OfflinePlayScreen(PlayScreen):
    def run_connection(self) -> None:
        """No host: the test posts the host's messages itself."""


def seeded_game(cuts: int, seed: int = 7, players: int = 5) -> engine.Game:
    """A game after `cuts` cuts, each at the lowest legal target: the same every run."""
    game = engine.new_game("timebomb", players, {}, seed)
    for _ in range(cuts):
        if game.outcome is not None:
            break
        cutter = game.cutter
        game.apply(cutter, next(a for a in game.legal_actions(cutter) if a["type"] == "cut"))
    return game


def finished_game(seed: int = 7) -> engine.Game:
    return seeded_game(100, seed)


def lobby(players: int = 5, phase: str = "playing", **overrides: Any) -> dict[str, Any]:
    seats = [
        {"seat": s, "name": NAMES[s], "kind": KINDS[s], "connected": s != 4}
        for s in range(players)
    ]
    someone_away = phase == "playing" and any(not s["connected"] for s in seats)
    acting = overrides.get("acting_host", overrides.get("host_seat", 0))
    return {"t": "lobby", "table": "t1", "name": "Baker Street", "game": "timebomb",
            "players": players, "options": {}, "seats": seats, "phase": phase, "host_seat": 0,
            "bot_level": "smart", "bot_pace": "normal", "turn_timer": 0, "acting_host": acting,
            # as the host says it: while a player is away uncovered, its acting host may cover
            "may_cover": [acting] if someone_away else [], **overrides}


def lobby_changed(message: dict[str, Any]) -> LobbyChanged:
    """The message a play screen posts when its host sends the `lobby` message `message`."""
    return LobbyChanged(parse_host_message({"spectators": 0, "play_again": [], **message}))


async def open_table(app, game: engine.Game | None, seat: int | None, lobby_message=None,
                     coached: bool = False):
    """Push an offline play screen and give it what the host would send to `seat`. The coach
    of a first game speaks only when `coached`: a board's snapshot shows the game's own log."""
    from engine.catalogue import CATALOGUE
    from tui.coach import set_coach

    for game_id in CATALOGUE:
        set_coach(game_id, coached)
    screen = OfflinePlayScreen(
        app.backend, Ticket(Address("127.0.0.1", 47420), "t1", spectate=seat is None), "Ada"
    )
    await app.push_screen(screen)
    screen.post_message(ConnectionStatusChanged("connected"))
    screen.post_message(Connected(seat, seat is None))
    screen.post_message(lobby_changed(lobby_message or lobby()))
    if game is not None:
        viewer = engine.SPECTATOR if seat is None else seat
        legal = [] if seat is None else game.legal_actions(seat)
        screen.post_message(StateChanged(game.view(viewer), legal, seat))
    return screen


def offline_backend() -> Backend:
    return Backend(interfaces=["127.0.0.1"], discover=False)


async def skip_claim_offer(pilot) -> None:
    """Esc on the claim offer a fresh deal opens, as a player who claims nothing would."""
    from support.flows import claim_offer

    await pilot.pause()
    await pilot.pause()
    if claim_offer(pilot.app):
        await pilot.press("escape")
        await pilot.pause()


SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
"""The two terminal sizes every screen's snapshots are taken at."""


def offline_app(name: str | None = "Ada"):
    return create_app(offline_backend(), player_name=name)


def table_run(game: engine.Game | None, seat: int | None, *keys: str, lobby_message=None):
    """A snapshot's `run_before`: open the table at `seat`, then press `keys`."""

    async def run_before(pilot):
        await open_table(pilot.app, game, seat, lobby_message)
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()

    return run_before

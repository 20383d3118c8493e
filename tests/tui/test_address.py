"""What a player types as HOST:PORT, and what they are told when it is not one."""

from __future__ import annotations

import pytest
from support.screen_text import screen_text

from tui.address import AddressError, parse_address


@pytest.mark.parametrize(
    "typed", ["garbage!!@@ not an address:7777", "garbage!!@@ not an address", "a b:80", "-x:1"]
)
def test_a_bad_host_is_refused_without_echoing_it(typed):
    with pytest.raises(AddressError) as refused:
        parse_address(typed)
    message = str(refused.value)
    assert "not a host name or an IP address" in message and "192.168.1.20:7777" in message
    assert "garbage" not in message


def test_a_missing_port_is_asked_for_with_the_host_typed():
    with pytest.raises(AddressError, match="needs a port .* for example localhost:7777"):
        parse_address("localhost")


async def test_joining_by_a_bad_address_says_so_in_the_dialog(app_factory, waiter):
    from tui.screens.join_address import JoinAddressScreen

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+o", *"garbage!!@@ not an address:7777", "enter")
        await waiter.until(
            pilot, lambda: "not a host name" in screen_text(app), "the message"
        )
        assert isinstance(app.screen, JoinAddressScreen)
        assert "for example garbage" not in screen_text(app)


async def test_a_name_too_long_is_refused_with_the_limit(app_factory, waiter):
    """Names over 24 characters are refused, saying so, never cut as they are typed."""
    from tui.screens.name import NameScreen

    app = app_factory(None)
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await waiter.until(pilot, lambda: isinstance(app.screen, NameScreen), "the question")
        await pilot.press(*"Inspector Athelney Jones of the Yard", "enter")
        await waiter.until(pilot, lambda: "at most 24 characters" in screen_text(app), "why")
        assert "this one has 36" in screen_text(app) and isinstance(app.screen, NameScreen)


async def test_the_lobby_says_it_is_connecting_while_a_host_is_slow(app_factory, waiter):
    """A host that accepts but never answers: the lobby says it is connecting meanwhile."""
    import asyncio
    silent = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = silent.sockets[0].getsockname()[1]
    app = app_factory()
    try:
        async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
            await pilot.press("ctrl+o", *f"127.0.0.1:{port}", "enter")
            await waiter.until(
                pilot, lambda: f"Connecting to 127.0.0.1:{port}…" in screen_text(app), "it"
            )
    finally:
        silent.close()


@pytest.mark.parametrize("command, spectate", [("join", False), ("watch", True)])
def test_join_and_watch_are_one_command_module(command, spectate):
    from tui.cli import build_parser

    args = build_parser().parse_args([command, "127.0.0.1:7420"])
    assert (args.command, args.spectate, args.address) == (command, spectate, "127.0.0.1:7420")

"""Helpers the flow tests share besides fixtures."""

from conftest import Waiter


def second_waiter() -> Waiter:
    """A waiter for a second app in the same test: each app wakes only its own waiter."""
    return Waiter()

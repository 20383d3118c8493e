"""The host's rates: a token bucket for chat and claims (its bots' too), and a lockout for
wrong seat tokens and wrong table codes."""

from __future__ import annotations

import collections
import time


class RateLimit:
    """A token bucket: `burst` requests at once, then `per_second`."""

    def __init__(self, burst: int, per_second: float) -> None:
        self.burst = float(burst)
        self.per_second = per_second
        self.allowance = self.burst
        self.checked = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.per_second)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Lockout:
    """At most `failures` failures per `window` seconds from each address: past that, the
    address waits until its oldest failure leaves the window."""

    def __init__(self, failures: int, window: float) -> None:
        self.failures = failures
        self.window = window
        self._recent: dict[str, collections.deque[float]] = {}

    def wait(self, address: str, now: float) -> int:
        """Whole seconds `address` must wait before it may try again (0: it may now)."""
        recent = self._recent.get(address)
        if recent is None:
            return 0
        while recent and recent[0] < now - self.window:
            recent.popleft()
        if not recent:
            del self._recent[address]  # keep the map small
            return 0
        if len(recent) < self.failures:
            return 0
        return int(recent[0] + self.window - now) + 1

    def failed(self, address: str, now: float) -> int:
        """Count a failure; the recent failures of `address`."""
        recent = self._recent.setdefault(address, collections.deque())
        recent.append(now)
        return len(recent)

"""A token bucket, for every rate the host limits (chat, free actions, its bots' claims)."""

from __future__ import annotations

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

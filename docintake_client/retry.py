"""How long to wait: before sending again (429, 503, a lost connection), and before
polling again (the `Retry-After` of a queued or processing upload or batch)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

RETRYABLE_STATUSES = frozenset({429, 503})


@dataclass(frozen=True, slots=True)
class RetryNotice:
    """Told to `on_retry` before each wait: why, which attempt, how long."""

    method: str
    path: str
    attempt: int
    wait_seconds: float
    reason: str


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Retries of 429, 503 and connection errors: `Retry-After` when the server sends one,
    else an exponential back-off; `sleep` is also how `wait` pauses between polls."""

    max_attempts: int = 6
    first_wait_seconds: float = 0.5
    max_wait_seconds: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def wait_for(self, attempt: int, retry_after: int | None) -> float:
        if retry_after is not None:
            return min(float(retry_after), self.max_wait_seconds)
        return min(self.first_wait_seconds * 2.0 ** (attempt - 1), self.max_wait_seconds)


def retry_after_seconds(headers: Mapping[str, str]) -> int | None:
    """`Retry-After` as whole seconds (the API sends integers), None when absent or not
    a number."""
    raw = headers.get("Retry-After")
    if raw is None:
        return None
    try:
        return max(0, int(raw.strip()))
    except ValueError:
        return None


def poll_delay(retry_after: int | None, max_seconds: float) -> float:
    """Seconds until the next poll: the server's suggestion (1 s without one), capped."""
    return min(float(retry_after or 1), max_seconds)

"""Per-key token buckets, in process. Behind several API processes each enforces its
own share; put the limit at the proxy too if a hard global limit is needed."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable

from storage.errors import RateLimited


class RateLimiter:
    MAX_KEYS = 100_000

    def __init__(self, per_second: float, burst: int) -> None:
        self._rate = per_second
        self._burst = float(burst)
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, key: Hashable) -> None:
        """Take one token for `key`, or raise RateLimited with the wait in seconds."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.pop(key, (self._burst, now))
            tokens = min(self._burst, tokens + (now - last) * self._rate)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                raise RateLimited(max(1, math.ceil((1 - tokens) / self._rate)))
            self._buckets[key] = (tokens - 1, now)
            if len(self._buckets) > self.MAX_KEYS:
                self._buckets.popitem(last=False)

"""A queue served round robin over lanes (one lane per company): while one company has
hundreds of documents waiting, another company's next document is at most one turn
away.

One turn away is a wait for the next reader that comes free, and a reader is busy for as
long as its document takes: up to a minute each. So a getter may be a newcomers' getter
(`get(newcomers_only=True)`, the executor's express reader): it takes only from a lane
with nothing in flight, and only while every ordinary getter is busy. One company's
bulk then never holds it, and another company's document starts at once.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class FairQueue(Generic[T]):
    def __init__(self) -> None:
        self._lanes: dict[str, deque[T]] = {}
        self._turns: deque[str] = deque()
        self._in_flight: dict[str, int] = {}
        self._idle_getters = 0  # ordinary getters waiting for an item
        self._ready = threading.Condition()
        self._closed = False

    def put(self, lane: str, item: T) -> None:
        with self._ready:
            if self._closed:
                raise RuntimeError("the queue is closed")
            waiting = self._lanes.get(lane)
            if waiting is None:
                waiting = self._lanes[lane] = deque()
                self._turns.append(lane)
            waiting.append(item)
            self._ready.notify_all()

    def get(self, newcomers_only: bool = False) -> tuple[str, T] | None:
        """The lane whose turn it is and its next item; None once closed. The item is in
        flight until `done(lane)`."""
        with self._ready:
            while (lane := self._next_lane(newcomers_only)) is None and not self._closed:
                self._idle_getters += not newcomers_only
                self._ready.wait()
                self._idle_getters -= not newcomers_only
            if lane is None:
                return None
            self._turns.remove(lane)
            waiting = self._lanes[lane]
            item = waiting.popleft()
            if waiting:
                self._turns.append(lane)
            else:
                del self._lanes[lane]
            self._in_flight[lane] = self._in_flight.get(lane, 0) + 1
            if self._turns:  # the express getter may take what is left now
                self._ready.notify_all()
            return lane, item

    def _next_lane(self, newcomers_only: bool) -> str | None:
        if self._closed or not self._turns:
            return None
        if not newcomers_only:
            return self._turns[0]
        if self._idle_getters:
            return None
        return next((lane for lane in self._turns if not self._in_flight.get(lane)), None)

    def done(self, lane: str) -> None:
        """An item of the lane is answered: the lane may be a newcomer again."""
        with self._ready:
            left = self._in_flight.get(lane, 0) - 1
            if left > 0:
                self._in_flight[lane] = left
            else:
                self._in_flight.pop(lane, None)
            self._ready.notify_all()

    def close(self) -> list[T]:
        """Stop serving; returns what was still waiting."""
        with self._ready:
            self._closed = True
            left = [item for lane in self._turns for item in self._lanes[lane]]
            self._lanes.clear()
            self._turns.clear()
            self._ready.notify_all()
            return left

    def __len__(self) -> int:
        with self._ready:
            return sum(len(waiting) for waiting in self._lanes.values())

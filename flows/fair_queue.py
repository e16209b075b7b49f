"""A queue served round robin over lanes (one lane per company): while one company has
hundreds of documents waiting, another company's next document is at most one turn
away."""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class FairQueue(Generic[T]):
    def __init__(self) -> None:
        self._lanes: dict[str, deque[T]] = {}
        self._turns: deque[str] = deque()
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
            self._ready.notify()

    def get(self) -> T | None:
        """The next item of the lane whose turn it is; None once closed."""
        with self._ready:
            while not self._turns and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            lane = self._turns.popleft()
            waiting = self._lanes[lane]
            item = waiting.popleft()
            if waiting:
                self._turns.append(lane)
            else:
                del self._lanes[lane]
            return item

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

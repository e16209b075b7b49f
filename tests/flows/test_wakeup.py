"""Idle loops sleep until their poll interval passes or new work is announced
(flows/worker.py `Wakeup`, storage/work_news.py)."""

from __future__ import annotations

import threading
import time

from flows.worker import Wakeup, _guarded


def _slept(wakeup: Wakeup, seconds: float, seen: int) -> float:
    started = time.monotonic()
    wakeup.sleep(seconds, seen)
    return time.monotonic() - started


def test_news_ends_a_sleep_at_once() -> None:
    wakeup = Wakeup()
    threading.Timer(0.05, wakeup.wake).start()
    assert _slept(wakeup, 5.0, wakeup.seen()) < 1.0


def test_news_that_came_during_the_step_is_not_missed() -> None:
    wakeup = Wakeup()
    seen = wakeup.seen()
    wakeup.wake()  # while the loop was asking the database
    assert _slept(wakeup, 5.0, seen) < 0.1


def test_without_news_a_loop_sleeps_its_poll_interval() -> None:
    wakeup = Wakeup()
    assert _slept(wakeup, 0.2, wakeup.seen()) >= 0.19


def test_an_idle_loop_steps_again_as_soon_as_work_is_announced() -> None:
    stop, wakeup = threading.Event(), Wakeup()
    steps: list[float] = []

    def step() -> bool:
        steps.append(time.monotonic())
        return False  # nothing waited

    loop = threading.Thread(target=_guarded, args=("test", stop, step, wakeup, lambda: 30.0))
    loop.start()
    time.sleep(0.1)
    announced = time.monotonic()
    wakeup.wake()
    time.sleep(0.1)
    stop.set()
    wakeup.wake()
    loop.join(timeout=5)
    assert not loop.is_alive()
    assert len(steps) >= 2 and steps[1] - announced < 0.1

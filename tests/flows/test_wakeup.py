"""Idle loops sleep until their poll interval passes or new work is announced
(flows/wakeup.py `Wakeup`, storage/work_news.py); news of a kind wakes only the loops
of that kind and answers the work probe for it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from types import SimpleNamespace
from typing import cast

import pytest

from flows import worker as worker_module
from flows.wakeup import Wakeup
from flows.work import WorkerEnv
from flows.worker import Worker, WorkProbe, _guarded
from storage.repositories.work import Waiting
from storage.work_news import BATCH, SINGLE, WEBHOOK, WorkListener


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


class _Database:
    @contextlib.contextmanager
    def standalone_reads(self) -> Iterator[None]:
        yield None


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When the probe asked the database (which answers: nothing waits)."""
    times: list[float] = []

    def waiting_work(_session: object, _now: datetime) -> Waiting:
        times.append(time.monotonic())
        return Waiting(singles=False, batch=False)

    monkeypatch.setattr(worker_module.work_repo, "waiting_work", waiting_work)
    return times


def _worker() -> Worker:
    return Worker(cast(WorkerEnv, SimpleNamespace(db=_Database())))


def test_news_of_a_kind_wakes_only_the_loops_of_that_kind(asked: list[float]) -> None:
    worker = _worker()
    singles, batches = worker.wakeups[SINGLE].seen(), worker.wakeups[BATCH].seen()
    worker._news(SINGLE)
    assert worker.wakeups[SINGLE].seen() == singles + 1
    assert worker.wakeups[BATCH].seen() == batches
    worker._news("work")  # a sender of another version: every loop wakes
    assert worker.wakeups[SINGLE].seen() == singles + 2
    assert worker.wakeups[BATCH].seen() == batches + 1


def test_news_for_the_webhook_sender_wakes_no_pipeline_loop(asked: list[float]) -> None:
    worker = _worker()
    worker.probe.waits(SINGLE)
    seen = {kind: wakeup.seen() for kind, wakeup in worker.wakeups.items()}
    worker._news(WEBHOOK)
    assert {kind: wakeup.seen() for kind, wakeup in worker.wakeups.items()} == seen
    worker.probe.waits(SINGLE)
    assert len(asked) == 1, "the probe's answer stands"


def test_news_answers_the_probe_for_its_kind_without_asking_the_database(
    asked: list[float],
) -> None:
    worker = _worker()
    worker._news(SINGLE)
    assert worker.probe.waits(SINGLE) is True
    assert asked == []
    assert worker.probe.waits(BATCH) is False  # unannounced: asked
    assert len(asked) == 1


def test_news_of_one_kind_never_hides_work_of_the_other(asked: list[float]) -> None:
    """A stream of single uploads keeps the singles answer fresh; the batch loops still
    ask once their answer is older than the poll interval (a batch whose holder died
    is announced by no one)."""
    probe = WorkProbe(cast(WorkerEnv, SimpleNamespace(db=_Database())), lambda: 0.05)
    probe.waits(BATCH)
    for _ in range(3):
        time.sleep(0.06)
        probe.heard(SINGLE)
        probe.waits(BATCH)
    assert len(asked) == 4


def test_while_news_is_heard_the_probe_asks_once_per_the_longer_poll(
    asked: list[float],
) -> None:
    worker = _worker()
    worker.probe.waits(BATCH)
    time.sleep(0.15)  # past the poll interval without news
    worker.probe.waits(BATCH)
    assert len(asked) == 2
    listening = threading.Event()
    listening.set()
    worker.listener = cast(WorkListener, SimpleNamespace(listening=listening))
    time.sleep(0.15)
    for _ in range(3):
        worker.probe.waits(SINGLE)
        worker.probe.waits(BATCH)
    assert len(asked) == 2, "an answer stands for ANNOUNCED_POLL_SECONDS while news is heard"

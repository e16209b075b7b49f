"""Reading turns (flows/turns.py): at most `turns` batches read at once, and a batch's
turn comes back once however often it is given back."""

from __future__ import annotations

import threading
import time
import uuid
from types import SimpleNamespace
from typing import cast

from flows.turns import ReadingTurns
from flows.work import WorkerEnv
from flows.worker import Worker, WorkProbe
from storage.work_news import BATCH


def test_no_more_turns_than_there_are() -> None:
    turns = ReadingTurns(2)
    assert turns.take(timeout=0) and turns.take(timeout=0)
    assert not turns.take(timeout=0.05)


def test_a_batch_gives_its_turn_back_once() -> None:
    turns = ReadingTurns(1)
    batch = uuid.uuid4()
    assert turns.take(timeout=0)
    turns.hold(batch)
    turns.give_back(batch)  # near its end (its progress)
    turns.give_back(batch)  # when its flow run ended
    assert turns.take(timeout=0)
    assert not turns.take(timeout=0.05)


def test_an_unused_turn_goes_back() -> None:
    turns = ReadingTurns(1)
    assert turns.take(timeout=0)
    turns.give_back()  # no batch was waiting after all
    assert turns.take(timeout=0)


def test_a_batch_not_holding_a_turn_gives_nothing_back() -> None:
    turns = ReadingTurns(1)
    assert turns.take(timeout=0)
    turns.give_back(uuid.uuid4())  # a batch run outside a worker's loops
    assert not turns.take(timeout=0.05)


def test_a_waiting_loop_gets_the_turn_given_back() -> None:
    turns = ReadingTurns(1)
    batch = uuid.uuid4()
    assert turns.take(timeout=0)
    turns.hold(batch)
    threading.Timer(0.1, turns.give_back, args=(batch,)).start()
    started = time.monotonic()
    assert turns.take(timeout=5.0)
    assert time.monotonic() - started < 4.0


class _CountingProbe:
    def __init__(self) -> None:
        self.asked = 0

    def waits(self, kind: str) -> bool:
        self.asked += 1
        return kind == BATCH


def test_a_batch_loop_without_a_turn_does_not_ask_the_database() -> None:
    """While every turn is taken, the batch loops wait for one; they used to ask what
    waits in the queue ten times a second each (8 % of the pipeline process's CPU
    during a sustained run)."""
    env = SimpleNamespace(turns=ReadingTurns(1))
    worker = Worker(cast(WorkerEnv, env))
    probe = _CountingProbe()
    worker.probe = cast(WorkProbe, probe)
    assert env.turns.take(timeout=0)  # a batch reads

    assert worker.batch_step() is True
    assert probe.asked == 0

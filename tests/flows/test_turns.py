"""Reading turns (flows/turns.py): at most `turns` batches read at once, at most
`per_company` of one company's, and a batch's turn comes back once however often it is
given back."""

from __future__ import annotations

import threading
import time
import uuid
from types import SimpleNamespace
from typing import Any, cast

from fastapi.testclient import TestClient
from sqlalchemy import event

from flows.turns import ReadingTurns
from flows.work import WorkerEnv
from flows.worker import Worker, WorkProbe
from storage.work_news import BATCH
from testkit.samples import blank_pdf
from tests.api.helpers import make_zip, post_batch
from tests.conftest import Tenant

COMPANY = uuid.uuid4()


def test_no_more_turns_than_there_are() -> None:
    turns = ReadingTurns(2)
    assert turns.take(timeout=0) and turns.take(timeout=0)
    assert not turns.take(timeout=0.05)


def test_a_batch_gives_its_turn_back_once() -> None:
    turns = ReadingTurns(1)
    batch = uuid.uuid4()
    assert turns.take(timeout=0)
    turns.hold(batch, COMPANY)
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
    turns.hold(batch, COMPANY)
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


def test_a_company_holding_its_turns_leaves_the_others_to_other_companies() -> None:
    turns = ReadingTurns(4, per_company=2)
    bulk, other = uuid.uuid4(), uuid.uuid4()
    for company in (bulk, other, bulk):
        assert turns.take(timeout=0)
        assert company not in turns.full()
        turns.hold(uuid.uuid4(), company)
    assert turns.full() == {bulk}
    assert turns.take(timeout=0)  # for a company other than `bulk`


def test_while_a_company_holds_its_turns_the_loops_ask_for_others_seldom(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """A claim for another company's batch that found none is not tried again before
    news of a batch or ANNOUNCED_POLL_SECONDS, though the bulk's own batches wait."""
    post_batch(api, company.headers, make_zip({"a.pdf": blank_pdf("a")}))
    env.turns = ReadingTurns(3, per_company=1)
    assert env.turns.take(timeout=0)
    env.turns.hold(uuid.uuid4(), company.company_id)  # the bulk reads a batch already
    worker = Worker(env)
    claims: list[str] = []

    def count_claims(*args: Any) -> None:
        statement = str(args[2])
        if statement.startswith("SELECT batches.") and "NOT IN" in statement:
            claims.append(statement)

    event.listen(env.db.engine, "before_cursor_execute", count_claims)
    try:
        assert [worker.batch_step() for _ in range(5)] == [False] * 5
        assert len(claims) == 1
        worker.wakeups[BATCH].wake()  # news of a batch
        assert worker.batch_step() is False
        assert len(claims) == 2
    finally:
        event.remove(env.db.engine, "before_cursor_execute", count_claims)

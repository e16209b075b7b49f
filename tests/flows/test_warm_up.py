"""Warm before work arrives: a reading process compiles every validation artefact when it
starts, so the first document of each kind is read as fast as the later ones; a worker
starts every reading process before its first claim; and the dispatcher starts a
`serve-queue` run when it starts, so the first upload after a start finds one warm."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pytest
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterName
from sqlalchemy import func, select

from flows.dispatch import WARM_TAG, Dispatcher, DispatchPolicy
from flows.executor import DocumentExecutor
from flows.work import WorkerEnv
from flows.worker import READERS_WARM, Worker
from processors.einvoice import rules
from processors.einvoice.profiles import every_artefact
from processors.sepa import compile_schemas
from storage.models import Upload, utcnow
from storage.settings import Settings
from tests.flows.processes import ROOT


def test_every_artefact_a_plan_may_name_exists() -> None:
    names = every_artefact()
    assert len(names) == len(set(names)) >= 17
    for name in names:
        assert rules.artefact(name).is_file()


def test_every_sepa_schema_compiles() -> None:
    assert compile_schemas() == 8  # pain.001 .03/.09/.10/.11 and pain.008 .02/.08/.09/.10


def _saxon_started() -> bool:
    """Asked inside a reading process: whether its warm-up ran there."""
    return bool(rules._saxon)


def test_a_worker_claims_nothing_before_its_reading_processes_are_warm(
    env: WorkerEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    executor = DocumentExecutor(1, compile_rules=False)  # fresh: no process started yet
    seen: list[list[int]] = []

    def first_look(worker: Worker) -> bool:
        seen.append(executor.reader_pids())
        return False

    monkeypatch.setattr(Worker, "singles_step", first_look)
    monkeypatch.setattr(Worker, "batch_step", first_look)
    try:
        Worker(dataclasses.replace(env, executor=executor)).run(idle_seconds=0.2)
        warm = executor.submit("", _saxon_started).result(timeout=60)
    finally:
        executor.shutdown()

    assert seen, "no loop looked for work"
    assert len(seen[0]) == 2, "every reading process (one and the express one) is up first"
    assert warm, "the reading process warmed up before it said it was ready"


def test_the_dispatcher_warms_a_run_before_work_arrives(
    env: WorkerEnv, pool_worker: None, tmp_path: Path
) -> None:
    """`make run`: the dispatcher starts a serve-queue run with no work waiting, and that
    run says when its reading processes are warm, in the Prefect worker's log, which
    scripts/run-stack.sh waits for before it starts the API."""
    dispatcher = Dispatcher(env.db, DispatchPolicy(runs=1, warm_at_start=True))
    thread = threading.Thread(target=dispatcher.run, daemon=True)
    log = tmp_path / "prefect-worker.log"
    started = utcnow()
    thread.start()
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and READERS_WARM not in log.read_text():
            time.sleep(0.5)
    finally:
        dispatcher.stop.set()
        thread.join(timeout=10)

    assert READERS_WARM in log.read_text()
    with env.db.read_session() as session:
        assert session.scalar(select(func.count()).select_from(Upload)) == 0
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(like_="serve-queue-%"))
        )
    (run,) = [run for run in runs if run.created is not None and run.created >= started]
    assert WARM_TAG in run.tags, "the dispatcher would judge a slow warm-up by age alone"


def test_make_run_waits_for_the_warm_reading_processes() -> None:
    script = (ROOT / "scripts" / "run-stack.sh").read_text()
    assert f'grep -q "{READERS_WARM}"' in script
    assert Settings.model_fields["pipeline_warm_at_start"].default is True

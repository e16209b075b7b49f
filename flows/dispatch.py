"""The dispatcher: `docintake dispatch`. Hands queued work to Prefect.

The database is the queue of record. The dispatcher watches it and, while work waits,
keeps `pipeline_runs` flow runs of the `serve-queue` deployment going. A Prefect worker
of the `docintake` work pool starts each run in a process of its own; the run claims
work from the database until the queue has been idle for a while. The API never talks
to Prefect, and nothing here reads a document. It hears of new uploads and batches as
the pipeline does (storage/work_news.py); its polls find what nobody announces.

A run whose process or machine died without Prefect noticing stays "running" in
Prefect. The dispatcher notices that no run serves the queue: work waits, no worker
holds a lease on anything, and the runs have been running long enough to have claimed
it. It then marks those runs crashed and starts a new one; the work the dead run held
comes back when its leases expire.

When it starts, the dispatcher starts one run before any work waits (`warm_at_start`):
a run's process start and the warm-up of its reading processes take 10-30 s, paid
then instead of by the first upload after a start (`make run` waits for that warm-up
before it starts the API: scripts/run-stack.sh). The run ends when it has been idle for
`pipeline_run_idle_seconds`, like any other.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from prefect.client.orchestration import SyncPrefectClient, get_client
from prefect.client.schemas.filters import (
    DeploymentFilter,
    DeploymentFilterId,
    FlowRunFilter,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import FlowRun, StateType
from prefect.states import Crashed

from flows.wakeup import NewsWatch
from flows.work import INFRASTRUCTURE_ERRORS
from storage.db import Database
from storage.models import utcnow
from storage.repositories import work as work_repo
from storage.work_news import BATCH, SINGLE

log = logging.getLogger(__name__)

DEPLOYMENT = "serve-queue/serve-queue"
POLL_SECONDS = 0.5
# While new work is announced (storage/work_news.py), a poll only finds what no one
# announces: work whose worker died, runs that stopped serving. Each poll is three
# queries; at two a second they were a tenth of an idle production stack's CPU.
ANNOUNCED_POLL_SECONDS = 5.0
# While enough runs are going, Prefect is asked again only this often.
RECHECK_SECONDS = 5.0
# A run that has not started this long after it was created means no worker of the
# work pool is taking runs: said loudly, once per run.
LATE_AFTER = timedelta(seconds=60)
UNFINISHED = [StateType.SCHEDULED, StateType.PENDING, StateType.RUNNING]
# A `serve-queue` run tags itself so once its reading processes are warm: from then on
# it claims waiting work within a second or two. A warm-up on a loaded machine can take
# minutes (192 s at load 13 on 2 cores), and a run started before work arrived
# (`warm_at_start`) is old before it is warm, so a run's age alone says little.
WARM_TAG = "readers-warm"


@dataclass(frozen=True)
class DispatchPolicy:
    runs: int  # flow runs to keep going while work waits
    # A running run has claimed waiting work within a second or two once warmed up
    # (WARM_TAG); one that leaves work unclaimed, holding nothing, for `unserved_after`
    # is presumed dead. A run that never says it is warm is judged so after `warm_up`.
    unserved_after: timedelta = timedelta(seconds=30)
    warm_up: timedelta = timedelta(minutes=10)
    # Start one run when the dispatcher starts, before work waits (settings:
    # pipeline_warm_at_start).
    warm_at_start: bool = False


class Dispatcher:
    def __init__(self, db: Database, policy: DispatchPolicy, deployment: str = DEPLOYMENT):
        self.db = db
        self.policy = policy
        self.deployment = deployment
        self.stop = threading.Event()
        self._deployment_id: uuid.UUID | None = None
        self._warned: set[str] = set()
        self._saturated_until = 0.0
        self._unserved_since: datetime | None = None
        self._warm_run_due = policy.warm_at_start

    def unfinished_runs(self, client: SyncPrefectClient) -> list[FlowRun]:
        if self._deployment_id is None:
            self._deployment_id = client.read_deployment_by_name(self.deployment).id
        runs = client.read_flow_runs(
            deployment_filter=DeploymentFilter(id=DeploymentFilterId(any_=[self._deployment_id])),
            flow_run_filter=FlowRunFilter(
                state=FlowRunFilterState(type=FlowRunFilterStateType(any_=UNFINISHED))
            ),
        )
        self._warn_late(runs, utcnow())
        return runs

    def _warn_late(self, runs: list[FlowRun], now: datetime) -> None:
        for run in runs:
            waiting = run.state_type == StateType.SCHEDULED and now - _created(run) > LATE_AFTER
            if waiting and run.name not in self._warned:
                self._warned.add(run.name)
                log.warning(
                    "flow run %s has waited %s for a worker of its work pool; is "
                    "`prefect worker start --pool docintake` running?",
                    run.name,
                    now - _created(run),
                )

    def start_warm_run(self, client: SyncPrefectClient) -> bool:
        """At the dispatcher's start: one run, unless one is going already, so reading
        processes are warm before the first upload. True if it started one."""
        going = bool(self.unfinished_runs(client))
        if not going:
            self._start_run(client, "warm-up before work arrives")
        self._warm_run_due = False  # only once it asked Prefect: a failure tries again
        return not going

    def step(self, client: SyncPrefectClient) -> bool:
        """Start a run if work waits and fewer than `runs` are going. True if it started one."""
        if self._warm_run_due:
            return self.start_warm_run(client)
        if time.monotonic() < self._saturated_until:
            return False
        now = utcnow()
        with self.db.standalone_reads() as session:
            waiting = work_repo.has_waiting_work(session, now)
            held = waiting and work_repo.has_live_leases(session, now)
        if not waiting:
            self._unserved_since = None
            return False
        runs = self.unfinished_runs(client)
        enough = len(runs) >= self.policy.runs
        if enough and not self._crash_unserving(client, runs, now, held):
            self._saturated_until = time.monotonic() + RECHECK_SECONDS
            return False
        self._start_run(client, "work is waiting")
        return True

    def _start_run(self, client: SyncPrefectClient, why: str) -> None:
        deployment_id = self._deployment_id
        assert deployment_id is not None  # unfinished_runs looked it up
        label = utcnow().strftime("%Y%m%dT%H%M%SZ")
        run = client.create_flow_run_from_deployment(
            deployment_id, parameters={"label": label}, name=f"serve-queue-{label}"
        )
        log.info("%s: started flow run %s", why, run.name)

    def _crash_unserving(
        self, client: SyncPrefectClient, runs: list[FlowRun], now: datetime, held: bool
    ) -> bool:
        """Mark runs crashed that leave waiting work unserved; True if it did."""
        warm = [
            run
            for run in runs
            if run.state_type == StateType.RUNNING
            and run.start_time is not None
            and (WARM_TAG in run.tags or now - run.start_time > self.policy.warm_up)
        ]
        if held or not warm:
            self._unserved_since = None
            return False
        self._unserved_since = self._unserved_since or now
        if now - self._unserved_since < self.policy.unserved_after:
            return False
        for run in warm:
            log.warning("flow run %s leaves waiting work unserved; marking it crashed", run.name)
            client.set_flow_run_state(
                run.id, Crashed(message="no longer serving the queue (dispatcher)"), force=True
            )
        self._unserved_since = None
        return True

    def run(self) -> None:
        news = NewsWatch(self.db.engine, (SINGLE, BATCH))
        with news, get_client(sync_client=True) as client:
            self._loop(client, news)

    def _loop(self, client: SyncPrefectClient, news: NewsWatch) -> None:
        backoff = POLL_SECONDS
        while not self.stop.is_set():
            seen = news.wakeup.seen()
            try:
                self.step(client)
                backoff = POLL_SECONDS
            except INFRASTRUCTURE_ERRORS as exc:
                log.warning("database or object store unavailable (%s)", exc)
                backoff = min(backoff * 2, 10.0)
            except Exception as exc:  # Prefect server away, deployment missing
                log.warning("cannot dispatch (%s: %s)", type(exc).__name__, exc)
                self._deployment_id = None
                backoff = min(backoff * 2, 10.0)
            if backoff > POLL_SECONDS:
                self.stop.wait(backoff)
            else:
                news.sleep(news.poll_seconds(POLL_SECONDS, ANNOUNCED_POLL_SECONDS), seen, self.stop)


def _created(run: FlowRun) -> datetime:
    return run.created or run.expected_start_time or utcnow()

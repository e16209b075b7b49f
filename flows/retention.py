"""The retention purge as a Prefect flow: a thin wrapper over storage/retention.py.

`purge-deleted-uploads` (deployment of the same name in prefect.yaml, every hour on the
`docintake` pool, one run at a time): removes the stored bytes of uploads deleted more
than DOCINTAKE_PURGE_AFTER_DAYS ago and the data of results deleted as long ago
(docs/retention.md).
"""

from __future__ import annotations

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows import runtime
from storage.retention import purge_deleted


@task(name="purge-deleted", cache_policy=NO_CACHE)
def purge_deleted_task() -> dict[str, int]:
    env = runtime.current()
    run = purge_deleted(env.db, env.store, env.settings.purge_after_days)
    get_run_logger().info("retention (%d days): %s", env.settings.purge_after_days, run.summary())
    return run.counts()


@flow(name="purge-deleted-uploads")
def purge_deleted_uploads() -> dict[str, int]:
    return purge_deleted_task()

"""The status tables' flow and tasks: thin wrappers over storage/tables.

- `export-status-tables` (deployment of the same name, every 5 minutes on the `docintake`
  pool): export what changed since the last run, then publish the status report as a
  markdown artifact keyed `status-report`.
- `export_after_batch`: the partitions of one batch, a step at the end of
  `process-batch` so its rows are in the tables at once. Its failure never fails the
  batch: the next scheduled export writes the same partitions.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows import runtime
from storage.tables.export import export_batch, export_changed
from storage.tables.report import build_report, to_markdown

REPORT_ARTIFACT_KEY = "status-report"


@task(name="export-changed-partitions", cache_policy=NO_CACHE)
def export_changed_task() -> dict[str, int]:
    env = runtime.current()
    run = export_changed(env.db, env.store, env.settings)
    get_run_logger().info("status tables: %s", run.summary())
    return run.rows


@task(name="publish-status-report", cache_policy=NO_CACHE)
def publish_report_task(since_days: int) -> str:
    env = runtime.current()
    report = build_report(env.store, env.settings.public_base_url, timedelta(days=since_days))
    markdown = to_markdown(report)
    create_markdown_artifact(
        markdown, key=REPORT_ARTIFACT_KEY, description=f"Status report, last {since_days} days"
    )
    return markdown


@flow(name="export-status-tables", flow_run_name="tables-{report_days}d")
def export_status_tables(report_days: int = 7) -> dict[str, int]:
    rows = export_changed_task()
    publish_report_task(report_days)
    return rows


def export_after_batch(batch_id: uuid.UUID) -> None:
    """For the end of `process-batch`, as a step of it: the batch's partitions now, and
    any failure only logged (the scheduled export catches up)."""
    env = runtime.current()
    try:
        run = export_batch(env.db, env.store, env.settings, batch_id)
    except Exception:
        get_run_logger().warning(
            "status tables of batch %s not written; the scheduled export will",
            batch_id,
            exc_info=True,
        )
        return
    get_run_logger().info("status tables of batch %s: %s", batch_id, run.summary())

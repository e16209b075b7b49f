"""The status tables' flow and tasks: thin wrappers over storage/tables.

- `export-status-tables` (deployment of the same name, every 5 minutes on the `docintake`
  pool): export what changed since the last run, then publish the status report as a
  markdown artifact keyed `status-report`.
- `export_when_changed`: a pipeline run's tick (every
  DOCINTAKE_TABLES_EXPORT_INTERVAL_SECONDS while it serves the queue, flows/worker.py):
  the same flow as a child run, only when something changed since the last export. A
  batch's end writes no Parquet itself: the tables are off the reading path, and a
  finished batch is in them at the next tick (docs/tables.md).
"""

from __future__ import annotations

from datetime import timedelta

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows import runtime
from flows.work import WorkerEnv
from storage.tables.export import export_changed, has_changes
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


def export_when_changed(env: WorkerEnv) -> bool:
    """Run `export-status-tables` (a child run of the caller's flow run) if anything
    changed since the last export, less one interval for transactions that committed
    after it read. True if it ran."""
    margin = timedelta(seconds=env.settings.tables_export_interval_seconds)
    if not has_changes(env.db, env.store, env.settings, margin):
        return False
    export_status_tables()
    return True

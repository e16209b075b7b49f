"""The whole import: discover, plan (journal first), send and poll, report."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from docintake_client.client import DocintakeClient
from docintake_client.importer.journal import Journal
from docintake_client.importer.model import ImportEvent, ImportOptions
from docintake_client.importer.plan import plan_batches
from docintake_client.importer.progress import ProgressView
from docintake_client.importer.report import ImportReport, rows_for, write_results
from docintake_client.importer.send import ImportRun, send_all
from docintake_client.importer.walk import discover


def import_documents(
    client: DocintakeClient,
    options: ImportOptions,
    on_event: Callable[[ImportEvent], None] | None = None,
    console: Console | None = None,
) -> ImportReport:
    """Discover, plan, send, poll; writes the results file and returns the report."""
    console = console or Console(stderr=True)
    discovery = discover(options.paths, options.limits)
    journal = Journal(options.results.with_suffix(".state.jsonl"))
    plans = plan_batches(discovery, journal, options.limits)
    for plan in plans:
        journal.record_plan(plan)
    view = ProgressView(console, plans)

    def emit(event: ImportEvent) -> None:
        view(event)
        if on_event is not None:
            on_event(event)

    run = ImportRun(client, options, journal, emit)
    with view.progress:
        outcomes, interrupted = send_all(run, plans)
    rows = [*discovery.refused]
    for plan in plans:
        rows += rows_for(plan, outcomes.get(plan.external_id))
    report = ImportReport(
        rows=tuple(sorted(rows, key=lambda row: row.path)),
        interrupted=interrupted,
        sent_batches=run.counts["sent"],
        replayed_batches=run.counts["replayed"],
        resumed_batches=run.counts["resumed"],
    )
    write_results(report.rows, options.results)
    return report

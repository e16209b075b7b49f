"""`docintake import PATH... --type T`: send folders of documents as batches, resumably.

The steps: discover the files (folders walked, existing ZIP archives opened), plan batches
within the limits (100 files, 200 MiB unpacked, 50 MiB per file by default), write each
plan to a journal before sending it, send N batches in parallel, poll each to a
terminal state, write the results file (CSV and Parquet) and return an exit code.

Resume: every batch's externalId is derived from its members' relative paths and content
hashes, and the journal (`RESULTS.state.jsonl`) records plans and accepted batch ids. A
re-run re-uses the journal's plans, polls the batches already accepted without sending
them, and sends the others with the same externalId, so the server answers a batch that
reached it before a crash with the original (`Idempotent-Replayed: true`).

    model.py      the values: limits, options, documents, plans, result rows, events
    walk.py       discovery: folders walked, local ZIPs opened, files too large refused
    plan.py       the journal's plans kept, new files packed into batches
    journal.py    the append-only journal a re-run reads
    send.py       send (or look up) each batch and poll it, N at a time
    report.py     result rows, the results file, the summary, the exit code
    progress.py   the progress display
    run.py        import_documents: the steps in order
    command.py    the `docintake import` arguments
"""

from docintake_client.importer.command import add_import_command, run_import
from docintake_client.importer.model import ImportEvent, ImportLimits, ImportOptions, Row
from docintake_client.importer.report import RESULT_COLUMNS, ImportReport
from docintake_client.importer.run import import_documents

__all__ = [
    "RESULT_COLUMNS",
    "ImportEvent",
    "ImportLimits",
    "ImportOptions",
    "ImportReport",
    "Row",
    "add_import_command",
    "import_documents",
    "run_import",
]

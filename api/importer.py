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
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import threading
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from api.client import Batch, DocintakeClient, ProblemError, Upload

MIB = 1024 * 1024
ZIP_ENTRY_OVERHEAD = 128  # local header + central directory record, plus the name twice
FIXED_ZIP_TIME = (2020, 1, 1, 0, 0, 0)
EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130
RESULT_COLUMNS = ("path", "upload_id", "status", "result_url", "error_code", "error_message")
DOCUMENT_TYPES = (
    "auto",
    "supplier_invoice",
    "customer_invoice",
    "bank_statement",
    "other_document",
)


@dataclass(frozen=True, slots=True)
class ImportLimits:
    max_files: int = 100
    max_batch_bytes: int = 200 * MIB
    max_file_bytes: int = 50 * MIB


@dataclass(frozen=True, slots=True)
class Document:
    """One file to send: a loose file, or an entry of a local ZIP archive."""

    path: str  # relative, '/'-separated; for a ZIP entry: "archive.zip/entry/name"
    size: int
    digest: str  # sha256 of the content
    source: Path
    entry: str | None = None

    @property
    def key(self) -> str:
        return f"{self.path}\0{self.digest}"

    def read(self) -> bytes:
        if self.entry is None:
            return self.source.read_bytes()
        with zipfile.ZipFile(self.source) as archive:
            return archive.read(self.entry)


@dataclass(frozen=True, slots=True)
class Plan:
    """One batch: its members, and the local archive sent as it is (or None: repacked)."""

    external_id: str
    documents: tuple[Document, ...]
    archive: Path | None = None

    def name_in_archive(self, document: Document) -> str:
        return document.entry if self.archive is not None and document.entry else document.path

    @property
    def size(self) -> int:
        return sum(document.size for document in self.documents)


@dataclass(frozen=True, slots=True)
class Row:
    path: str
    upload_id: str | None
    status: str
    result_url: str | None
    error_code: str | None
    error_message: str | None


@dataclass(frozen=True, slots=True)
class Discovery:
    loose: tuple[Document, ...]
    archives: tuple[Plan, ...]  # local ZIPs within the limits, sent as they are
    refused: tuple[Row, ...]  # reported locally, never sent


@dataclass(frozen=True, slots=True)
class ImportEvent:
    kind: Literal["sent", "resumed", "polled", "finished", "refused"]
    plan: Plan
    batch: Batch | None = None
    problem: ProblemError | None = None


@dataclass(frozen=True, slots=True)
class ImportReport:
    rows: tuple[Row, ...]
    interrupted: bool
    sent_batches: int
    replayed_batches: int
    resumed_batches: int

    @property
    def failure_codes(self) -> Counter[str]:
        return Counter(
            row.error_code or row.status for row in self.rows if row.status != "completed"
        )

    @property
    def exit_code(self) -> int:
        if self.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_FAILED if self.failure_codes else EXIT_OK


@dataclass(frozen=True, slots=True)
class ImportOptions:
    paths: tuple[Path, ...]
    results: Path  # the base name: RESULTS.csv, RESULTS.parquet, RESULTS.state.jsonl
    document_type: str = "auto"
    parallel: int = 4
    limits: ImportLimits = field(default_factory=ImportLimits)
    max_poll_seconds: float = 30.0


# --- discovery -------------------------------------------------------------------------


def _is_junk(relative: str) -> bool:
    parts = relative.split("/")
    return "__MACOSX" in parts or parts[-1].startswith(".")


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(MIB), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(root: Path) -> Iterator[tuple[Path, str]]:
    """Files under `root` with their paths relative to root's parent, sorted."""
    if root.is_file():
        yield root, root.name
        return
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        for name in sorted(files):
            path = Path(directory) / name
            yield path, path.relative_to(root.parent).as_posix()


def _too_large(path: str, size: int, limits: ImportLimits) -> Row:
    message = f"{size} bytes is over the {limits.max_file_bytes} byte limit; not sent"
    return Row(path, None, "failed", None, "file_too_large", message)


def _archive_external_id(relative: str, digest: str) -> str:
    return "import-zip-" + hashlib.sha256(f"{relative}\0{digest}".encode()).hexdigest()[:40]


def _batch_external_id(documents: Iterable[Document]) -> str:
    keys = "\n".join(sorted(document.key for document in documents))
    return "import-" + hashlib.sha256(keys.encode()).hexdigest()[:40]


def _zip_documents(path: Path, relative: str) -> tuple[list[Document], list[zipfile.ZipInfo]]:
    with zipfile.ZipFile(path) as archive:
        infos = [i for i in archive.infolist() if not i.is_dir() and not _is_junk(i.filename)]
        documents = [
            Document(
                path=f"{relative}/{info.filename}",
                size=info.file_size,
                digest=hashlib.sha256(archive.read(info)).hexdigest(),
                source=path,
                entry=info.filename,
            )
            for info in infos
        ]
    return documents, infos


def _discover_zip(path: Path, relative: str, limits: ImportLimits) -> Discovery:
    try:
        documents, _ = _zip_documents(path, relative)
    except (zipfile.BadZipFile, RuntimeError, OSError, ValueError, EOFError) as exc:
        row = Row(relative, None, "failed", None, "invalid_archive", f"not sent: {exc}")
        return Discovery((), (), (row,))
    fits = [d for d in documents if d.size <= limits.max_file_bytes]
    refused = tuple(_too_large(d.path, d.size, limits) for d in documents if d not in fits)
    within = (
        not refused
        and 0 < len(documents) <= limits.max_files
        and sum(d.size for d in documents) <= limits.max_batch_bytes
    )
    if within:
        plan = Plan(_archive_external_id(relative, _sha256_file(path)), tuple(documents), path)
        return Discovery((), (plan,), ())
    return Discovery(tuple(fits), (), refused)


def discover(paths: Sequence[Path], limits: ImportLimits) -> Discovery:
    loose: list[Document] = []
    archives: list[Plan] = []
    refused: list[Row] = []
    seen: set[str] = set()
    for root in paths:
        for path, found_as in _walk(root):
            if _is_junk(found_as):
                continue
            # Two roots of the same name (a/docs, b/docs): the absolute path tells apart.
            relative = found_as if found_as not in seen else path.resolve().as_posix().lstrip("/")
            seen.add(relative)
            if path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
                found = _discover_zip(path, relative, limits)
                loose += found.loose
                archives += found.archives
                refused += found.refused
                continue
            size = path.stat().st_size
            if size > limits.max_file_bytes:
                refused.append(_too_large(relative, size, limits))
            else:
                loose.append(Document(relative, size, _sha256_file(path), path))
    return Discovery(tuple(loose), tuple(archives), tuple(refused))


# --- planning --------------------------------------------------------------------------


def _packed_size(document: Document) -> int:
    return document.size + ZIP_ENTRY_OVERHEAD + 2 * len(document.path.encode())


def pack(documents: Sequence[Document], limits: ImportLimits) -> list[Plan]:
    """Greedy in path order: a batch closes at max_files or max_batch_bytes.

    1% of max_batch_bytes is kept back: the request body (ZIP headers, deflate's framing
    of incompressible data, multipart) must also stay under the server's request cap."""
    budget = limits.max_batch_bytes - limits.max_batch_bytes // 100
    groups: list[list[Document]] = []
    current: list[Document] = []
    current_bytes = 0
    for document in sorted(documents, key=lambda d: d.path):
        size = _packed_size(document)
        if current and (len(current) >= limits.max_files or current_bytes + size > budget):
            groups.append(current)
            current, current_bytes = [], 0
        current.append(document)
        current_bytes += size
    if current:
        groups.append(current)
    return [Plan(_batch_external_id(group), tuple(group)) for group in groups]


class Journal:
    """Append-only JSON lines: `planned` before a batch is sent, `accepted` after."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.planned: dict[str, list[str]] = {}
        self.accepted: dict[str, str] = {}
        self._lock = threading.Lock()
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    self._apply(json.loads(line))

    def _apply(self, event: dict[str, object]) -> None:
        external_id = str(event["externalId"])
        if event["event"] == "planned":
            members = event["members"]
            assert isinstance(members, list)
            self.planned[external_id] = [str(member) for member in members]
        elif event["event"] == "accepted":
            self.accepted[external_id] = str(event["batchId"])

    def _append(self, event: dict[str, object]) -> None:
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(event) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            self._apply(event)

    def record_plan(self, plan: Plan) -> None:
        if plan.external_id not in self.planned:
            members = [document.key for document in plan.documents]
            self._append({"event": "planned", "externalId": plan.external_id, "members": members})

    def record_accepted(self, plan: Plan, batch_id: str) -> None:
        self._append({"event": "accepted", "externalId": plan.external_id, "batchId": batch_id})


def plan_batches(discovery: Discovery, journal: Journal, limits: ImportLimits) -> list[Plan]:
    """The journal's earlier plans first (same members, same externalId), then new ones."""
    by_key = {document.key: document for document in discovery.loose}
    archives = {plan.external_id for plan in discovery.archives}
    kept: list[Plan] = []
    for external_id, members in journal.planned.items():
        if external_id in archives:
            continue  # a local ZIP sent as it is: planned again from discovery, unchanged
        documents = [by_key[key] for key in members if key in by_key]
        if len(documents) == len(members) or (documents and external_id in journal.accepted):
            kept.append(Plan(external_id, tuple(documents)))
            for document in documents:
                by_key.pop(document.key)
    return [*kept, *discovery.archives, *pack(list(by_key.values()), limits)]


# --- sending and polling ---------------------------------------------------------------


def build_archive(plan: Plan) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        for document in plan.documents:
            # A fixed timestamp: a resent plan is byte for byte the archive sent before,
            # which the server's idempotency (same externalId, same file) requires.
            info = zipfile.ZipInfo(plan.name_in_archive(document), date_time=FIXED_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, document.read(), compresslevel=1)
    return buffer.getvalue()


@dataclass
class _Run:
    client: DocintakeClient
    options: ImportOptions
    journal: Journal
    emit: Callable[[ImportEvent], None]
    stop: threading.Event = field(default_factory=threading.Event)
    counts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1


def _send(run: _Run, plan: Plan) -> Batch:
    body = plan.archive if plan.archive is not None else build_archive(plan)
    batch = run.client.upload_batch(
        body, run.options.document_type, plan.external_id, file_name=f"{plan.external_id}.zip"
    )
    run.journal.record_accepted(plan, batch.id)
    run.count("replayed" if batch.replayed else "sent")
    run.emit(ImportEvent("sent", plan, batch))
    return batch


def _poll(run: _Run, plan: Plan, batch: Batch) -> Batch:
    while not batch.is_terminal:
        wait = min(float(batch.retry_after or 1), run.options.max_poll_seconds)
        if run.stop.wait(wait):
            return batch
        batch = run.client.get_batch(batch.id)
        run.emit(ImportEvent("polled", plan, batch))
    run.emit(ImportEvent("finished", plan, batch))
    return batch


def _process(run: _Run, plan: Plan) -> Batch | ProblemError | None:
    if run.stop.is_set():
        return None
    try:
        batch_id = run.journal.accepted.get(plan.external_id)
        if batch_id is None:
            batch = _send(run, plan)
        else:
            batch = run.client.get_batch(batch_id)
            run.count("resumed")
            run.emit(ImportEvent("resumed", plan, batch))
        return _poll(run, plan, batch)
    except ProblemError as problem:
        run.emit(ImportEvent("refused", plan, problem=problem))
        return problem
    except BaseException:
        run.stop.set()  # an interrupt (or a bug) stops the other batches at once
        raise


# --- results ---------------------------------------------------------------------------


def _row_for(path: str, upload: Upload | None, batch: Batch | None) -> Row:
    if upload is None and batch is not None and batch.is_terminal:
        message = "the finished batch has no upload of this name"
        return Row(path, None, "missing", None, None, message)
    if upload is None:
        status = "not_sent" if batch is None else "pending"
        return Row(path, None, status, None, None, None)
    return Row(
        path,
        upload.id,
        upload.status,
        upload.result.url if upload.result else None,
        upload.error.code if upload.error else None,
        upload.error.message if upload.error else None,
    )


def rows_for(plan: Plan, outcome: Batch | ProblemError | None) -> list[Row]:
    if isinstance(outcome, ProblemError):
        return [
            Row(d.path, None, "failed", None, outcome.code, outcome.detail) for d in plan.documents
        ]
    by_name = {upload.file_name: upload for upload in outcome.uploads} if outcome else {}
    return [_row_for(d.path, by_name.get(plan.name_in_archive(d)), outcome) for d in plan.documents]


def write_results(rows: Sequence[Row], base: Path) -> tuple[Path, Path]:
    frame = pl.DataFrame(
        {column: [getattr(row, column) for row in rows] for column in RESULT_COLUMNS},
        schema={column: pl.String for column in RESULT_COLUMNS},
    )
    base.parent.mkdir(parents=True, exist_ok=True)
    csv_path, parquet_path = base.with_suffix(".csv"), base.with_suffix(".parquet")
    frame.write_csv(csv_path)
    frame.write_parquet(parquet_path)
    return csv_path, parquet_path


# --- progress --------------------------------------------------------------------------


class ProgressView:
    """Files and MB done (with ETA) and one line per batch, drawn with rich."""

    def __init__(self, console: Console, plans: Sequence[Plan]) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self.files_total = sum(len(plan.documents) for plan in plans)
        self.bytes_total = sum(plan.size for plan in plans)
        self.files_done = self.bytes_done = 0
        self.overall = self.progress.add_task("all", total=self.bytes_total or 1, detail="")
        self.rows: dict[str, TaskID] = {
            plan.external_id: self.progress.add_task(
                f"batch {index + 1}", total=len(plan.documents), visible=False, detail="waiting"
            )
            for index, plan in enumerate(plans)
        }
        self._describe_overall()

    def _describe_overall(self) -> None:
        detail = (
            f"{self.files_done}/{self.files_total} files, "
            f"{self.bytes_done / MIB:.1f}/{self.bytes_total / MIB:.1f} MB"
        )
        self.progress.update(self.overall, completed=self.bytes_done, detail=detail)

    @staticmethod
    def _status(event: ImportEvent) -> str:
        if event.problem is not None:
            return f"refused ({event.problem.code})"
        assert event.batch is not None
        counts = event.batch.counts
        return f"{event.batch.status}: {counts.completed} ok, {counts.failed} failed"

    def __call__(self, event: ImportEvent) -> None:
        task = self.rows[event.plan.external_id]
        done = event.batch.counts.completed + event.batch.counts.failed if event.batch else 0
        self.progress.update(task, completed=done, detail=self._status(event), visible=True)
        if event.kind in ("finished", "refused"):
            self.files_done += len(event.plan.documents)
            self.bytes_done += event.plan.size
            self._describe_overall()


def print_summary(console: Console, report: ImportReport) -> None:
    completed = sum(row.status == "completed" for row in report.rows)
    console.print(f"{completed} of {len(report.rows)} files completed")
    codes = report.failure_codes
    if not codes:
        return
    table = Table(title="Files not completed")
    table.add_column("code")
    table.add_column("files", justify="right")
    for code, count in codes.most_common():
        table.add_row(code, str(count))
    console.print(table)


# --- the whole import ------------------------------------------------------------------


def _collect(
    run: _Run, plans: Sequence[Plan]
) -> tuple[dict[str, Batch | ProblemError | None], bool]:
    outcomes: dict[str, Batch | ProblemError | None] = {}
    interrupted = False
    with ThreadPoolExecutor(max_workers=max(1, run.options.parallel)) as pool:
        futures: dict[str, Future[Batch | ProblemError | None]] = {
            plan.external_id: pool.submit(_process, run, plan) for plan in plans
        }
        try:
            for external_id, future in futures.items():
                outcomes[external_id] = future.result()
        except KeyboardInterrupt:
            interrupted = True
            run.stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            for external_id, future in futures.items():
                if future.done() and not future.cancelled() and future.exception() is None:
                    outcomes[external_id] = future.result()
        except BaseException:
            run.stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return outcomes, interrupted


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

    run = _Run(client, options, journal, emit)
    with view.progress:
        outcomes, interrupted = _collect(run, plans)
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


# --- command line ----------------------------------------------------------------------


def add_import_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    defaults = ImportLimits()
    parser = subparsers.add_parser(
        "import", help="send folders and ZIP archives of documents as batches, resumably"
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--type", dest="document_type", default="auto", choices=DOCUMENT_TYPES)
    parser.add_argument(
        "--server", default=os.environ.get("DOCINTAKE_SERVER", "http://127.0.0.1:8000")
    )
    parser.add_argument("--key", default=os.environ.get("DOCINTAKE_API_KEY"))
    parser.add_argument("--results", type=Path, default=Path("docintake-import"))
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--max-files", type=int, default=defaults.max_files)
    parser.add_argument("--max-batch-bytes", type=int, default=defaults.max_batch_bytes)
    parser.add_argument("--max-file-bytes", type=int, default=defaults.max_file_bytes)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.set_defaults(func=run_import)


def options_from(args: argparse.Namespace) -> ImportOptions:
    return ImportOptions(
        paths=tuple(args.paths),
        results=args.results,
        document_type=args.document_type,
        parallel=args.parallel,
        limits=ImportLimits(args.max_files, args.max_batch_bytes, args.max_file_bytes),
    )


def run_import(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    if not args.key:
        console.print("an API key is needed: --key or DOCINTAKE_API_KEY")
        return 2
    missing = [str(path) for path in args.paths if not path.exists()]
    if missing:
        console.print(f"no such file or folder: {', '.join(missing)}")
        return 2
    options = options_from(args)
    with DocintakeClient(args.server, args.key, timeout=args.timeout) as client:
        report = import_documents(client, options, console=console)
    print_summary(console, report)
    console.print(f"results: {options.results.with_suffix('.csv')} and .parquet")
    if report.interrupted:
        console.print("interrupted: run the same command again to resume")
    return report.exit_code

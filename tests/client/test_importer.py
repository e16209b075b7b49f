"""`docintake import` end to end: a real uvicorn, a real worker, real batches."""

from __future__ import annotations

import argparse
import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from rich.console import Console

from api.ratelimit import RateLimiter
from docintake_client import DocintakeClient, RetryNotice, RetryPolicy
from docintake_client.importer import (
    RESULT_COLUMNS,
    ImportEvent,
    ImportLimits,
    ImportOptions,
    ImportReport,
    add_import_command,
    import_documents,
    run_import,
)
from storage.models import Batch, Upload
from testkit.samples import blank_pdf, corpus_file
from tests.client.support import Stack

# The settings fixture's limits: 10 files, 4 MiB per archive, 1 MiB per file.
LIMITS = ImportLimits(max_files=10, max_batch_bytes=4 * 1024 * 1024, max_file_bytes=1024 * 1024)


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def _folder(root: Path) -> Path:
    """15 loose documents in two folders, a small ZIP (sent as it is), a ZIP of 12
    (repacked), a file over the limit, and junk that is skipped."""
    folder = root / "inbox"
    for i in range(12):
        _write(folder / "pdf" / f"letter-{i:02d}.pdf", blank_pdf(f"letter {i}"))
    for i in range(3):
        name, content = corpus_file("accept", ".xml", index=i)
        _write(folder / "xml" / name, content)
    _write(folder / "small.zip", _zip({f"s{i}.pdf": blank_pdf(f"small {i}") for i in range(2)}))
    _write(folder / "many.zip", _zip({f"m{i:02d}.pdf": blank_pdf(f"many {i}") for i in range(12)}))
    _write(folder / "huge.pdf", b"%PDF-1.4\n" + b"0" * LIMITS.max_file_bytes)
    _write(folder / ".DS_Store", b"junk")
    return folder


EXPECTED_DOCUMENTS = 12 + 3 + 2 + 12  # sent, plus huge.pdf refused locally
# small.zip as it is -> 1; the 15 loose files and many.zip's 12 entries packed -> 3
EXPECTED_BATCHES = 1 + 3


def _options(folder: Path, results: Path, parallel: int = 2) -> ImportOptions:
    return ImportOptions(
        paths=(folder,), results=results, parallel=parallel, limits=LIMITS, max_poll_seconds=1
    )


def _quiet() -> Console:
    return Console(file=io.StringIO(), width=120)


def _run(
    stack: Stack, options: ImportOptions, on_event: Callable[[ImportEvent], None] | None = None
) -> ImportReport:
    with stack.client() as client:
        return import_documents(client, options, on_event=on_event, console=_quiet())


def _assert_all_sent_completed(report: ImportReport) -> None:
    by_path = {row.path: row for row in report.rows}
    assert len(by_path) == EXPECTED_DOCUMENTS + 1
    huge = by_path["inbox/huge.pdf"]
    assert (huge.status, huge.error_code, huge.upload_id) == ("failed", "file_too_large", None)
    sent = [row for path, row in by_path.items() if path != "inbox/huge.pdf"]
    assert {row.status for row in sent} == {"completed"}, [r for r in sent if r.error_code]
    assert all(row.upload_id and str(row.result_url).startswith("http") for row in sent)
    assert "inbox/small.zip/s0.pdf" in by_path and "inbox/many.zip/m11.pdf" in by_path
    assert "inbox/.DS_Store" not in by_path


def test_folder_import_packs_batches_and_writes_results(stack: Stack, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    results = tmp_path / "out" / "import"

    report = _run(stack, _options(folder, results))

    _assert_all_sent_completed(report)
    assert (report.sent_batches, report.replayed_batches) == (EXPECTED_BATCHES, 0)
    assert report.exit_code == 1 and report.failure_codes == {"file_too_large": 1}
    assert stack.count(Batch) == EXPECTED_BATCHES
    assert stack.count(Upload) == EXPECTED_DOCUMENTS  # huge.pdf never reached the server
    for frame in (
        pl.read_csv(results.with_suffix(".csv")),
        pl.read_parquet(results.with_suffix(".parquet")),
    ):
        assert tuple(frame.columns) == RESULT_COLUMNS
        assert frame.height == EXPECTED_DOCUMENTS + 1
        assert frame.filter(pl.col("status") == "completed").height == EXPECTED_DOCUMENTS


def test_rerun_sends_nothing_twice(stack: Stack, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    results = tmp_path / "import"
    _run(stack, _options(folder, results))

    again = _run(stack, _options(folder, results))
    assert (again.sent_batches, again.resumed_batches) == (0, EXPECTED_BATCHES)

    results.with_suffix(".state.jsonl").unlink()  # journal lost: the server replays
    replayed = _run(stack, _options(folder, results))
    assert (replayed.sent_batches, replayed.replayed_batches) == (0, EXPECTED_BATCHES)

    assert stack.count(Batch) == EXPECTED_BATCHES
    assert stack.count(Upload) == EXPECTED_DOCUMENTS
    _assert_all_sent_completed(replayed)


def _interrupt_after_first_send(event: ImportEvent) -> None:
    if event.kind == "sent":
        raise KeyboardInterrupt


def test_interrupted_import_resumes_without_sending_twice(stack: Stack, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    results = tmp_path / "import"

    cut = _run(stack, _options(folder, results, parallel=1), on_event=_interrupt_after_first_send)

    assert cut.interrupted and cut.exit_code == 130
    assert cut.sent_batches == 1 and stack.count(Batch) == 1
    partial = pl.read_csv(results.with_suffix(".csv"))
    assert "not_sent" in partial["status"].to_list()

    resumed = _run(stack, _options(folder, results))

    assert (resumed.resumed_batches, resumed.sent_batches) == (1, EXPECTED_BATCHES - 1)
    assert stack.count(Batch) == EXPECTED_BATCHES
    assert stack.count(Upload) == EXPECTED_DOCUMENTS
    _assert_all_sent_completed(resumed)
    final = pl.read_parquet(results.with_suffix(".parquet"))
    assert final.height == EXPECTED_DOCUMENTS + 1


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="docintake")
    add_import_command(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_command_exits_non_zero_and_summarises_failure_codes(
    stack: Stack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs"
    _write(folder / "ok.pdf", blank_pdf("ok"))
    _write(folder / "photo.png", corpus_file("unsupported_file_type")[1])
    _write(folder / "huge.pdf", b"%PDF-1.4\n" + b"0" * LIMITS.max_file_bytes)
    results = tmp_path / "results"
    args = _parse(
        [
            "import",
            str(folder),
            "--type",
            "auto",
            "--server",
            stack.base_url,
            "--key",
            stack.company.api_key,
            "--results",
            str(results),
            "--max-files",
            str(LIMITS.max_files),
            "--max-batch-bytes",
            str(LIMITS.max_batch_bytes),
            "--max-file-bytes",
            str(LIMITS.max_file_bytes),
        ]
    )

    assert args.func is run_import
    assert run_import(args) == 1

    err = capsys.readouterr().err
    assert "1 of 3 files completed" in err
    assert "file_too_large" in err and "unsupported_file_type" in err
    frame = pl.read_csv(results.with_suffix(".csv"))
    statuses = dict(zip(frame["path"], frame["status"], strict=True))
    assert statuses == {
        "docs/huge.pdf": "failed",
        "docs/ok.pdf": "completed",
        "docs/photo.png": "failed",
    }


def test_import_backs_off_on_429_and_completes(stack: Stack, tmp_path: Path) -> None:
    stack.services.rate_limiter = RateLimiter(per_second=1, burst=1)
    folder = tmp_path / "docs"
    for i in range(12):
        _write(folder / f"d{i:02d}.pdf", blank_pdf(f"limited {i}"))
    notices: list[RetryNotice] = []
    options = ImportOptions(paths=(folder,), results=tmp_path / "r", parallel=2, limits=LIMITS)

    with DocintakeClient(
        stack.base_url,
        stack.company.api_key,
        retry=RetryPolicy(max_attempts=20),
        on_retry=notices.append,
    ) as client:
        report = import_documents(client, options, console=_quiet())

    assert report.exit_code == 0, report.failure_codes
    assert {row.status for row in report.rows} == {"completed"}
    assert any(notice.reason == "rate_limited" for notice in notices)
    assert all(notice.wait_seconds >= 1 for notice in notices if notice.reason == "rate_limited")
    assert stack.count(Batch) == 2

"""Memory bombs through the reading processes: what each costs in memory and time.

The three files the issue measured on `make run`: a 1 MiB PDF whose content stream
inflates to 1 GiB, a PDF with two dozen embedded files of 49 MiB each, and a ZIP whose
BZIP2 entry declares 1,000 bytes and inflates to 3 GiB. Each goes through the real
worker path (a `DocumentExecutor` with the settings' limits; the archive through the
unpack request), while the resident memory of this process and all its descendants
is sampled from /proc every 10 ms. Reported: growth of that sum over its baseline,
the outcome, and seconds.
"""

from __future__ import annotations

import functools
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.soak_bombs import memory_bomb_pdf, poison_archive
from flows.executor import DocumentExecutor
from flows.reader_process import ReaderLimits
from flows.unpack import UnpackReport, unpack_in_child
from processors.archive import ArchiveLimits
from processors.base import CompanyProfile, DocumentType, Failure, ProcessingContext
from storage.objectstore import LocalDirStore
from storage.settings import MIB, Settings
from testkit.hostile import embedded_files_bomb

CONTEXT = ProcessingContext(DocumentType.AUTO, "bomb.pdf", CompanyProfile("Bench GmbH"))


def _tree(pid: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return [pid] + [grandchild for child in children for grandchild in _tree(child)]


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


class _Sampler:
    """The largest sum of resident memory over this process and its descendants."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, sum(_rss(pid) for pid in _tree(os.getpid())))

    def __enter__(self) -> _Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def _measure(what: Callable[[], Any], describe: Callable[[Any], str]) -> dict[str, Any]:
    baseline = sum(_rss(pid) for pid in _tree(os.getpid()))
    started = time.monotonic()
    with _Sampler() as sampler:
        answer = what()
    return {
        "outcome": describe(answer),
        "seconds": round(time.monotonic() - started, 2),
        "memory_growth_mib": round(max(0, sampler.peak - baseline) / MIB, 1),
    }


def _unpack_report(report: UnpackReport) -> str:
    if report.rejected is not None:
        return f"batch failed: {report.rejected.problem}"
    return "; ".join(
        f"{entry.name}: {entry.unreadable or ('too large' if entry.too_large else 'stored')}"
        for entry in report.entries
    )


def run() -> dict[str, Any]:
    settings = Settings()
    limits = ReaderLimits(
        settings.document_time_limit_seconds,
        settings.reader_cpu_seconds,
        settings.reader_memory_mib * MIB,
    )
    executor = DocumentExecutor(processes=1, limits=limits)
    executor.warm_up()
    results: dict[str, Any] = {"reader_memory_limit_mib": settings.reader_memory_mib}
    outcome = lambda o: o.code if isinstance(o, Failure) else o.result_type  # noqa: E731
    try:
        for name, make in (
            ("flate_1gib_pdf", memory_bomb_pdf),
            ("embedded_files_pdf", embedded_files_bomb),
        ):
            data = make()
            results[name] = _measure(functools.partial(executor.read, data, CONTEXT), outcome)
        with tempfile.TemporaryDirectory() as root:
            store = LocalDirStore(Path(root))
            writer = store.open_writer("poison.zip")
            writer.write(poison_archive())
            writer.commit()
            archive = ArchiveLimits(100, settings.max_archive_bytes, settings.max_file_bytes)
            call = lambda: executor.submit(  # noqa: E731
                "bench", unpack_in_child, store, uuid.uuid4(), "poison.zip", archive
            ).result()
            results["bzip2_3gib_zip"] = _measure(call, _unpack_report)
    finally:
        executor.shutdown()
    return results


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))

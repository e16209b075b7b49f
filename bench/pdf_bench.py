"""PDF reading speed: text-layer PDFs of the corpus, and OCR per page next to the floor.

- text layer: every corpus PDF labelled `plain_invoice`, `plain_pdf` or
  `bank_statement`, read through `read_document` as the worker does (registry,
  e-invoice check first), one warm-up round, then the median of `ROUNDS` rounds per
  document, wall and CPU time. Target: median 15 ms or less (docs/pdf_text.md, Speed).
- OCR: generated invoices and statements scanned (tests/processors/scans.py) and read
  through `read_pdf_text` (render, deskew, Tesseract, layout), per page; the floor is
  Tesseract's CLI alone on the same page rendered to PNG at the same resolution, run
  the same way (one thread, deu+eng, TSV).
- a scanned statement of several full pages read whole, against the per-document time
  limit.

Usage: .venv/bin/python -m bench.pdf_bench (writes bench/results/pdf.json), or through
`python -m bench.run pdf`; `--text-layer` runs only the text-layer part (writes
bench/results/pdf_text_layer.json); `--instruction-rounds N` reads ten median
documents 1 + N times for callgrind and writes nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from pypdf import PdfReader

from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.ocr import LANGUAGES
from processors.pdf_text import OCR_DPI, read_pdf_text
from processors.pipeline import read_document
from storage.settings import Settings
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    Booking,
    english_invoice,
    english_statement,
    german_invoice,
    german_statement,
)
from tests.processors.scans import GRADE, scan

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
RESULTS = Path(__file__).parent / "results"
ROUNDS = 5
TEXT_KINDS = {
    "plain_invoice": DocumentType.AUTO,
    "plain_pdf": DocumentType.AUTO,
    "bank_statement": DocumentType.BANK_STATEMENT,
}
INSTRUCTION_SUBSET = (
    "MustangGnuaccountingBeispielRE-20170509_505blanko.pdf",
    "MustangGnuaccountingBeispielRE-20170509_505PDFA3.pdf",
    "MustangGnuaccountingBeispielRE-20190610_507blanko.pdf",
    "MustangGnuaccountingBeispielRE-20201121_508blanko.pdf",
    "MustangGnuaccountingBeispielRE-20201121_508blankoA3.pdf",
    "EmptyPDFA1.pdf",
    "AzureInterior.pdf",
    "coolblue1.pdf",
    "coolblue2.pdf",
    "FlipkartInvoice.pdf",
)
"""The ten text-layer PDFs around the median CPU time (2026-11-26), for instruction counts."""
SCAN_GRADES = ("g0-clean", "g3-worn")
MULTI_PAGE_BOOKINGS = 60


def _context(document_type: DocumentType) -> ProcessingContext:
    return ProcessingContext(document_type, "bench.pdf", CompanyProfile("Bench GmbH"))


def _timed_ms(function: Any, *args: Any) -> float:
    return _timed(function, *args)[0]


def _timed(function: Any, *args: Any) -> tuple[float, float]:
    """(wall, CPU) milliseconds of one call. CPU time is what other work on a shared
    machine does not inflate much."""
    started, cpu = time.perf_counter(), time.process_time()
    with contextlib.suppress(ProcessingError):  # a failure is a result too; its time counts
        function(*args)
    return (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000


def _text_layer_documents() -> list[tuple[str, bytes, ProcessingContext]]:
    rows = [json.loads(x) for x in (CORPUS / "manifest.jsonl").read_text().splitlines() if x]
    return [
        (row["file"], (CORPUS / row["file"]).read_bytes(), _context(TEXT_KINDS[row["expected"]]))
        for row in rows
        if row["expected"] in TEXT_KINDS
    ]


def instruction_rounds(rounds: int) -> None:
    """For `valgrind --tool=callgrind`, which counts instructions whatever the machine's
    load: a warm-up round over `INSTRUCTION_SUBSET`, then `rounds` more. One round's
    instructions are a run with 1 less a run with 0 (docs/pdf_text.md, Speed)."""
    documents = [d for d in _text_layer_documents() if Path(d[0]).name in INSTRUCTION_SUBSET]
    for _ in range(1 + rounds):
        for _, data, context in documents:
            _timed(read_document, data, context)


def text_layer() -> dict[str, Any]:
    documents = _text_layer_documents()
    for _, data, context in documents:  # warm-up: imports, first-use caches
        _timed_ms(read_document, data, context)
    rounds = {
        name: [_timed(read_document, data, context) for _ in range(ROUNDS)]
        for name, data, context in documents
    }
    per_document = {
        name: statistics.median(wall for wall, _ in runs) for name, runs in rounds.items()
    }
    cpu = sorted(statistics.median(cpu for _, cpu in runs) for runs in rounds.values())
    times = sorted(per_document.values())
    return {
        "documents": len(documents),
        "rounds_per_document": ROUNDS,
        "median_ms": round(statistics.median(times), 1),
        "p90_ms": round(_p90(times), 1),
        "max_ms": round(times[-1], 1),
        "median_cpu_ms": round(statistics.median(cpu), 1),
        "p90_cpu_ms": round(_p90(cpu), 1),
        "target_median_ms": 15,
        "slowest": {
            Path(name).name: round(ms, 1)
            for name, ms in sorted(per_document.items(), key=lambda item: -item[1])[:5]
        },
    }


def _p90(times: list[float]) -> float:
    return times[int(0.9 * (len(times) - 1))]


def _scans() -> dict[str, bytes]:
    made = {
        "invoice-german": german_invoice(SAMPLE_INVOICE),
        "invoice-english": english_invoice(SAMPLE_INVOICE),
        "statement-german": german_statement(SAMPLE_STATEMENT),
        "statement-english": english_statement(SAMPLE_STATEMENT),
    }
    return {
        f"{name}@{grade}": scan(pdf, GRADE[grade])
        for name, pdf in made.items()
        for grade in SCAN_GRADES
    }


def _tesseract_alone_ms(png: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        ["tesseract", str(png), "stdout", "-l", "+".join(LANGUAGES), "--dpi", str(OCR_DPI), "tsv"],
        capture_output=True,
        check=True,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},
    )
    return (time.perf_counter() - started) * 1000


def ocr_pages() -> dict[str, Any]:
    pages: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, pdf in _scans().items():
            png = Path(folder) / "page.png"
            document = pdfium.PdfDocument(pdf)
            document[0].render(scale=OCR_DPI / 72, grayscale=True).to_pil().save(png)
            document.close()
            ours = statistics.median(
                _timed_ms(read_pdf_text, pdf, "tesseract", 1) for _ in range(2)
            )
            floor = statistics.median(_tesseract_alone_ms(png) for _ in range(2))
            pages[name] = {"ours_ms": round(ours), "tesseract_alone_ms": round(floor)}
    ours_median = statistics.median(page["ours_ms"] for page in pages.values())
    floor_median = statistics.median(page["tesseract_alone_ms"] for page in pages.values())
    return {
        "dpi": OCR_DPI,
        "pages": pages,
        "median_ms_per_page": round(ours_median),
        "tesseract_alone_median_ms_per_page": round(floor_median),
        "ratio_to_floor": round(ours_median / floor_median, 2),
    }


def dense_statement(bookings: int) -> bytes:
    """A statement with many bookings: full pages, the slowest kind to OCR."""
    rows = tuple(
        Booking(
            date(2024, 2, 1 + i % 28),
            date(2024, 2, 1 + i % 28),
            Decimal(f"{(-1) ** i * (17 + 13 * i)}.{i % 100:02d}"),
            f"Gegenseite {i} GmbH",
            (f"Rechnung {1000 + i} vom {1 + i % 28:02d}.01.2024", f"Kundennummer {4711 + i}"),
        )
        for i in range(bookings)
    )
    return german_statement(replace(SAMPLE_STATEMENT, bookings=rows))


def multi_page_scan() -> dict[str, Any]:
    """A scanned statement of several full pages, read whole as the worker would."""
    pdf = scan(dense_statement(MULTI_PAGE_BOOKINGS), GRADE["g0-clean"])
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    seconds = _timed_ms(read_pdf_text, pdf, "tesseract", 50) / 1000
    return {
        "pages": pages,
        "bookings": MULTI_PAGE_BOOKINGS,
        "seconds": round(seconds, 1),
        "seconds_per_page": round(seconds / pages, 1),
        "document_time_limit_seconds": Settings().document_time_limit_seconds,
    }


def run() -> dict[str, Any]:
    return {"text_layer": text_layer(), "ocr": ocr_pages(), "multi_page_scan": multi_page_scan()}


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--instruction-rounds"]:
        instruction_rounds(int(arguments[1]))
        return 0
    only_text_layer = "--text-layer" in arguments
    if only_text_layer:  # the part that runs in seconds, without OCR; written apart
        result, output = {"text_layer": text_layer()}, "pdf_text_layer.json"
    else:
        result, output = run(), "pdf.json"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / output).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

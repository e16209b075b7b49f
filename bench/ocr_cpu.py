"""OCR cost in CPU time (this process and its Tesseract children), which a loaded
machine inflates less than wall time: a several-page scanned German statement and
one-page scans (German, English), each read whole through `read_pdf_text`. The
Tesseract passes are counted through a wrapper command that logs each run's models.

Usage: .venv/bin/python -m bench.ocr_cpu [LABEL] (writes bench/results/ocr_cpu.json,
or ocr_cpu-LABEL.json); docs/ocr.md has the numbers.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.pdf_bench import MULTI_PAGE_BOOKINGS, dense_statement
from processors.pdf_text import read_pdf_text
from testkit.generated_docs import SAMPLE_STATEMENT, english_statement, german_statement
from tests.processors.scans import GRADE, scan

RESULTS = Path(__file__).parent / "results"
ROUNDS = 2
GRADES = ("g0-clean", "g1-office")
WRAPPER = """#!/bin/sh
[ "$2" = stdout ] && echo "$4" >> "{log}"
exec "{tesseract}" "$@"
"""


def documents() -> dict[str, Callable[[], bytes]]:
    return {
        f"statement-german-{MULTI_PAGE_BOOKINGS}-bookings": lambda: dense_statement(
            MULTI_PAGE_BOOKINGS
        ),
        "statement-german-1-page": lambda: german_statement(SAMPLE_STATEMENT),
        "statement-english-1-page": lambda: english_statement(SAMPLE_STATEMENT),
    }


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _measure(pdf: bytes, command: str, log: Path) -> dict[str, Any]:
    seconds: list[float] = []
    for _ in range(ROUNDS):
        log.write_text("")
        started = _cpu_seconds()
        text = read_pdf_text(pdf, command, 50)
        seconds.append(_cpu_seconds() - started)
    passes = Counter(log.read_text().split())
    assert text.ocr is not None
    return {
        "pages": text.ocr.pages,
        "cpu_seconds": round(min(seconds), 2),
        "cpu_seconds_per_page": round(min(seconds) / text.ocr.pages, 2),
        "tesseract_passes": dict(passes),
    }


def run() -> dict[str, Any]:
    tesseract = shutil.which("tesseract")
    assert tesseract is not None, "Tesseract is not installed"
    results: dict[str, Any] = {"rounds": ROUNDS, "load_average": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as folder:
        log, command = Path(folder) / "passes.log", Path(folder) / "tesseract"
        command.write_text(WRAPPER.format(log=log, tesseract=tesseract))
        command.chmod(0o755)
        for name, make in documents().items():
            pdf = make()
            for grade in GRADES:
                results[f"{name}@{grade}"] = _measure(scan(pdf, GRADE[grade]), str(command), log)
    return results


def main(arguments: list[str]) -> int:
    result = run()
    RESULTS.mkdir(exist_ok=True)
    suffix = f"-{arguments[0]}" if arguments else ""
    (RESULTS / f"ocr_cpu{suffix}.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

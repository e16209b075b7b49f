"""OCR of French, Dutch, Spanish and Italian scans (issue 40, class 6): per generated
statement layout of those languages (tests/processors/statements), scanned at grade
g1-office, the CPU time per page (this process and its Tesseract children), Tesseract's
passes and models, the statement fields read exactly, and the accented words of the
text layer found as printed in OCR's text.

The business letters of testkit/language_scans.py are measured the same way
(without fields). `--old-models` hides the French, Dutch, Spanish and Italian models
from the service (Tesseract then lists only German and English), which reads as before
they were installed.

Usage: .venv/bin/python -m bench.ocr_languages [--old-models] [LABEL] (writes
bench/results/ocr_languages[-LABEL].json); docs/ocr.md has the numbers.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.ocr_cpu import WRAPPER, _cpu_seconds
from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.pdf_text import read_pdf_text
from processors.pipeline import read_document
from testkit.language_scans import LETTERS, accented_words, language_letter
from testkit.statements.layouts import LAYOUT
from testkit.statements.measure import score
from testkit.statements.render import render
from tests.processors.scans import GRADE, scan

RESULTS = Path(__file__).parent / "results"
LAYOUTS = ("french_bank", "revolut_fr", "dutch_bank", "spanish_bank", "italian_bank")
GRADES = ("g1-office",)
OLD_MODELS = """#!/bin/sh
[ "$1" = --list-langs ] && printf 'List of available languages (2):\\ndeu\\neng\\n' && exit 0
[ "$2" = stdout ] && echo "$4" >> "{log}"
exec "{tesseract}" "$@"
"""


def _measure(name: str, grade: str, command: str, log: Path) -> dict[str, Any]:
    rendered = render(LAYOUT[name])
    scanned = scan(rendered.pdf, GRADE[grade])
    measured = _read(rendered.pdf, scanned, command, log)
    context = ProcessingContext(DocumentType.BANK_STATEMENT, "s", CompanyProfile("Bench"), command)
    try:
        data: dict[str, Any] | str = dict(read_document(scanned, context).data)
    except ProcessingError as error:
        data = str(error.code)
    scored = score(rendered, name, data)
    measured["fields_exact"] = f"{scored.fields_exact}/{scored.fields_total}"
    measured["transactions_found"] = f"{scored.found}/{scored.printed}"
    return measured


def _read(printed: bytes, scanned: bytes, command: str, log: Path) -> dict[str, Any]:
    log.write_text("")
    started = _cpu_seconds()
    text = read_pdf_text(scanned, command, 50)
    seconds = _cpu_seconds() - started
    assert text.ocr is not None
    ocr_text = "\n".join(text.plain)
    accented = accented_words(printed)
    return {
        "pages": text.ocr.pages,
        "cpu_ms_per_page": round(1000 * seconds / text.ocr.pages),
        "tesseract_passes": dict(Counter(log.read_text().split())),
        "accented_words_kept": f"{sum(word in ocr_text for word in accented)}/{len(accented)}",
    }


def run(old_models: bool) -> dict[str, Any]:
    tesseract = shutil.which("tesseract")
    assert tesseract is not None, "Tesseract is not installed"
    results: dict[str, Any] = {"load_average": os.getloadavg()[0], "old_models": old_models}
    with tempfile.TemporaryDirectory() as folder:
        log, command = Path(folder) / "passes.log", Path(folder) / "tesseract"
        wrapper = OLD_MODELS if old_models else WRAPPER
        command.write_text(wrapper.format(log=log, tesseract=tesseract))
        command.chmod(0o755)
        for grade in GRADES:
            for language in LETTERS:
                letter = language_letter(language)
                scanned = scan(letter, GRADE[grade])
                _report(
                    results, f"letter-{language}@{grade}", _read(letter, scanned, str(command), log)
                )
            for name in LAYOUTS:
                _report(results, f"{name}@{grade}", _measure(name, grade, str(command), log))
    return results


def _report(results: dict[str, Any], key: str, measured: dict[str, Any]) -> None:
    results[key] = measured
    print(key, measured, flush=True)


def main(arguments: list[str]) -> int:
    old_models = "--old-models" in arguments
    arguments = [argument for argument in arguments if argument != "--old-models"]
    result = run(old_models)
    RESULTS.mkdir(exist_ok=True)
    suffix = f"-{arguments[0]}" if arguments else ""
    (RESULTS / f"ocr_languages{suffix}.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

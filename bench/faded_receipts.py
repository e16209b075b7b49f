"""Faded receipts (issue 40, class 4): at each fade level of
testkit/receipt_docs.py (`FADE_LEVELS`), scanned on its own page and
photographed on a table, whether the service finds the date and the total (sent as
`auto`: an invoice with the printed gross and date) or what it says instead; and what
each preprocessing step of processors/ocr_preprocess.py reads on its own: the score
(recognised words less the others), the mean confidence, and whether a total with its
amount and a date are in the step's text.

Usage: .venv/bin/python -m bench.faded_receipts [LABEL] (writes
bench/results/faded_receipts[-LABEL].json); docs/realworld.md has the numbers.
"""

from __future__ import annotations

import json
import sys
import time
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]

from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.deskew import deskew
from processors.ocr import mean_confidence
from processors.ocr_preprocess import readings, score
from processors.pdf_invoices.classify import total_and_date
from processors.pdf_text import _read, _render, _reread
from processors.pipeline import read_document
from testkit.receipt_docs import (
    DEVELOPMENT,
    FADE_LEVELS,
    Receipt,
    faded_captures,
    photograph,
)

RESULTS = Path(__file__).parent / "results"
CONTEXT = ProcessingContext(DocumentType.AUTO, "receipt", CompanyProfile("Bench"))
COMMAND = "tesseract"


def outcome(pdf: bytes, receipt: Receipt) -> str:
    """`found` (gross and date as printed), `wrong` (an invoice, a field misread), or
    the document's kind or failure code."""
    try:
        result = read_document(pdf, CONTEXT)
    except ProcessingError as error:
        return str(error.code)
    if str(result.result_type) != "invoice":
        return str(result.result_type)
    invoice = result.data["invoice"]
    gross = invoice["totals"].get("gross")
    right = gross is not None and Decimal(gross) == receipt.gross
    return "found" if right and invoice["issueDate"] == receipt.issue_date.isoformat() else "wrong"


def steps(pdf: bytes) -> list[dict[str, Any]]:
    """Each step's reading of the page, as the service makes them."""
    document = pdfium.PdfDocument(pdf)
    image, _ = _render(document[0])
    assert image is not None
    image = deskew(image)
    first, languages = _read(image, COMMAND, ())
    again = partial(_reread, command=COMMAND, languages=languages)
    return [
        {
            "step": name,
            "score": score(page),
            "confidence": round(mean_confidence(page.words), 1),
            "totalAndDate": total_and_date(page.layout),
        }
        for name, page in readings(image, first, again)
    ]


def main(label: str) -> None:
    rows = []
    for kind in DEVELOPMENT:
        receipt = kind.make(f"{kind.name}:1")
        for level, _, _ in FADE_LEVELS:
            for capture in faded_captures(level):
                pdf = photograph(receipt, capture, 1)
                started = time.monotonic()
                found = outcome(pdf, receipt)
                row: dict[str, Any] = {"receipt": kind.name, "capture": capture.name}
                row["outcome"] = found
                row["seconds"] = round(time.monotonic() - started, 1)
                row["steps"] = steps(pdf)
                rows.append(row)
                print(json.dumps(row), flush=True)
    RESULTS.mkdir(exist_ok=True)
    name = f"faded_receipts{'-' + label if label else ''}.json"
    (RESULTS / name).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")

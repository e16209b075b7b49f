"""Calibration of the OCR quality gate (docs/ocr.md): generated invoices and statements
are scanned in every grade of tests/processors/scans.py, read by OCR with the gate off,
and their fields compared with the data they were made from.

    .venv/bin/python -m tests.processors.ocr_calibration [--json PATH]

prints one row per grade: OCR mean confidence and recognised-word rate (min / median),
and the share of fields read exactly. The gate (`processors.pdf_text`) is set where the
fields stop being trustworthy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from processors.bank_statement import best_reading, parse, statement_data
from processors.pdf_invoices.processor import extract_invoice, joined
from processors.pdf_text import PdfText, read_pdf_text
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    Booking,
    InvoiceSpec,
    StatementSpec,
    VatRow,
    english_invoice,
    english_statement,
    german_invoice,
    german_statement,
)
from tests.processors.conftest import CORPUS, MANIFEST
from tests.processors.scans import GRADES, ScanGrade, scan

INVOICES: tuple[InvoiceSpec, ...] = (
    SAMPLE_INVOICE,
    replace(
        SAMPLE_INVOICE,
        number="2025/00017",
        issue_date=date(2025, 1, 9),
        due_date=date(2025, 2, 12),
        seller="Northwind Trading Ltd.",
        seller_vat_id="DE811907980",
        iban="DE02120300000000202051",
        vat_rows=(VatRow(Decimal("20"), Decimal("1234567.80")),),
    ),
    replace(
        SAMPLE_INVOICE,
        number="INV-88412",
        issue_date=date(2023, 11, 30),
        due_date=date(2023, 12, 14),
        seller="Kaffeerösterei Süd GmbH",
        seller_vat_id="DE287654321",
        iban="DE02500105170137075030",
        vat_rows=(VatRow(Decimal("7"), Decimal("86.40")),),
    ),
)
STATEMENTS: tuple[StatementSpec, ...] = (
    SAMPLE_STATEMENT,
    replace(
        SAMPLE_STATEMENT,
        number="3",
        start=date(2023, 6, 1),
        end=date(2023, 6, 30),
        opening=Decimal("-683.68"),
        bookings=(
            *SAMPLE_STATEMENT.bookings[:2],
            Booking(
                date(2023, 6, 20),
                date(2023, 6, 20),
                Decimal("-61.02"),
                "Tankstelle Nord",
                ("Kartenzahlung", "Karte 1234"),
            ),
            Booking(
                date(2023, 6, 29),
                date(2023, 6, 30),
                Decimal("12345.67"),
                "Kunde Nord GmbH",
                ("Rechnung RE-2023-0815",),
            ),
        ),
    ),
)
INVOICE_LAYOUTS: dict[str, Callable[[InvoiceSpec], bytes]] = {
    "german": german_invoice,
    "english": english_invoice,
}
STATEMENT_LAYOUTS: dict[str, Callable[[StatementSpec], bytes]] = {
    "german": german_statement,
    "english": english_statement,
}


@dataclass(frozen=True)
class Reading:
    document: str
    grade: str
    confidence: float
    recognised: float
    fields_right: int
    fields: int
    seconds: float

    @property
    def exact(self) -> bool:
        return self.fields_right == self.fields


def invoice_fields(text: str, spec: InvoiceSpec) -> dict[str, bool]:
    """Field by field: read exactly as made?"""
    invoice, _ = extract_invoice(text)
    iban = invoice.payment_means[0].payee_iban if invoice.payment_means else None
    return {
        "number": invoice.number == spec.number,
        "issueDate": invoice.issue_date == spec.issue_date,
        "dueDate": invoice.due_date == spec.due_date,
        "net": invoice.totals.net == spec.net,
        "vat": invoice.totals.vat == spec.vat,
        "gross": invoice.totals.gross == spec.gross,
        "sellerVatId": invoice.seller.vat_id == spec.seller_vat_id,
        "iban": iban == spec.iban,
    }


def statement_fields(pdf_text: PdfText, spec: StatementSpec) -> dict[str, bool]:
    layout, plain = "\n".join(pdf_text.layout), "\n".join(pdf_text.plain)
    reading = best_reading([parse(layout), parse(plain)])
    data = statement_data(reading, layout + "\n" + plain)
    found = {(t["bookingDate"], t["amount"]) for t in data["transactions"]}
    fields = {
        f"booking{index}": (booking.booking.isoformat(), str(booking.amount)) in found
        for index, booking in enumerate(spec.bookings)
    }
    fields["count"] = len(data["transactions"]) == len(spec.bookings)
    fields["opening"] = data["statement"]["openingBalance"] == str(spec.opening)
    fields["closing"] = data["statement"]["closingBalance"] == str(spec.closing)
    fields["reconciled"] = data["reconciled"] is True
    fields["iban"] = data["statement"]["accountIban"] == spec.iban
    return fields


def corpus_invoice_fields(text: str, truth: dict[str, str | None]) -> dict[str, bool]:
    """The hand-read fields of a real invoice (tests/processors/corpus_truth.json)."""
    read = extract_invoice(text)[0].to_dict()
    got = {**read, **read["totals"]}
    return {field: got[field] == expected for field, expected in truth.items()}


def corpus_documents() -> list[tuple[str, bytes, Callable[[PdfText], dict[str, bool]]]]:
    """The corpus' plain invoices, one per distinct invoice (the Mustang sample comes in
    several PDF flavours); empty without the corpus."""
    if not MANIFEST.is_file():
        return []
    truth = json.loads((Path(__file__).parent / "corpus_truth.json").read_text("utf-8"))
    made: list[tuple[str, bytes, Callable[[PdfText], dict[str, bool]]]] = []
    seen: set[str] = set()
    for row in (json.loads(line) for line in MANIFEST.read_text().splitlines() if line):
        expected = truth["invoices"].get(Path(row["file"]).name)
        if row["expected"] != "plain_invoice" or expected is None or expected["number"] in seen:
            continue
        seen.add(expected["number"])
        made.append(
            (
                f"corpus:{Path(row['file']).stem}",
                (CORPUS / row["file"]).read_bytes(),
                lambda text, e=expected: corpus_invoice_fields(joined(text), e),  # type: ignore[misc]
            )
        )
    return made


def documents() -> list[tuple[str, bytes, Callable[[PdfText], dict[str, bool]]]]:
    made: list[tuple[str, bytes, Callable[[PdfText], dict[str, bool]]]] = []
    for number, spec in enumerate(INVOICES):
        for layout, render in INVOICE_LAYOUTS.items():
            made.append(
                (
                    f"invoice{number}-{layout}",
                    render(spec),
                    lambda text, spec=spec: invoice_fields(joined(text), spec),  # type: ignore[misc]
                )
            )
    for number, statement in enumerate(STATEMENTS):
        for layout, render_statement in STATEMENT_LAYOUTS.items():
            made.append(
                (
                    f"statement{number}-{layout}",
                    render_statement(statement),
                    lambda text, spec=statement: statement_fields(text, spec),  # type: ignore[misc]
                )
            )
    return made


def read_scan(
    name: str, pdf: bytes, score: Callable[[PdfText], dict[str, bool]], grade: ScanGrade, seed: int
) -> Reading:
    started = time.perf_counter()
    pdf_text = read_pdf_text(scan(pdf, grade, seed), "tesseract", 5, quality_gate=False)
    seconds = time.perf_counter() - started
    fields = score(pdf_text)
    ocr = pdf_text.ocr
    return Reading(
        name,
        grade.name,
        ocr.mean_confidence if ocr else 0.0,
        ocr.recognised_rate if ocr else 0.0,
        sum(fields.values()),
        len(fields),
        seconds,
    )


def calibrate(
    grades: tuple[ScanGrade, ...] = GRADES, corpus_grades: tuple[ScanGrade, ...] = GRADES[:6]
) -> list[Reading]:
    """Generated documents in every grade; the corpus' real invoices (other fonts and
    layouts) in the grades where the threshold falls."""
    readings = []
    for seed, (name, pdf, score) in enumerate(documents() + corpus_documents()):
        for grade in grades if not name.startswith("corpus:") else corpus_grades:
            readings.append(read_scan(name, pdf, score, grade, seed))
            print(readings[-1], file=sys.stderr)
    return readings


def table(readings: list[Reading]) -> list[dict[str, Any]]:
    rows = []
    for grade in dict.fromkeys(r.grade for r in readings):
        of_grade = [r for r in readings if r.grade == grade]
        rows.append(
            {
                "grade": grade,
                "documents": len(of_grade),
                "confidenceMin": round(min(r.confidence for r in of_grade), 1),
                "confidenceMedian": round(statistics.median(r.confidence for r in of_grade), 1),
                "recognisedMin": round(min(r.recognised for r in of_grade), 3),
                "recognisedMedian": round(statistics.median(r.recognised for r in of_grade), 3),
                "fieldsRight": round(
                    sum(r.fields_right for r in of_grade) / sum(r.fields for r in of_grade), 3
                ),
                "documentsExact": sum(r.exact for r in of_grade),
                "secondsMedian": round(statistics.median(r.seconds for r in of_grade), 2),
            }
        )
    return rows


CONFIDENCE_BANDS = ((0, 50), (50, 60), (60, 70), (70, 80), (80, 90), (90, 101))


def by_confidence(readings: list[Reading]) -> list[dict[str, Any]]:
    """Field accuracy per band of OCR mean confidence: where the gate goes."""
    rows = []
    for low, high in CONFIDENCE_BANDS:
        band = [r for r in readings if low <= r.confidence < high]
        if band:
            rows.append(
                {
                    "confidence": f"{low}-{min(high, 100)}",
                    "documents": len(band),
                    "fieldsRight": round(
                        sum(r.fields_right for r in band) / sum(r.fields for r in band), 3
                    ),
                    "documentsExact": sum(r.exact for r in band),
                    "recognisedMin": round(min(r.recognised for r in band), 3),
                }
            )
    return rows


def _print(rows: list[dict[str, Any]]) -> None:
    header = list(rows[0])
    print(" | ".join(header))
    for row in rows:
        print(" | ".join(str(row[key]) for key in header))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", help="write every reading and the table here")
    args = parser.parse_args(argv)
    readings = calibrate()
    rows, bands = table(readings), by_confidence(readings)
    _print(rows)
    print()
    _print(bands)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            readings_json = [r.__dict__ for r in readings]
            json.dump({"grades": rows, "bands": bands, "readings": readings_json}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

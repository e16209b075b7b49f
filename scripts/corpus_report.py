"""Agreement with the shared corpus labels, per manifest category, for the e-invoice,
SEPA and DATEV processors; then the PDF kinds: invoice or not, each invoice field, and
bank statement transactions found and reconciled, against the hand-read values in
tests/processors/corpus_truth.json (the manifest labels only the kind); last the PDF
invoice fields against known truth (scripts/pdf_invoice_accuracy.py: stripped hybrids,
generated layouts (tuning, held-out, held-out 2), boundary documents, and the OCR scan
path unless --no-scans).
Usage: .venv/bin/python scripts/corpus_report.py [--no-scans] [CORPUS_DIR]"""

from __future__ import annotations

import io
import json
import logging
import sys
import zipfile
from collections import Counter
from pathlib import Path

from corpus_report_hybrids import hybrid_report
from corpus_report_lookalikes import lookalike_report
from corpus_report_statements import statements_report
from pdf_invoice_accuracy import SECTIONS as PDF_ACCURACY_SECTIONS
from pdf_invoice_accuracy import report as pdf_accuracy_report

from processors.base import (
    CompanyProfile,
    DocumentType,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.datev import DatevProcessor
from processors.einvoice import EInvoiceProcessor, InvalidEInvoiceError, NotAnEInvoiceError
from processors.pipeline import read_document
from processors.sepa import SepaProcessor

KINDS = ("accept", "invalid_e_invoice", "accept_sepa", "pain008", "refuse_datev")
CONTEXT = ProcessingContext(DocumentType.AUTO, "corpus", CompanyProfile(name="Corpus Report"))
TRUTH = Path(__file__).resolve().parents[1] / "tests" / "processors" / "corpus_truth.json"
INVOICE_FIELDS = ("number", "issueDate", "dueDate", "currency", "net", "vat", "gross")
TARGETS = {"invoice or not": 0.95, "number": 0.90, "issueDate": 0.90, "gross": 0.90}


def outcome_of(expected: str, data: bytes) -> str:
    if expected == "refuse_datev" and data.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = [n for n in archive.namelist() if n.endswith(".xml")]
            members = [archive.read(n) for n in names]
        outcomes = {outcome_of(expected, m) for m in members if b"xml.datev.de" in m[:2048]}
        return outcomes.pop() if len(outcomes) == 1 else "mixed"
    processor = (
        SepaProcessor()
        if expected in ("accept_sepa", "pain008")
        else DatevProcessor()
        if expected == "refuse_datev"
        else EInvoiceProcessor()
    )
    try:
        result = processor.process(data, CONTEXT).result_type
    except InvalidEInvoiceError:
        return "invalid_e_invoice"
    except ProcessingError as error:
        return "refuse_datev" if "DATEV" in error.message else str(error.code)
    except NotAnEInvoiceError:
        return "no_e_invoice"
    return {"invoice": "accept", "payment_file": "payment_file"}.get(str(result), str(result))


def main(argv: list[str]) -> int:
    # pypdf logs repairs and layout-mode notes ("Rotated text discovered") as warnings.
    logging.basicConfig(level=logging.ERROR)
    flags = {arg for arg in argv[1:] if arg.startswith("--")}
    paths = [arg for arg in argv[1:] if not arg.startswith("--")]
    corpus = Path(paths[0]) if paths else Path(__file__).resolve().parents[2] / "shared" / "corpus"
    rows = [
        json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines() if line
    ]
    totals: Counter[tuple[str, str, bool]] = Counter()
    for row in rows:
        if row["expected"] not in KINDS:
            continue
        got = outcome_of(row["expected"], (corpus / row["file"]).read_bytes())
        want = "payment_file" if row["expected"] in ("accept_sepa", "pain008") else row["expected"]
        totals[(row["category"], row["expected"], got == want)] += 1
        if got != want:
            print(f"DISAGREE {row['expected']} -> {got}: {row['file']}")
    print(f"{'category':45} {'expected':18} {'agree':>6} {'total':>6}")
    for category, expected in sorted({(c, e) for c, e, _ in totals}):
        agree, total = (
            totals[(category, expected, True)],
            totals[(category, expected, True)] + totals[(category, expected, False)],
        )
        print(f"{category[:45]:45} {expected:18} {agree:6} {total:6}")
    for group in (("accept", "invalid_e_invoice"), ("accept_sepa", "pain008"), ("refuse_datev",)):
        agree = sum(v for (c, e, ok), v in totals.items() if e in group and ok)
        total = sum(v for (c, e, ok), v in totals.items() if e in group)
        print(f"{'/'.join(group)}: {agree}/{total} = {agree / max(total, 1):.2%}")
    pdf_report(corpus, rows)
    statements_report()
    lookalike_report()
    hybrid_report(corpus)
    print("\nPDF invoices read field by field (scripts/pdf_invoice_accuracy.py)")
    skipped = {"scans"} if "--no-scans" in flags else set()
    pdf_accuracy_report([k for k in [*PDF_ACCURACY_SECTIONS, "boundary"] if k not in skipped])
    return 0


# --- PDF kinds -------------------------------------------------------------------------


def _read(data: bytes, document_type: DocumentType) -> Outcome | str:
    context = ProcessingContext(document_type, "corpus", CONTEXT.company)
    try:
        return read_document(data, context)
    except ProcessingError as error:
        return str(error.code)


def _invoice_values(outcome: Outcome | str) -> dict[str, object]:
    if isinstance(outcome, str) or outcome.result_type is not ResultType.INVOICE:
        return {}
    invoice = outcome.data["invoice"]
    return {**{f: invoice.get(f) for f in INVOICE_FIELDS[:4]}, **invoice["totals"]}


def pdf_report(corpus: Path, rows: list[dict[str, str]]) -> None:
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    hits: Counter[str] = Counter()
    counted: Counter[str] = Counter()
    print("\nPDF invoices (sent as auto; fields against tests/processors/corpus_truth.json)")
    for row in rows:
        if row["expected"] not in ("plain_invoice", "plain_pdf"):
            continue
        outcome = _read((corpus / row["file"]).read_bytes(), DocumentType.AUTO)
        kind = outcome if isinstance(outcome, str) else str(outcome.result_type)
        want = "invoice" if row["expected"] == "plain_invoice" else "other_document"
        counted["invoice or not"] += 1
        hits["invoice or not"] += kind == want
        if kind != want:
            print(f"  MISCLASSIFIED {row['expected']} -> {kind}: {row['file']}")
        expected = truth["invoices"].get(Path(row["file"]).name)
        if row["expected"] != "plain_invoice" or expected is None:
            continue
        got = _invoice_values(outcome)
        for field in INVOICE_FIELDS:
            counted[field] += 1
            hits[field] += got.get(field) == expected[field]
            if got.get(field) != expected[field]:
                name = Path(row["file"]).name
                print(f"  {field}: read {got.get(field)!r}, printed {expected[field]!r}: {name}")
    for name in ("invoice or not", *INVOICE_FIELDS):
        share = hits[name] / max(counted[name], 1)
        target = TARGETS.get(name)
        verdict = "" if target is None else ("  target met" if share >= target else "  MISSED")
        target_text = f" (target {target:.0%})" if target else ""
        print(f"  {name:15} {hits[name]:3}/{counted[name]:<3} {share:7.1%}{target_text}{verdict}")
    statement_report(corpus, rows, truth["statements"])


def statement_report(
    corpus: Path, rows: list[dict[str, str]], truth: dict[str, dict[str, object]]
) -> None:
    print("\nBank statements (sent as bank_statement)")
    for row in rows:
        if row["expected"] != "bank_statement":
            continue
        outcome = _read((corpus / row["file"]).read_bytes(), DocumentType.BANK_STATEMENT)
        expected = truth.get(Path(row["file"]).name, {})
        if isinstance(outcome, str):
            print(f"  FAILED {outcome}: {row['file']}")
            continue
        statement = outcome.data["statement"]
        found = len(outcome.data["transactions"])
        balances = (statement["openingBalance"], statement["closingBalance"]) == (
            expected.get("openingBalance"),
            expected.get("closingBalance"),
        )
        complete = found == expected.get("transactions") and outcome.data["reconciled"] is True
        print(
            f"  transactions {found}/{expected.get('transactions')}, "
            f"balances {'as printed' if balances else 'DIFFER'}, "
            f"reconciled {outcome.data['reconciled']}{'' if complete else '  MISSED'}: "
            f"{Path(row['file']).name}"
        )


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

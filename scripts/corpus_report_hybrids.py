"""Hybrid invoices checked against themselves (issue 18, part 1) for `make corpus-report`:
the rates over the generated hybrids of `tests/processors/hybrids.py` (mismatches caught,
correct hybrids falsely flagged), then every real hybrid PDF of the corpus (pdf:cii:*,
pdf:zugferd1) with what was flagged, and the plain PDF invoices of
tests/processors/corpus_truth.json taken as correct hybrids (their hand-read values as
the XML): real layouts, so a flag there is a false one."""

from __future__ import annotations

import json
import sys
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the generators live in the tests package

from processors.einvoice.hybrid_check import Agreement, HybridCheck  # noqa: E402
from processors.einvoice.hybrid_pdf import check_pdf_hybrid  # noqa: E402
from processors.einvoice.pdf_attachment import find_embedded_invoice  # noqa: E402
from processors.einvoice.profiles import Syntax, syntax_of  # noqa: E402
from processors.einvoice.read_cii import ZUGFERD1, read_cii  # noqa: E402
from processors.invoice_model import Invoice, InvoiceType, Party, Totals  # noqa: E402
from processors.xmlsafe import parse_xml  # noqa: E402
from tests.processors.hybrids import Case, cases, rates  # noqa: E402

MISMATCH_SEEDS = range(1, 21)
CORRECT_ONLY_SEEDS = range(21, 81)
TRUTH = ROOT / "tests" / "processors" / "corpus_truth.json"


def hybrid_report(corpus: Path) -> None:
    print("\nHybrid invoices checked against themselves")
    generated_report()
    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines()]
    corpus_report(corpus, rows)
    truth_report(corpus, rows)


def generated_report() -> None:
    measured = list(cases(MISMATCH_SEEDS)) + list(cases(CORRECT_ONLY_SEEDS, mismatches=False))
    measured_rates = rates(measured)
    print(
        f"  generated: mismatches caught {measured_rates.caught}/{measured_rates.mismatches} "
        f"= {measured_rates.caught_rate:.1%} (target 95%); correct hybrids flagged "
        f"{measured_rates.false_flags}/{measured_rates.correct} "
        f"= {measured_rates.false_flag_rate:.1%} (target under 1%)"
    )
    wrong = [case for case in measured if case.field is not None]
    missed = Counter((c.layout, str(c.field), str(c.side)) for c in wrong if not c.caught)
    counted = Counter((str(c.field), str(c.side)) for c in wrong)
    caught = Counter((str(c.field), str(c.side)) for c in wrong if c.caught)
    for field, side in sorted(counted):
        share = f"{caught[(field, side)]:4}/{counted[(field, side)]}"
        print(f"    {field:15} changed in the {side:5} {share}")
    for (layout, field, side), count in sorted(missed.items()):
        print(f"    missed {count:3} x {field} changed in the {side} ({layout})")
    _print_false_flags([case for case in measured if case.field is None and case.flagged])


def _print_false_flags(flagged: list[Case]) -> None:
    for case in flagged:
        print(f"    FALSE FLAG {case.layout} seed {case.seed}: {_flags(case.check)}")


def corpus_report(corpus: Path, rows: list[dict[str, str]]) -> None:
    files = sorted({row["file"] for row in rows if _hybrid(row["category"])})
    flagged = 0
    print(f"  corpus hybrids (pdf:cii:*, pdf:zugferd1): {len(files)} files")
    for file in files:
        data = (corpus / file).read_bytes()
        check = check_pdf_hybrid(data, _embedded_invoice(data))
        if check is None:
            print(f"    no text: {file}")
            continue
        flagged += bool(check.mismatches)
        found = sum(f.agreement is not Agreement.NOT_FOUND for f in check.fields)
        state = f"FLAGGED {_flags(check)}" if check.mismatches else "no mismatch"
        print(f"    {state} ({found}/{len(check.fields)} fields found): {Path(file).name}")
    print(f"    flagged {flagged}/{len(files)}")


def truth_report(corpus: Path, rows: list[dict[str, str]]) -> None:
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))["invoices"]
    paths = {Path(row["file"]).name: row["file"] for row in rows}
    flagged = [
        name
        for name, values in truth.items()
        if (check := check_pdf_hybrid((corpus / paths[name]).read_bytes(), _truth(values)))
        and check.mismatches
    ]
    print(
        f"  plain PDF invoices as correct hybrids (hand-read number, date, gross): "
        f"flagged {len(flagged)}/{len(truth)} {' '.join(flagged)}"
    )


def _hybrid(category: str) -> bool:
    return category.startswith("pdf:cii") or category == "pdf:zugferd1"


def _embedded_invoice(data: bytes) -> Invoice:
    embedded = find_embedded_invoice(data)
    assert embedded is not None
    root = parse_xml(embedded.data).getroot()
    return read_cii(root, ZUGFERD1) if syntax_of(root) is Syntax.ZUGFERD1 else read_cii(root)


def _truth(values: dict[str, str | None]) -> Invoice:
    issued, gross = values["issueDate"], values["gross"]
    return Invoice(
        number=values["number"],
        invoice_type=InvoiceType.INVOICE,
        type_code=None,
        issue_date=date.fromisoformat(issued) if issued else None,
        currency=values["currency"],
        seller=Party(),
        buyer=Party(),
        totals=Totals(gross=Decimal(gross) if gross else None),
    )


def _flags(check: HybridCheck) -> str:
    return ", ".join(
        f"{f.field} xml {f.xml_value} text {f.text_value}"
        for f in check.fields
        if f.agreement is Agreement.DISAGREES
    )


if __name__ == "__main__":
    hybrid_report(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "corpus")

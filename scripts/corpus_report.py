"""Agreement with the shared corpus labels, per manifest category, for the e-invoice,
SEPA and DATEV processors. Usage: .venv/bin/python scripts/corpus_report.py [CORPUS_DIR]"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from collections import Counter
from pathlib import Path

from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.datev import DatevProcessor
from processors.einvoice import EInvoiceProcessor, InvalidEInvoiceError, NotAnEInvoiceError
from processors.sepa import SepaProcessor

KINDS = ("accept", "invalid_e_invoice", "accept_sepa", "pain008", "refuse_datev")
CONTEXT = ProcessingContext(DocumentType.AUTO, "corpus", CompanyProfile(name="Corpus Report"))


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
    corpus = (
        Path(argv[1])
        if len(argv) > 1
        else Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

"""How well plain PDF invoices are read, field by field (issue 36; docs/pdf_invoices.md,
"Measurement"): per field, exact / wrong / missing and wrong values left unflagged, over
the corpus's hybrids with their XML taken out, the generated tuning families, the
generated held-out families and, apart, the second held-out set ("held-out 2"; do not
tune on either, and never open the second), and with --scans the stripped hybrids
scanned at 200 dpi; then the boundary documents, invoices or not.

Usage: PYTHONPATH=$PWD .venv/bin/python -m scripts.pdf_invoice_accuracy
           [--scans] [--json OUT.json] [--verbose]
--verbose lists each wrong or missing value with its file, expected and read value;
--scans adds the scan path (slow: OCR of every page at 200 dpi)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the generators live in the tests package

from tests.processors.pdf_accuracy import (  # noqa: E402
    FIELDS,
    Classified,
    DocumentScore,
    Tally,
    Verdict,
    boundary_summary,
)
from tests.processors.pdf_accuracy_sets import (  # noqa: E402
    boundary,
    corpus_tally,
    held_out_2_tally,
    held_out_tally,
    scans_tally,
    tuning_tally,
)

SECTIONS: dict[str, tuple[str, Callable[[], Tally]]] = {
    "corpus": ("corpus hybrids, XML taken out (supplier_invoice)", corpus_tally),
    "tuning": ("generated layouts, tuning families", tuning_tally),
    "heldOut": ("generated layouts, HELD-OUT families (do not tune on them)", held_out_tally),
    "heldOut2": (
        "generated layouts, held-out 2: the SECOND HELD-OUT set (never open it)",
        held_out_2_tally,
    ),
    "scans": ("scan path: corpus hybrids stripped, rendered at 200 dpi, read by OCR", scans_tally),
}


def print_table(title: str, tally: Tally, verbose: bool = False) -> None:
    documents = len(tally.documents)
    print(
        f"\n{title}: {documents} documents, {tally.taken} taken for invoices, "
        f"{tally.values()} values, {tally.exact_share():.1%} exact "
        f"({tally.taken_only().exact_share():.1%} over the documents taken for invoices)"
    )
    print(f"  {'field':24} {'exact':>8} {'wrong':>6} {'missing':>8} {'unflagged':>10}")
    for each in FIELDS:
        if not tally.values(each.bt):
            continue
        print(
            f"  {each.bt + ' ' + each.label:24} {tally.exact_share(each.bt):8.1%} "
            f"{tally.count(Verdict.WRONG, each.bt):6} {tally.count(Verdict.MISSING, each.bt):8} "
            f"{tally.unflagged(each.bt):10}"
        )
    print(
        f"  {'all':24} {tally.exact_share():8.1%} {tally.count(Verdict.WRONG):6} "
        f"{tally.count(Verdict.MISSING):8} {tally.unflagged():10}"
    )
    if verbose:
        print_misses(tally.documents)


def print_misses(documents: Iterable[DocumentScore]) -> None:
    for document in documents:
        if not document.taken_for_invoice:
            print(f"    NOT AN INVOICE ({document.kind}): {document.name}")
            continue
        for score in document.fields:
            if score.verdict is Verdict.EXACT:
                continue
            flag = " (flagged)" if score.flagged else ""
            print(
                f"    {score.verdict.upper():7} {score.field.bt:6} expected {score.expected!r} "
                f"got {score.got!r}{flag}: {document.name}"
            )


def print_boundary(classified: list[Classified]) -> dict[str, object]:
    summary = boundary_summary(classified)
    print(
        f"\nboundary documents (auto): invoices taken for invoices "
        f"{summary['invoicesTaken']}/{summary['invoices']}, other documents taken for "
        f"invoices {summary['othersTaken']}/{summary['others']}"
    )
    for wrong in summary["wrong"]:
        print(f"    WRONG {wrong}")
    return summary


def report(sections: list[str], verbose: bool = False) -> dict[str, object]:
    """Print the sections (keys of SECTIONS, and "boundary") in order; their numbers."""
    numbers: dict[str, object] = {}
    for key, (title, tally_of) in SECTIONS.items():
        if key in sections:
            tally = tally_of()
            print_table(title, tally, verbose)
            numbers[key] = tally.summary()
    if "boundary" in sections:
        numbers["boundary"] = print_boundary(boundary())
    return numbers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", action="store_true", help="add the OCR scan path (slow)")
    parser.add_argument("--json", type=Path, help="write the numbers to this file")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument(
        "--only", choices=[*SECTIONS, "boundary"], action="append", help="only these sections"
    )
    args = parser.parse_args(argv)
    # pypdf logs repairs and layout-mode notes as warnings.
    logging.basicConfig(level=logging.ERROR)
    sections = args.only or [k for k in [*SECTIONS, "boundary"] if k != "scans"]
    if args.scans and "scans" not in sections:
        sections.append("scans")
    numbers = report(sections, args.verbose)
    if args.json:
        args.json.write_text(json.dumps(numbers, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

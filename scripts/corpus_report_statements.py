"""Bank statements from any bank, field by field: the generated layouts of
testkit/statements/ read through the pipeline as the worker reads them (sent as
`bank_statement`), development and held-out layouts apart, then scanned variants (OCR).
Targets: 99 % of transactions found, 98 % of fields exact, every statement that prints
its balances reconciled. docs/statements.md has the method and the numbers.
Usage: .venv/bin/python scripts/corpus_report_statements.py [--verbose]
       [--no-scans | --scans-only]"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.pipeline import read_document
from testkit.statements.layouts import DEVELOPMENT, HELD_OUT, LAYOUTS
from testkit.statements.measure import FIELDS, Score, Summary, score
from testkit.statements.model import Layout
from testkit.statements.render import render
from tests.processors.scans import GRADE, scan

CONTEXT = ProcessingContext(DocumentType.BANK_STATEMENT, "statement", CompanyProfile("Report"))
SCAN_GRADE = GRADE["g1-office"]
TARGETS = {"found": 0.99, "fields": 0.98}


def read(pdf: bytes) -> dict[str, Any] | str:
    try:
        return dict(read_document(pdf, CONTEXT).data)
    except ProcessingError as error:
        return str(error.code)


def measure(layout: Layout, scanned: bool) -> Score:
    rendered = render(layout)
    pdf = scan(rendered.pdf, SCAN_GRADE) if scanned else rendered.pdf
    name = f"{layout.name} (scan)" if scanned else layout.name
    return score(rendered, name, read(pdf))


def print_scores(title: str, scores: list[Score], verbose: bool) -> None:
    print(f"\n  {title}")
    for s in scores:
        balances = {None: "none printed", True: "as printed", False: "DIFFER"}[s.balances]
        reconciled = {None: "-", True: "yes", False: "NO"}[s.reconciled]
        state = f"FAILED {s.failure}" if s.failure else f"fields {s.fields_exact}/{s.fields_total}"
        print(
            f"    {s.name:30} transactions {s.found:2}/{s.printed:<2} (+{s.extra} extra)"
            f"  {state:18}  balances {balances:12}  reconciled {reconciled}"
        )
        for miss in s.misses if verbose else s.misses[:2]:
            print(f"        {miss}")
    summary = Summary(scores)
    met = summary.found >= TARGETS["found"]
    print(f"    transactions found {summary.found:7.1%} (target 99%){'' if met else '  MISSED'}")
    met = summary.fields >= TARGETS["fields"]
    print(f"    fields exact       {summary.fields:7.1%} (target 98%){'' if met else '  MISSED'}")
    print("      " + ", ".join(f"{name} {summary.field(name):.1%}" for name in FIELDS))
    balanced, printed = summary.balances
    reconciled, _ = summary.reconciled
    verdict = "" if reconciled == printed else "  MISSED"
    print(
        f"    balances as printed {balanced}/{printed}, reconciled {reconciled}/{printed}{verdict}"
    )


def statements_report(verbose: bool = False, scans: bool = True, text: bool = True) -> None:
    print("\nBank statements from any bank (generated layouts, sent as bank_statement)")
    if text:
        print_scores("development layouts", [measure(x, False) for x in DEVELOPMENT], verbose)
        print_scores("held-out layouts", [measure(x, False) for x in HELD_OUT], verbose)
    if scans:
        scanned = [measure(x, True) for x in LAYOUTS if x.scan]
        print_scores(f"scanned ({SCAN_GRADE.name}, OCR)", scanned, verbose)


if __name__ == "__main__":
    statements_report(
        "--verbose" in sys.argv, "--no-scans" not in sys.argv, "--scans-only" not in sys.argv
    )

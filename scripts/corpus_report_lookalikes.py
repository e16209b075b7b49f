"""Receipts, templates and lookalikes (issue 15, class 8) for `make corpus-report`: the
generated cases of `testkit/lookalike_docs.py`, each layout with several seeds,
as a text-layer PDF and scanned (rendered to an image and back to a PDF, office grade),
read through the registry as `auto`; then the same for the held-out layouts of
`lookalike_heldout.py`, written after the rules were set. A receipt must be an invoice
(not flagged as a template), a template an invoice flagged `checks.template`, a chart of
accounts or a price list an other document. Prints the errors per kind and variant."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the generators live in the tests package

from processors.base import (  # noqa: E402
    CompanyProfile,
    DocumentType,
    ProcessingContext,
    ProcessingError,
)
from processors.pipeline import read_document  # noqa: E402
from testkit.lookalike_docs import EXPECTED, KINDS, Layout  # noqa: E402
from testkit.lookalike_heldout import HELD_OUT  # noqa: E402
from tests.processors.scans import GRADE, scan  # noqa: E402

TEXT_SEEDS = (1, 2, 3)
SCAN_SEEDS = (1, 2)
SCAN_GRADE = GRADE["g1-office"]
CONTEXT = ProcessingContext(DocumentType.AUTO, "lookalike", CompanyProfile(name="Corpus Report"))


def verdict(pdf: bytes) -> str:
    """What the registry made of it: `invoice`, `invoice+template`, `other_document` or
    a failure code."""
    try:
        outcome = read_document(pdf, CONTEXT)
    except ProcessingError as error:
        return str(error.code)
    if str(outcome.result_type) != "invoice":
        return str(outcome.result_type)
    return "invoice+template" if outcome.data["checks"].get("template") else "invoice"


def wanted(kind: str) -> str:
    return "invoice+template" if kind == "template" else EXPECTED[kind]


def lookalike_report() -> None:
    print("\nReceipts, templates and lookalikes (generated, sent as auto)")
    for title, kinds in (("development layouts", KINDS), ("held-out layouts", HELD_OUT)):
        print(f"  {title}")
        _measure(kinds)


def _measure(kinds: dict[str, tuple[Layout, ...]]) -> None:
    errors: Counter[tuple[str, str]] = Counter()
    counted: Counter[tuple[str, str]] = Counter()
    for kind, layouts in kinds.items():
        for layout in layouts:
            for variant, seeds in (("text", TEXT_SEEDS), ("scan", SCAN_SEEDS)):
                for seed in seeds:
                    pdf = layout(seed)
                    got = verdict(scan(pdf, SCAN_GRADE) if variant == "scan" else pdf)
                    counted[(kind, variant)] += 1
                    if got != wanted(kind):
                        errors[(kind, variant)] += 1
                        print(f"    WRONG {kind} {layout.__name__} {variant} seed {seed}: {got}")
    print(f"    {'kind':18} {'wanted':17} {'text errors':>12} {'scan errors':>12}")
    for kind in kinds:
        cells = [f"{errors[(kind, v)]}/{counted[(kind, v)]}" for v in ("text", "scan")]
        print(f"    {kind:18} {wanted(kind):17} {cells[0]:>12} {cells[1]:>12}")
    total, wrong = sum(counted.values()), sum(errors.values())
    print(f"    error rate {wrong}/{total} = {wrong / max(total, 1):.1%}")


if __name__ == "__main__":
    lookalike_report()

"""The document sets the PDF invoice measurement runs over (issue 36; docs/pdf_invoices.md,
"Measurement"), each a function, shared by scripts/pdf_invoice_accuracy.py, `make
corpus-report` and tests/processors/test_pdf_invoice_accuracy.py:

- the corpus's hybrids with their XML taken out, read as `supplier_invoice`;
- the generated tuning families and, apart, the two held-out sets (the second written
  after the first had been seen by tuners; docs/pdf_invoices.md, "The sets");
- the boundary documents, sent as `auto`: invoices or not;
- the scan path: the stripped hybrids rendered at 200 dpi to image-only PDFs, read
  through OCR (slow: about a second or more per page).
"""

from __future__ import annotations

from pathlib import Path

from tests.processors.pdf_accuracy import Classified, Tally, classify_pdf, measure_pdf
from tests.processors.pdf_boundary_docs import BOUNDARY
from tests.processors.pdf_invoice_heldout import HELD_OUT
from tests.processors.pdf_invoice_heldout2 import HELD_OUT_2
from tests.processors.pdf_invoice_layouts import TUNING, Family, documents
from tests.processors.scans import ScanGrade, scan
from tests.processors.stripped_hybrids import CORPUS, corpus_stripped

SEEDS = range(1, 4)
"""Three documents per generated family and boundary kind."""
SCAN_200_DPI = ScanGrade("200 dpi", 200, 0.0, 0.0, 0, 0.0, 90)
"""Rendered, not degraded: what an office scanner's clean copy looks like to OCR."""


def corpus_tally(corpus: Path = CORPUS) -> Tally:
    return Tally([measure_pdf(s.name, s.pdf, s.expected) for s in corpus_stripped(corpus)])


def generated_tally(families: tuple[Family, ...], seeds: range = SEEDS) -> Tally:
    return Tally([measure_pdf(*document) for document in documents(families, seeds)])


def tuning_tally() -> Tally:
    return generated_tally(TUNING)


def held_out_tally() -> Tally:
    return generated_tally(HELD_OUT)


def held_out_2_tally() -> Tally:
    return generated_tally(HELD_OUT_2)


def boundary(seeds: range = SEEDS) -> list[Classified]:
    return [
        classify_pdf(f"{kind.name} seed {seed}", kind.document(seed), kind.invoice)
        for kind in BOUNDARY
        for seed in seeds
    ]


def scans_tally(corpus: Path = CORPUS) -> Tally:
    return Tally(
        [
            measure_pdf(s.name, scan(s.pdf, SCAN_200_DPI), s.expected)
            for s in corpus_stripped(corpus)
        ]
    )

"""A chosen value found again on the page, for its evidence (processors/pdf_layout/
locate.py), on the DIN 5008 letter of tests/processors/layout_docs.py."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest

from processors.pdf_layout.document import read_layout
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.locate import Located, locate_amount, locate_date, locate_text
from processors.results.evidence import Confidence, EvidenceField, PageSize
from tests.processors.layout_docs import MM, din_form_b


@pytest.fixture(scope="module")
def pages() -> tuple[PageLayout, ...]:
    return read_layout(din_form_b(), 3)


def _at(found: Located | None, x_mm: float, baseline_mm: float) -> bool:
    assert found is not None and found.page == 1
    box = found.box
    return abs(box.x0 - x_mm * MM) < 1 and box.y0 < baseline_mm * MM < box.y1


def test_a_value_as_printed(pages: tuple[PageLayout, ...]) -> None:
    assert _at(locate_text(pages, "RE-2024-17"), 160, 60)
    assert _at(locate_text(pages, "kunden ag  mitte"), 20, 60)
    iban = locate_text(pages, "DE02120300000000202051")  # printed in groups after "IBAN"
    iban_label = next(w.box for line in pages[0].lines for w in line.words if w.text == "IBAN")
    assert iban is not None and iban_label.x1 < iban.box.x0 < iban_label.x1 + 5
    assert iban.box.x1 - iban.box.x0 > 100  # six groups
    assert locate_text(pages, "RE-2024-18") is None


def test_an_amount_in_the_totals_before_the_same_amount_elsewhere(
    pages: tuple[PageLayout, ...],
) -> None:
    assert _at(locate_amount(pages, Decimal("1469.06")), 165, 172)
    assert _at(locate_amount(pages, Decimal("234.50")), 165, 133)  # in the item table only


def test_a_date_however_printed(pages: tuple[PageLayout, ...]) -> None:
    found = locate_date(pages, date(2024, 3, 5), re.compile("Datum:"))
    assert _at(found, 160, 65)


def test_the_evidence_of_a_located_value(pages: tuple[PageLayout, ...]) -> None:
    found = locate_amount(pages, Decimal("1469.06"))
    assert found is not None
    evidence = found.evidence(EvidenceField.GROSS_TOTAL, Confidence.LOW, "two totals score alike")
    assert evidence.page_size == PageSize(pages[0].width, pages[0].height)
    assert evidence.box == found.box.rounded() and evidence.reason == "two totals score alike"

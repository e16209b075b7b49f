"""Faded receipts (issue 40, class 4): thermal print fading to grey on grey paper, on a
scanner app's page or photographed on a table in uneven light. The page is turned
straight on its normalised ink, and read again normalised (ink depth below the local
paper, stretched) before the adaptive threshold; where a person reads the date and the
total, the service finds them (bench/faded_receipts.py measures every level)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PIL import Image, ImageChops, ImageDraw

from processors.base import DocumentType, FailureCode, ProcessingError
from processors.deskew import _sharpness, deskew
from processors.ocr_preprocess import faint, normalised, paper
from processors.ocr_vat_label import repair_vat_label
from processors.pipeline import read_document
from testkit.receipt_docs import bewirtung, faded_captures, kassenbon, photograph
from tests.processors.conftest import context
from tests.processors.test_ocr import needs_tesseract


def _bars(ink: int, paper: int) -> Image.Image:
    """Lines of 'print' (short dark bars) on paper."""
    image = Image.new("L", (600, 900), paper)
    draw = ImageDraw.Draw(image)
    for row in range(40, 860, 40):
        for left in range(40, 540, 30):
            draw.rectangle((left, row, left + 18, row + 14), fill=ink)
    return image


def test_faint_print_is_told_from_crisp_print() -> None:
    assert faint(_bars(185, 205))
    assert not faint(_bars(60, 235))


def test_normalised_print_is_black_on_white_in_uneven_light() -> None:
    """Ink 20 grey levels below the paper, the paper 60 levels darker at the bottom:
    after normalising, ink is dark and paper light at the top and at the bottom."""
    image = _bars(185, 205)
    ramp = Image.linear_gradient("L").resize(image.size).point(lambda v: v * 60 // 255)
    shaded = ImageChops.subtract(image, ramp)
    out = normalised(shaded)
    for y in (45, 805):
        ink, paper = out.getpixel((48, y)), out.getpixel((64, y))
        assert isinstance(ink, int) and isinstance(paper, int)
        assert ink < 80 and paper > 200, (y, ink, paper)


def test_a_faint_page_is_turned_straight() -> None:
    """Nothing on it is darker than the ink level deskew looked for: the noise chose the
    angle (a receipt turned 4 degrees the wrong way)."""
    tilted = _bars(185, 205).rotate(2.0, fillcolor=205)
    straight = deskew(tilted)
    ink = normalised(straight).reduce(8).point(lambda v: 255 if v < 160 else 0)
    before = normalised(tilted).reduce(8).point(lambda v: 255 if v < 160 else 0)
    assert _sharpness(ink, 0) > 1.5 * _sharpness(before, 0)


@needs_tesseract
@pytest.mark.parametrize("level", ["fade3", "fade4"])
def test_a_faded_receipt_from_a_scanner_app_is_an_invoice(level: str) -> None:
    receipt = bewirtung("bewirtung:1")
    scan_capture, _ = faded_captures(level)
    outcome = read_document(photograph(receipt, scan_capture, 1), context(DocumentType.AUTO))
    assert str(outcome.result_type) == "invoice", outcome.data
    invoice = outcome.data["invoice"]
    assert Decimal(invoice["totals"]["gross"]) == receipt.gross
    assert invoice["issueDate"] == receipt.issue_date.isoformat()
    assert outcome.data["checks"]["needsReview"] is True


@needs_tesseract
def test_print_faded_below_what_ocr_reads_stays_unreadable() -> None:
    """Ten grey levels of print under grain and JPEG: nothing of a total and a date is
    found, so the receipt is `unreadable_document`, not an invoice with guesses."""
    receipt = kassenbon("kassenbon:1")
    scan_capture, _ = faded_captures("fade5")
    with pytest.raises(ProcessingError) as raised:
        read_document(photograph(receipt, scan_capture, 1), context(DocumentType.SUPPLIER_INVOICE))
    assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT


def test_the_white_corners_around_grey_paper_are_no_paper() -> None:
    """A scanner app's page of grey paper, turned a little, has white corners brighter
    than the paper: they were cut out as 'the paper' (36 pixels wide) and read."""
    page = _bars(185, 205).rotate(0.8, fillcolor=240)
    assert paper(page) is None


@pytest.mark.parametrize(
    ("read", "meant"),
    [
        ("Must 19%                    8,08", "MwSt 19%                    8,08"),
        ("MuSt 7,0%     1,23", "MwSt 7,0%     1,23"),
        ("Must. 19 %", "MwSt. 19 %"),
        ("You must 19 % more", "You must 19 % more"),
        ("Must be paid by 19 March", "Must be paid by 19 March"),
    ],
)
def test_the_vat_label_misread_before_a_rate_is_put_right(read: str, meant: str) -> None:
    """Small faded print: Tesseract's German model reads `MwSt` as `Must`, and the
    receipt then shows no VAT."""
    assert repair_vat_label(read) == meant

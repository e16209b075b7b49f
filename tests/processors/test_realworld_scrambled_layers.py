"""Issue 40, class 3: text layers scrambled only in part (capitals sent to other letters:
`hontoauszug mostbank diro`) pass the language check; in the doubtful band the layer is
compared with OCR of a sample of its words (`processors/layer_check.py`), and a layer
that is not what the page shows is replaced by OCR, which reaches the statement and
invoice readers."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest

from processors.base import DocumentType
from processors.layer_check import misread_pages
from processors.text_quality import reads_as_language, reads_as_text
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    german_invoice,
    german_statement,
)
from testkit.statements.layouts import LAYOUT
from testkit.statements.measure import score
from testkit.statements.render import render
from tests.processors.conftest import context
from tests.processors.scrambled_calibration import corpus_pdfs, page_texts, sources
from tests.processors.scrambled_docs import GERMAN_LETTER, Scramble, letter, scramble
from tests.processors.test_ocr import (
    assert_invoice,
    assert_statement,
    needs_tesseract,
    read_invoice,
    read_statement,
)
from tests.processors.test_statement_layouts import PROCESSOR

CAPITALS = Scramble(0.5, "capitals", seed=1)


def _misread(pdf: bytes) -> list[int]:
    texts = page_texts(pdf)
    unusable = [n for n, t in enumerate(texts) if not reads_as_text(t, 0.5)]
    document = pdfium.PdfDocument(pdf)
    try:
        return misread_pages(document, texts, "tesseract", skip=unusable)
    finally:
        document.close()


@needs_tesseract
def test_scrambled_capitals_pass_the_language_check_but_not_the_ocr_check() -> None:
    pdf = scramble(letter(GERMAN_LETTER, embedded_font=True), CAPITALS)
    text = page_texts(pdf)[0]
    assert "Sehr geehrte" not in text
    assert reads_as_language(text)
    assert _misread(pdf) == [0]


@needs_tesseract
@pytest.mark.parametrize("name", ["de-letter-helvetica", "de-invoice", "de-statement"])
def test_a_right_layer_agrees_with_ocr(name: str) -> None:
    assert _misread(sources()[name]) == []


@needs_tesseract
def test_no_corpus_page_disagrees_with_ocr(corpus: Path) -> None:
    misread = [path for path in corpus_pdfs() if _misread_corpus(corpus / path)]
    assert misread == []


def _misread_corpus(path: Path) -> list[int]:
    try:
        return _misread(path.read_bytes())
    except pdfium.PdfiumError:
        return []  # PDFium cannot open it: the text comes from pypdf, nothing to check


@needs_tesseract
def test_a_statement_with_scrambled_capitals_is_read_by_ocr() -> None:
    pdf = scramble(german_statement(SAMPLE_STATEMENT), CAPITALS)
    data = read_statement(pdf)
    assert_statement(data, SAMPLE_STATEMENT)
    assert data["source"]["method"] == "ocr"


@needs_tesseract
def test_an_invoice_with_scrambled_capitals_is_read_by_ocr() -> None:
    data = read_invoice(scramble(german_invoice(SAMPLE_INVOICE), Scramble(1.0, "capitals", 3)))
    assert_invoice(data, SAMPLE_INVOICE)
    assert data["source"]["method"] == "ocr"


@needs_tesseract
def test_a_held_out_statement_layout_with_scrambled_capitals() -> None:
    """targobank (held out of the statement reader's development, and of this rule's)."""
    rendered = render(LAYOUT["targobank"])
    pdf = scramble(rendered.pdf, Scramble(0.5, "capitals", seed=7))
    data = PROCESSOR.process(pdf, context(DocumentType.BANK_STATEMENT)).data
    result = score(rendered, "targobank", data)
    assert (result.found, result.fields_exact) == (result.printed, result.fields_total)

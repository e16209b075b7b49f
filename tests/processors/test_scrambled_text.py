"""The scrambled-text gate: a text layer whose fonts map glyphs to the wrong letters is
recognised page by page and that page read by OCR (docs/pdf_text.md, "Scrambled text
layers"). The calibration over more documents is tests/processors/scrambled_calibration.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.pdf_text import read_pdf_text
from processors.text_quality import language_evidence, reads_as_language
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    english_invoice,
    german_statement,
)
from tests.processors.scrambled_calibration import corpus_pdfs, page_texts, sources
from tests.processors.scrambled_docs import (
    ENGLISH_LETTER,
    GERMAN_LETTER,
    NEIGHBOUR_LETTERS,
    Scramble,
    letter,
    scramble,
)
from tests.processors.test_ocr import (
    assert_invoice,
    assert_statement,
    needs_tesseract,
    read_invoice,
    read_statement,
)

SOURCES = sources()


@pytest.mark.parametrize("name", SOURCES)
def test_generated_documents_read_as_language(name: str) -> None:
    text = page_texts(SOURCES[name])[0]
    assert language_evidence(text).words >= 20
    assert reads_as_language(text)


@pytest.mark.parametrize("language", NEIGHBOUR_LETTERS)
def test_letters_in_neighbouring_languages_read_as_language(language: str) -> None:
    assert reads_as_language(page_texts(letter(NEIGHBOUR_LETTERS[language], False))[0])


@pytest.mark.parametrize("how", [Scramble(1.0), Scramble(1.0, "shift"), Scramble(0.5, seed=2)])
@pytest.mark.parametrize("name", SOURCES)
def test_scrambled_documents_do_not_read_as_language(name: str, how: Scramble) -> None:
    text = page_texts(scramble(SOURCES[name], how))[0]
    assert not reads_as_language(text), text[:200]


def test_a_few_words_are_not_judged() -> None:
    assert reads_as_language("hontoauszug mostbank Teäefon Tuchungstag")


def test_no_corpus_page_reads_as_scrambled(corpus: Path) -> None:
    flagged = [
        f"{path} p{number + 1}"
        for path in corpus_pdfs()
        for number, text in enumerate(page_texts((corpus / path).read_bytes()))
        if not reads_as_language(text)
    ]
    assert flagged == []


def test_only_the_scrambled_page_goes_to_ocr() -> None:
    """Page 2 is scrambled; page 1 keeps a text layer that reads as language."""
    two_pages = letter(GERMAN_LETTER, embedded_font=True, copies=2)
    pdf = scramble(two_pages, Scramble(1.0, seed=4), pages=[1])
    assert reads_as_language(page_texts(pdf)[0])
    assert not reads_as_language(page_texts(pdf)[1])


@needs_tesseract
def test_partly_scrambled_document_reads_page_two_by_ocr() -> None:
    two_pages = letter(ENGLISH_LETTER, embedded_font=True, copies=2)
    text = read_pdf_text(scramble(two_pages, Scramble(1.0, seed=4), pages=[1]), "tesseract", 5)
    assert text.method == "text+ocr"
    assert text.ocr is not None and text.ocr.pages == 1
    assert all("faithfully" in page for page in text.plain)


@needs_tesseract
def test_scrambled_statement_is_read_right_by_ocr() -> None:
    pdf = scramble(german_statement(SAMPLE_STATEMENT), Scramble(1.0, "shift", seed=3))
    assert "Kontoauszug" not in page_texts(pdf)[0]
    data = read_statement(pdf)
    assert_statement(data, SAMPLE_STATEMENT)
    assert data["source"]["method"] == "ocr"


@needs_tesseract
def test_half_scrambled_invoice_is_read_right_by_ocr() -> None:
    pdf = scramble(english_invoice(SAMPLE_INVOICE), Scramble(0.5, seed=5))
    data = read_invoice(pdf)
    assert_invoice(data, SAMPLE_INVOICE)
    assert data["source"]["method"] == "ocr"

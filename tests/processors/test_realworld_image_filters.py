"""Issue 40, class 1: scans in every image filter PDF allows are read by OCR (PDFium
decodes them, also JBIG2 without jbig2dec), and a page whose image cannot be decoded is
a page without text with the reason recorded, never `processing_failed`."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from processors.base import DocumentType, FailureCode, ProcessingError, ResultType
from processors.pdf import open_pdf
from processors.pdf_limits import check_decoded_size
from processors.pipeline import read_document
from testkit.generated_docs import SAMPLE_STATEMENT
from tests.processors.image_filters import (
    ENCODERS,
    EncodedImage,
    image_pdf,
    lzw_encode,
    run_length_encode,
    statement_page,
)
from tests.processors.test_ocr import assert_statement, context, needs_tesseract

UNDECODABLE_WHEN_BROKEN = ("DCT", "JPX", "JBIG2-MMR", "RunLength")
"""PDFium refuses these when their data is random bytes; the others decode random bytes
to random pixels (a page of noise OCR finds nothing on)."""


@pytest.fixture(scope="module")
def encoded() -> dict[str, EncodedImage]:
    page = statement_page()
    return {name: encode(page) for name, encode in ENCODERS.items()}


def broken(image: EncodedImage, name: str) -> bytes:
    data = random.Random(name).randbytes(len(image.data))
    return image_pdf(dataclasses.replace(image, data=data))


def outcome_or_failure(pdf: bytes, document_type: DocumentType) -> Any:
    try:
        return read_document(pdf, context(document_type))
    except ProcessingError as error:
        return error


@needs_tesseract
@pytest.mark.parametrize("name", ENCODERS)
def test_scan_in_every_image_filter_is_read(encoded: dict[str, EncodedImage], name: str) -> None:
    outcome = read_document(image_pdf(encoded[name]), context(DocumentType.BANK_STATEMENT))
    assert outcome.result_type is ResultType.BANK_STATEMENT
    data = dict(outcome.data)
    assert_statement(data, SAMPLE_STATEMENT)
    assert data["source"]["method"] == "ocr"
    assert "undecodablePages" not in data["source"]["ocr"]


def test_jbig2_passes_the_limits_without_jbig2dec(encoded: dict[str, EncodedImage]) -> None:
    """pypdf cannot decode JBIG2 without jbig2dec (DependencyError, which ended in
    processing_failed): the stream counts with its pixels instead."""
    check_decoded_size(open_pdf(image_pdf(encoded["JBIG2-MMR"])))


@needs_tesseract
@pytest.mark.parametrize("name", ENCODERS)
@pytest.mark.parametrize("document_type", [DocumentType.BANK_STATEMENT, DocumentType.AUTO])
def test_broken_image_is_a_page_without_text(
    encoded: dict[str, EncodedImage], name: str, document_type: DocumentType
) -> None:
    result = outcome_or_failure(broken(encoded[name], name), document_type)
    if document_type is DocumentType.AUTO:
        assert result.result_type is ResultType.OTHER_DOCUMENT
        return
    assert isinstance(result, ProcessingError)
    assert result.code is FailureCode.UNREADABLE_DOCUMENT
    if name in UNDECODABLE_WHEN_BROKEN:
        filter_name = encoded[name].filter.strip("/")
        assert result.details == {"undecodablePages": [{"page": 1, "filters": [filter_name]}]}
        assert f"Page 1 draws an image that cannot be decoded ({filter_name})" in result.message


@pytest.mark.parametrize("filter_name", ["/BrotliDecode", "/NoSuchDecode"])
def test_filter_no_reader_knows_is_recorded(filter_name: str) -> None:
    """A filter pypdf lacks a package for (brotli) or that does not exist: the limit check
    counts its raw size, PDFium cannot decode it, the page has no text."""
    image = EncodedImage(filter_name, b"\x00" * 64, 8, 8)
    error = outcome_or_failure(image_pdf(image), DocumentType.BANK_STATEMENT)
    assert isinstance(error, ProcessingError)
    assert error.code is FailureCode.UNREADABLE_DOCUMENT
    assert error.details == {"undecodablePages": [{"page": 1, "filters": [filter_name[1:]]}]}


def test_own_encoders_round_trip() -> None:
    from pypdf.filters import LZWDecode, RunLengthDecode

    rng = random.Random(5)
    for length in (0, 1, 2, 127, 128, 129, 300, 70_000):
        data = bytes(rng.choice(b"\x00\x00\x00\xffab") for _ in range(length))
        assert LZWDecode.decode(lzw_encode(data)) == data
        assert RunLengthDecode.decode(run_length_encode(data)) == data

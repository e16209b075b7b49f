"""The limits of processors/pdf_limits.py: what passes, what fails, and how."""

from __future__ import annotations

import io
import threading
import zlib

import pytest
from pypdf import PdfReader, get_configuration

from processors.base import FailureCode
from processors.pdf import open_pdf
from processors.pdf_limits import (
    MAX_STREAM_BYTES,
    PDF_CONFIGURATION,
    OverLimit,
    check_decoded_size,
)
from testkit.hostile import MiB, deflate_zeros, one_page, stream


def _image_page(width: int, height: int, data: bytes, filters: bytes) -> bytes:
    image = stream(
        data,
        b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray"
        b" /BitsPerComponent 8 %s" % (width, height, filters),
    )
    return one_page(
        stream(b"q 595 0 0 842 0 0 cm /Im1 Do Q"),
        b"/Resources << /XObject << /Im1 5 0 R >> >>",
        [image],
    )


def _reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data), strict=False)


def test_a_large_scan_image_passes() -> None:
    """50 megapixels (A4 at 720 dpi), 192 MiB as PDFium holds it: over the limit for
    other streams, under the one for images."""
    side_x, side_y = 4_096, 12_288
    pdf = _image_page(side_x, side_y, deflate_zeros(side_x * side_y), b"/Filter /FlateDecode")
    check_decoded_size(_reader(pdf))


def test_a_content_stream_over_the_stream_limit_fails() -> None:
    pdf = one_page(stream(deflate_zeros(MAX_STREAM_BYTES + 16 * MiB), b"/Filter /FlateDecode"))
    with pytest.raises(OverLimit) as raised:
        open_pdf(pdf)
    assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT
    assert raised.value.details["limit"]["maximum"] == MAX_STREAM_BYTES


def test_a_broken_deflate_stream_counts_what_inflates_and_passes() -> None:
    data = zlib.compress(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET " * 1000)
    pdf = one_page(stream(data[: len(data) // 2] + b"\xff" * 64, b"/Filter /FlateDecode"))
    assert len(open_pdf(pdf).pages) == 1


def test_an_unfiltered_stream_is_its_own_size() -> None:
    pdf = one_page(stream(b"BT /F1 12 Tf 72 720 Td (Plain) Tj ET"))
    assert len(open_pdf(pdf).pages) == 1


def test_open_pdf_applies_the_limits_in_any_thread() -> None:
    """pypdf keeps its configuration per context: a new thread starts from defaults."""
    seen = []

    def read() -> None:
        open_pdf(one_page(stream(b"BT ET")))
        seen.append(get_configuration())

    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    assert seen == [PDF_CONFIGURATION]

"""What reading one PDF may cost, checked before anything large is decoded.

A PDF of a few KiB can inflate to gigabytes (a deflated content stream, a huge image,
dozens of embedded files) or make a reader walk a huge page tree. These limits are
checked with pypdf before pypdf's text extraction or PDFium (text, rendering) decode
the same streams; PDFium has no output limits of its own (docs/processors.md, "Limits"):

- pypdf's `Configuration` caps every decoder's output at `MAX_STREAM_BYTES`, the page
  tree at `MAX_PAGES` pages and 100 levels, and runs no external decoder (jbig2dec): a
  stream pypdf cannot decode (JBIG2, a filter it lacks) counts with its raw size, an
  image also with its pixels, and PDFium, which decodes every image filter, renders it;
- `check_cross_references` decodes the cross-reference streams PDFium reads on opening;
- `check_pages` refuses more than `MAX_PAGES` pages, from the root's /Count before the
  tree is walked;
- `check_decoded_size` decodes every stream reachable from the first `CHECKED_PAGES`
  pages (contents, images, forms, fonts, annotations), one at a time, counting and
  dropping the output (a last deflate stage is counted in slices, never held): one
  stream over `MAX_STREAM_BYTES` (an image over `MAX_IMAGE_BYTES`), one page over
  `MAX_PAGE_BYTES` or all pages over `MAX_DECODED_BYTES` fail the document. An image
  counts with its pixels as PDFium holds them (four bytes a pixel), whatever its
  compression.

A document over a limit fails `unreadable_document` (`OverLimit`): its content cannot
be read within the limits, and sending the same bytes again cannot help.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator

from pypdf import Configuration, PageObject, PdfReader, apply_configuration, overwrite_configuration
from pypdf.errors import DependencyError, LimitReachedError, PyPdfError
from pypdf.filters import decode_stream_data
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    EncodedStreamObject,
    NameObject,
    NullObject,
    PdfObject,
    StreamObject,
    read_object,
)

from processors.base import FailureCode, ProcessingError

MiB = 1024 * 1024

MAX_PAGES = 5_000
"""Walking a page tree costs about 0.3 ms a page here; 5,000 pages are 1.5 s."""
CHECKED_PAGES = 50
"""The most pages any reader reads (bank statements: 50); PDFium decodes no others."""
MAX_PAGE_SIDE = 14_400
"""PDF's own limit for a page side in units of 1/72 in (200 in; ISO 32000-1, annex C).
A page beyond it is rendered at a scale that fits `pdf_text.MAX_RENDER_PIXELS`, but a
1 x 10^8 strip still made a 35-million-pixel-tall bitmap (600 MiB while read)."""
MAX_IMAGE_BYTES = 256 * MiB
"""One image, decoded and at `PIXEL_BYTES` a pixel: 64 megapixels (an A4 page scanned
at 800 dpi is 62; the corpus holds a 50 megapixel image)."""
MAX_STREAM_BYTES = 64 * MiB
"""Any other decoded stream (page contents, forms, fonts), and what any pypdf decoder
may put out: dense pages have a few MiB of content."""
MAX_PAGE_BYTES = 384 * MiB
"""All streams one page uses: PDFium holds them while it draws or reads the page (it
needed 214 MiB for the page with the 50 megapixel image)."""
MAX_DECODED_BYTES = 1024 * MiB
"""All streams of the checked pages, each once: bounds the time the check takes."""
MAX_CHECKED_OBJECTS = 20_000
"""Objects reachable from the checked pages (each counted once a page); pypdf parses
about 3,000 objects a second here."""
MAX_ATTACHMENT_BYTES = 128 * MiB
"""All embedded files decoded while looking for an e-invoice, per document."""
PIXEL_BYTES = 4
"""What a renderer holds per image pixel (PDFium keeps BGRA bitmaps)."""

_OUTPUT_LIMITS = (
    "maximum_declared_stream_length",
    "array_based_stream_maximum_output_length",
    "jbig2_maximum_output_length",
    "lzw_maximum_output_length",
    "run_length_maximum_output_length",
    "zlib_maximum_output_length",
    "brotli_maximum_output_length",
    "image_maximum_buffer_size",
)
PDF_CONFIGURATION = Configuration().with_overwrites(
    **dict.fromkeys(_OUTPUT_LIMITS, MAX_STREAM_BYTES),
    stream_decoding_work_maximum_length=2 * MAX_STREAM_BYTES,
    page_tree_maximum_entries=2 * MAX_PAGES,
    page_tree_maximum_page_entries=100 * MAX_PAGES,
    jbig2dec_binary=None,
    disable_legacy_handling=True,
)

# What pypdf raises on malformed input besides its own errors. These come from parsing
# untrusted bytes, not from our code, so they mean "this PDF cannot be read".
MALFORMED_PDF_ERRORS: tuple[type[BaseException], ...] = (
    PyPdfError,
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    AssertionError,
    RecursionError,
    OverflowError,
    zlib.error,
    struct.error,
)

_UNDECODABLE: tuple[type[BaseException], ...] = (
    *MALFORMED_PDF_ERRORS,
    NotImplementedError,
    DependencyError,  # a codec pypdf would need a program or package for (jbig2dec, brotli)
)

_FLATE = ("/FlateDecode", "/Fl")
_STARTXREF = re.compile(rb"startxref\s+(\d+)")
_OBJECT_HEADER = re.compile(rb"\s*\d+\s+\d+\s+obj\b")
_TAIL = 4096
_MAX_SECTIONS = 64
_SLICE = 1 * MiB

# Keys that lead away from the page being read: to its parent, to other pages (links,
# bookmarks, article beads), or to actions.
_SKIPPED_KEYS = frozenset({"/Parent", "/P", "/Dest", "/D", "/A", "/AA", "/B", "/Next", "/Prev"})


class OverLimit(ProcessingError):
    """The document is over one of the limits above."""

    def __init__(
        self, what: str, value: int | None = None, maximum: int | None = None, unit: str = "bytes"
    ) -> None:
        measured = ""
        if value is not None and maximum is not None:
            measured = f" ({_amount(value, unit)}; the service reads {_amount(maximum, unit)})"
        elif maximum is not None:
            measured = f" (over {_amount(maximum, unit)})"
        super().__init__(
            FailureCode.UNREADABLE_DOCUMENT,
            f"The PDF cannot be read within the service's limits: {what}{measured}.",
            {"limit": {"what": what, "value": value, "maximum": maximum, "unit": unit}},
        )


def apply_pdf_limits() -> None:
    """Make `PDF_CONFIGURATION` pypdf's configuration in the current thread (pypdf keeps it
    in a context variable, so each thread and task starts from pypdf's defaults)."""
    overwrite_configuration(PDF_CONFIGURATION)


def check_pages(reader: PdfReader) -> None:
    """Refuse a page tree that claims more than `MAX_PAGES` pages, before walking it.
    A /Count that lies is caught while walking (`page_tree_maximum_entries`)."""
    try:
        pages = reader.root_object["/Pages"].get_object()
    except MALFORMED_PDF_ERRORS:
        return
    claimed = pages.get("/Count", 0) if isinstance(pages, DictionaryObject) else 0
    if isinstance(claimed, int) and claimed > MAX_PAGES:
        raise OverLimit("it has more pages than the service reads", claimed, MAX_PAGES, "pages")


def check_decoded_size(reader: PdfReader) -> None:
    """Decode every stream the first `CHECKED_PAGES` pages use, one at a time."""
    sizes: dict[int, int] = {}
    visits = _Visits()
    for number in range(min(len(reader.pages), CHECKED_PAGES)):
        page = reader.pages[number]
        _check_page_size(page, number + 1)
        page_total = 0
        for stream in _streams_of(page, visits):
            if id(stream) not in sizes:
                sizes[id(stream)] = _decoded_size(stream)
                if sum(sizes.values()) > MAX_DECODED_BYTES:
                    raise OverLimit(
                        "its first pages decode to too much data",
                        sum(sizes.values()),
                        MAX_DECODED_BYTES,
                    )
            page_total += sizes[id(stream)]
            if page_total > MAX_PAGE_BYTES:
                raise OverLimit(
                    f"page {number + 1} decodes to too much data", page_total, MAX_PAGE_BYTES
                )


def check_cross_references(reader: PdfReader, data: bytes) -> None:
    """Decode the cross-reference streams the file's last `startxref` leads to (and their
    /Prev chain), within the stream limit: PDFium decodes them when it opens the file,
    also when pypdf rebuilt the table from the objects instead."""
    found = list(_STARTXREF.finditer(data, max(0, len(data) - _TAIL)))
    offset = int(found[-1].group(1)) if found else -1
    seen: set[int] = set()
    while 0 <= offset < len(data) and offset not in seen and len(seen) < _MAX_SECTIONS:
        seen.add(offset)
        section = _cross_reference_stream(reader, data, offset)
        if section is None:
            return
        _decoded_size(section)
        previous = section.get("/Prev")
        offset = previous if isinstance(previous, int) else -1


def _cross_reference_stream(reader: PdfReader, data: bytes, offset: int) -> StreamObject | None:
    header = _OBJECT_HEADER.match(data, offset)
    if header is None:
        return None  # a classic table: nothing to decode
    try:
        reader.stream.seek(header.end())
        section = read_object(reader.stream, reader)
    except MALFORMED_PDF_ERRORS:
        return None
    return section if isinstance(section, StreamObject) else None


def decoded_data(stream: StreamObject, what: str, max_bytes: int = MAX_STREAM_BYTES) -> bytes:
    """The decoded bytes of one stream without caching them in the reader; `OverLimit`
    when a decoder reaches `max_bytes`. Raises what pypdf raises on bad data."""
    if not _filters(stream):
        return stream._data  # pypdf's decoder takes a missing filter for an unknown one
    limits = PDF_CONFIGURATION
    if max_bytes != MAX_STREAM_BYTES:
        limits = limits.with_overwrites(**dict.fromkeys(_OUTPUT_LIMITS, max_bytes))
    try:
        with apply_configuration(limits):
            return decode_stream_data(stream)
    except LimitReachedError as error:
        raise OverLimit(what, maximum=max_bytes) from error


def _check_page_size(page: PageObject, number: int) -> None:
    try:
        side = max(max(abs(box.width), abs(box.height)) for box in (page.mediabox, page.cropbox))
    except MALFORMED_PDF_ERRORS:
        return  # PDFium falls back to a default size
    if side > MAX_PAGE_SIDE:
        raise OverLimit(
            f"page {number} is larger than PDF allows", round(side), MAX_PAGE_SIDE, "units"
        )


class _Visits:
    """Counts the objects walked, over all pages."""

    def __init__(self) -> None:
        self.count = 0

    def add(self) -> None:
        self.count += 1
        if self.count > MAX_CHECKED_OBJECTS:
            raise OverLimit(
                "its first pages use too many objects", self.count, MAX_CHECKED_OBJECTS, "objects"
            )


def _streams_of(page: PdfObject, visits: _Visits) -> Iterator[StreamObject]:
    """Every stream reachable from the page, each once. An object pypdf cannot resolve
    is skipped: PDFium will not find a stream there either."""
    seen: set[int] = set()
    pending: list[PdfObject] = [page]
    while pending:
        resolved = _resolve(pending.pop())
        if resolved is None or id(resolved) in seen:
            continue
        seen.add(id(resolved))
        visits.add()
        if isinstance(resolved, StreamObject):
            yield resolved
        if isinstance(resolved, DictionaryObject):
            pending.extend(value for key, value in resolved.items() if key not in _SKIPPED_KEYS)
        elif isinstance(resolved, ArrayObject):
            pending.extend(resolved)


def _resolve(node: PdfObject) -> PdfObject | None:
    try:
        resolved = node.get_object()
    except LimitReachedError as error:
        raise OverLimit(f"an object is too large to read ({error})") from error
    except MALFORMED_PDF_ERRORS:
        return None
    return resolved if isinstance(resolved, (DictionaryObject, ArrayObject)) else None


def _decoded_size(stream: StreamObject) -> int:
    image = stream.get("/Subtype") == "/Image"
    maximum = MAX_IMAGE_BYTES if image else MAX_STREAM_BYTES
    what = "an image has too many pixels" if image else "a stream decodes to too much data"
    pixels = _pixel_bytes(stream) if image else 0
    if pixels > maximum:
        raise OverLimit(what, pixels, maximum)
    try:
        decoded = _decoded_length(stream, maximum, what)
    except _UNDECODABLE:
        decoded = len(stream._data)  # what pypdf cannot decode costs its raw size
    return max(decoded, pixels)


def _decoded_length(stream: StreamObject, maximum: int, what: str) -> int:
    """A last deflate stage (nearly every stream has one) is counted in slices and never
    held whole; the stages before it, and other filters, are decoded by pypdf."""
    filters = _filters(stream)
    if not filters or filters[-1] not in _FLATE:
        return len(decoded_data(stream, what))
    data = stream._data
    if len(filters) > 1:
        data = decoded_data(_first_stages(stream, filters), what)
    return _inflated_length(data, maximum, what)


def _filters(stream: StreamObject) -> list[object]:
    filters = stream.get("/Filter")
    if filters is None or isinstance(filters, NullObject):
        return []
    return list(filters) if isinstance(filters, ArrayObject) else [filters]


def _first_stages(stream: StreamObject, filters: list[object]) -> StreamObject:
    """The stream with its last filter dropped."""
    partial = EncodedStreamObject()
    partial[NameObject("/Filter")] = ArrayObject(filters[:-1])
    parameters = stream.get("/DecodeParms")
    if isinstance(parameters, ArrayObject):
        partial[NameObject("/DecodeParms")] = ArrayObject(parameters[:-1])
    partial._data = stream._data
    return partial


def _inflated_length(data: bytes, maximum: int, what: str) -> int:
    """Bytes inflated; on broken data those before the break, as tolerant readers do."""
    inflater = zlib.decompressobj()
    length = 0
    try:
        while data and not inflater.eof:
            length += len(inflater.decompress(data, _SLICE))
            if length > maximum:
                raise OverLimit(what, length, maximum)
            data = inflater.unconsumed_tail
    except zlib.error:
        return length
    return length


def _pixel_bytes(image: StreamObject) -> int:
    width, height = image.get("/Width", 0), image.get("/Height", 0)
    if not isinstance(width, int) or not isinstance(height, int):
        return 0
    return max(width, 0) * max(height, 0) * PIXEL_BYTES


def _amount(value: int, unit: str) -> str:
    if unit == "bytes":
        return f"{value / MiB:,.0f} MiB"
    return f"{value:,} {unit}"

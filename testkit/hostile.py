"""A hostile corpus, generated: PDFs built to exhaust memory or time (XML: hostile_xml.py).

Every generator returns the bytes of one file, small on the wire and huge, cyclic or
treacherous once read. Nothing is downloaded; the PDFs are written object by object so
that each trick (a /Prev loop, a page tree that contains itself) is exactly what the
test says it is. Large products are cached per process.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence
from functools import cache

MiB = 1024 * 1024
GiB = 1024 * MiB
INVOICE_CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"

_CHUNK = 16 * MiB


# --- building blocks -------------------------------------------------------------


@cache
def deflate_zeros(size: int) -> bytes:
    """`size` zero bytes (a multiple of 16 MiB) as a zlib stream at about 1:1000. One
    16 MiB block is compressed and repeated: a full flush byte-aligns the block and
    empties the window, so copies of it chain into valid deflate data. The Adler-32 of
    zeros is 1 in its low half and the length (mod 65521) in its high half."""
    if size % _CHUNK:
        raise ValueError(f"{size} is not a multiple of {_CHUNK}")
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = raw.compress(bytes(_CHUNK)) + raw.flush(zlib.Z_FULL_FLUSH)
    final_empty_block = b"\x03\x00"
    adler = ((size % 65521) << 16) | 1
    return b"\x78\xda" + block * (size // _CHUNK) + final_empty_block + struct.pack(">I", adler)


def lzw_zeros(size: int) -> bytes:
    """At least `size` zero bytes, LZW-encoded (PDF flavour, early change) without an
    encoder pass over them: after a clear code a run of zeros is 0, 258, 259, ... 4095,
    each code one byte longer than the last (about 7 MiB a table, 1:1300)."""
    table = [0, *range(258, 4096)]
    per_table = sum(range(1, len(table) + 1))
    return _pack_lzw([256, *table] * (size // per_table + 1) + [257])


def _pack_lzw(codes: list[int]) -> bytes:
    """Codes high bit first; 9 bits after a clear code, one more bit whenever the next
    table entry would need it a code early (PDF's /EarlyChange 1)."""
    output = bytearray()
    buffer = bits = 0
    width, next_entry = 9, 258
    for code in codes:
        buffer = (buffer << width) | code
        bits += width
        while bits >= 8:
            bits -= 8
            output.append((buffer >> bits) & 0xFF)
        buffer &= (1 << bits) - 1
        if code == 256:
            width, next_entry = 9, 258
        elif code != 257:
            next_entry += 1
            if next_entry > (1 << width) - 1 and width < 12:
                width += 1
    if bits:
        output.append((buffer << (8 - bits)) & 0xFF)
    return bytes(output)


def run_length_zeros(size: int) -> bytes:
    """RunLengthDecode: each pair (257 - 128, 0) is 128 zeros, 1:64."""
    return b"\x81\x00" * (size // 128 + 1) + b"\x80"


def stream(data: bytes, entries: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n%s\nendstream" % (len(data), entries, data)


def pdf(objects: Sequence[bytes], trailer: bytes = b"/Root 1 0 R") -> bytes:
    """Objects numbered from 1, a classic xref table and a trailer."""
    body = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, content in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n%s\nendobj\n" % (number, content)
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    body += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    body += b"trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(body)


def one_page(content: bytes, page_entries: bytes = b"", extra: Sequence[bytes] = ()) -> bytes:
    """Catalog 1, Pages 2, Page 3, its content stream 4, then `extra` from 5 on."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R %s >>"
            % page_entries,
            content,
            *extra,
        ]
    )


# --- PDF stream bombs ------------------------------------------------------------


@cache
def flate_bomb() -> bytes:
    """About 1 MiB on the wire; the page's content stream inflates to 1 GiB."""
    return one_page(stream(deflate_zeros(GiB), b"/Filter /FlateDecode"))


@cache
def flate_flate_bomb() -> bytes:
    """Deflate twice: a few KiB on the wire, 1 MiB after one pass, 1 GiB after two."""
    return one_page(
        stream(zlib.compress(deflate_zeros(GiB), 9), b"/Filter [/FlateDecode /FlateDecode]")
    )


@cache
def lzw_bomb() -> bytes:
    return one_page(stream(lzw_zeros(512 * MiB), b"/Filter /LZWDecode"))


@cache
def run_length_bomb() -> bytes:
    """Flate, then RunLength: 8 MiB of run pairs, 512 MiB of zeros."""
    inner = zlib.compress(run_length_zeros(512 * MiB), 9)
    return one_page(stream(inner, b"/Filter [/FlateDecode /RunLengthDecode]"))


@cache
def ascii_hex_bomb() -> bytes:
    """ASCIIHex, then Flate: the hex text of a deflated GiB."""
    inner = deflate_zeros(GiB).hex().encode("ascii") + b">"
    return one_page(stream(inner, b"/Filter [/ASCIIHexDecode /FlateDecode]"))


@cache
def many_streams_bomb() -> bytes:
    """Forty content streams of 64 MiB each on one page: 2.5 GiB, each stream under
    any per-stream limit a generous reader might pick."""
    one = deflate_zeros(64 * MiB)
    contents = [stream(one, b"/Filter /FlateDecode") for _ in range(40)]
    refs = b" ".join(b"%d 0 R" % (4 + n) for n in range(len(contents)))
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents [%s] >>" % refs,
            *contents,
        ]
    )


# --- embedded files and images -----------------------------------------------------


def _embedded_files(count: int, size: int, names: Callable[[int], str]) -> bytes:
    """`count` attachments of `size` bytes each (an XML prolog, then spaces), listed both
    in the embedded-files name tree and as PDF/A-3 associated files."""
    body = b'<?xml version="1.0"?>\n<Invoice xmlns="%s">' % INVOICE_CII.encode()
    payload = zlib.compress(body + b" " * (size - len(body)), 9)
    first = 5  # after catalog, pages, page, content
    objects: list[bytes] = []
    entries = []
    for index in range(count):
        file_number = first + 2 * index
        objects.append(
            stream(payload, b"/Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode")
        )
        name = names(index).encode()
        objects.append(
            b"<< /Type /Filespec /F (%s) /UF (%s) /AFRelationship /Alternative"
            b" /EF << /F %d 0 R >> >>" % (name, name, file_number)
        )
        entries.append((name, file_number + 1))
    names_array = b" ".join(b"(%s) %d 0 R" % entry for entry in entries)
    associated = b" ".join(b"%d 0 R" % number for _, number in entries)
    catalog = (
        b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [%s] >> >>"
        b" /AF [%s] >>" % (names_array, associated)
    )
    return pdf(
        [
            catalog,
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
            stream(b"BT /F1 12 Tf 72 720 Td (Attachments) Tj ET"),
            *objects,
        ]
    )


@cache
def embedded_files_bomb() -> bytes:
    """Two dozen attachments of 49 MiB each: 1.2 GiB, each one under a 50 MiB limit."""
    return _embedded_files(24, 49 * MiB, lambda index: f"invoice-{index}.xml")


@cache
def embedded_known_name_bomb() -> bytes:
    """One attachment named factur-x.xml of 49 MiB of spaces after the root start tag."""
    return _embedded_files(1, 49 * MiB, lambda _index: "factur-x.xml")


def cyclic_name_tree() -> bytes:
    """An embedded-files name tree whose nodes are each other's kids, and an /AF array
    naming a file specification that points at itself."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 4 0 R >> /AF 6 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
            b"<< /Kids [5 0 R 4 0 R] >>",
            b"<< /Kids [4 0 R 5 0 R] >>",
            b"[7 0 R 7 0 R 6 0 R]",
            b"<< /Type /Filespec /F (factur-x.xml) /EF << /F 7 0 R >> >>",
        ]
    )


@cache
def image_bomb() -> bytes:
    """A 32,768 x 32,768 greyscale image (1 GiB of pixels, 1 MiB deflated) drawn on an
    otherwise empty page: what renders the page for OCR decodes it."""
    side = 32_768
    image = stream(
        deflate_zeros(side * side),
        b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray"
        b" /BitsPerComponent 8 /Filter /FlateDecode" % (side, side),
    )
    return one_page(
        stream(b"q 595 0 0 842 0 0 cm /Im1 Do Q"),
        b"/Resources << /XObject << /Im1 5 0 R >> >>",
        [image],
    )


@cache
def image_header_bomb() -> bytes:
    """An image that claims 1,000,000 x 1,000,000 pixels and carries almost none."""
    image = stream(
        zlib.compress(bytes(4096)),
        b"/Type /XObject /Subtype /Image /Width 1000000 /Height 1000000"
        b" /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode",
    )
    return one_page(
        stream(b"q 595 0 0 842 0 0 cm /Im1 Do Q"),
        b"/Resources << /XObject << /Im1 5 0 R >> >>",
        [image],
    )


# --- page trees and cross-reference tables -----------------------------------------


def giant_page() -> bytes:
    """A MediaBox far beyond the 14,400-unit maximum of PDF: 10^9 units square."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1000000000 1000000000]"
            b" /Contents 4 0 R >>",
            stream(b"0 0 m 1000000000 1000000000 l S"),
        ]
    )


def boxed_page(box: bytes) -> bytes:
    """One page with the MediaBox `box` and a line drawn on it."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Contents 4 0 R >>" % box,
            stream(b"0 0 m 100 100 l S"),
        ]
    )


def cyclic_page_tree() -> bytes:
    """Pages 2 holds Pages 3, which holds Pages 2 again (and a real page)."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 2 >>",
            b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 4 0 R] /Count 2 >>",
            b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 595 842] /Contents 5 0 R >>",
            stream(b"BT /F1 12 Tf 72 720 Td (Loop) Tj ET"),
        ]
    )


def self_kid_page_tree() -> bytes:
    """A Pages node that is its own only child, claiming a million pages."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 2 0 R 2 0 R] /Count 1000000 >>",
        ]
    )


def xref_loop() -> bytes:
    """Two cross-reference sections whose /Prev point at each other."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    ]
    body = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, content in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n%s\nendobj\n" % (number, content)
    table = b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    # The first section's /Prev names the second's offset and the other way round;
    # both offsets are fixed-width so they can be computed before writing.
    first = len(body)
    section = (
        b"xref\n0 4\n0000000000 65535 f \n"
        + table
        + b"trailer\n<< /Size 4 /Root 1 0 R /Prev %010d >>\n"
    )
    second = first + len(section % 0)
    body += section % second
    body += section % first
    body += b"startxref\n%d\n%%%%EOF\n" % first
    return bytes(body)


@cache
def xref_stream_bomb() -> bytes:
    """startxref names a cross-reference stream that inflates to 1 GiB; a classic
    trailer before it lets a repairing reader open the file without it."""
    head = pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
        ]
    )
    head = head[: head.rindex(b"startxref")]
    entries = b"/Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode"
    section = b"4 0 obj\n%s\nendobj\n" % stream(deflate_zeros(GiB), entries)
    return head + section + b"startxref\n%d\n%%%%EOF\n" % len(head)


@cache
def many_pages(count: int = 25_000) -> bytes:
    """`count` pages sharing one content stream, 100 to a Pages node."""
    per_node = 100
    nodes = (count + per_node - 1) // per_node
    first_node, first_page = 3, 3 + nodes
    content = first_page + count
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (first_node + n) for n in range(nodes)), count),
    ]
    for node in range(nodes):
        kids = range(first_page + node * per_node, min(first_page + (node + 1) * per_node, content))
        objects.append(
            b"<< /Type /Pages /Parent 2 0 R /Kids [%s] /Count %d >>"
            % (b" ".join(b"%d 0 R" % kid for kid in kids), len(kids))
        )
    for page in range(count):
        objects.append(
            b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R >>"
            % (first_node + page // per_node, content)
        )
    objects.append(stream(b"BT /F1 12 Tf 72 720 Td (Page) Tj ET"))
    return pdf(objects)


def deep_page_tree(depth: int = 5_000) -> bytes:
    """A chain of Pages nodes `depth` deep above one page."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        number = 2 + level
        objects.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % (number + 1))
    objects.append(b"<< /Type /Page /MediaBox [0 0 595 842] >>")
    return pdf(objects)

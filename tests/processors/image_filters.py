"""Scans whose page image is compressed with each image filter PDF allows, written as raw
PDF objects with encoders of our own or Pillow's (issue 40, class 1):

- DCTDecode: Pillow's JPEG; JPXDecode: Pillow's JPEG 2000 (OpenJPEG);
- CCITTFaxDecode: Group 4, the single strip of a TIFF Pillow writes with libtiff's
  `group4` compression;
- JBIG2Decode: an embedded JBIG2 stream (ISO 14492, no file header) of a page
  information segment and one immediate lossless generic region coded with MMR, whose
  data is the same Group 4 code (JBIG2 7.4.6.1: MMR coding is T.6 with 1 for black);
- FlateDecode with the PNG predictors (`/Predictor 10-15`, every row its own filter
  type) and with the TIFF predictor 2; RunLengthDecode; LZWDecode (`/EarlyChange 1`).

Every image is the same page: a generated German statement rendered in greyscale at
`DPI` (one bit a pixel for the fax codecs, whose data is black and white).
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageOps, TiffImagePlugin

from testkit.generated_docs import SAMPLE_STATEMENT, german_statement
from testkit.hostile import pdf, stream

DPI = 200
INK = 128


@dataclass(frozen=True)
class EncodedImage:
    filter: str
    """The /Filter value as written in the dictionary: `/DCTDecode`, `[/A /B]`."""
    data: bytes
    width: int
    height: int
    colour_space: str = "/DeviceGray"
    bits: int = 8
    parameters: str = ""
    """The /DecodeParms value, if any."""


def statement_page() -> Image.Image:
    """The printed part of the sample German statement's first page, in greyscale at
    `DPI` with a margin (the encoders in Python take seconds a megapixel)."""
    document = pdfium.PdfDocument(german_statement(SAMPLE_STATEMENT))
    try:
        page = document[0].render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
    finally:
        document.close()
    left, top, right, bottom = ImageOps.invert(page).getbbox() or (0, 0, *page.size)
    margin = DPI // 5
    return page.crop((left - margin, top - margin, right + margin, bottom + margin))


def image_pdf(image: EncodedImage, dpi: int = DPI) -> bytes:
    """One page as large as the image at `dpi`, drawing it and nothing else."""
    width, height = image.width * 72 / dpi, image.height * 72 / dpi
    content = f"q {width:.2f} 0 0 {height:.2f} 0 0 cm /Im0 Do Q".encode()
    parameters = f" /DecodeParms {image.parameters}" if image.parameters else ""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:.2f} {height:.2f}] "
            "/Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>"
        ).encode(),
        stream(content),
        stream(
            image.data,
            (
                f"/Type /XObject /Subtype /Image /Width {image.width} /Height {image.height} "
                f"/ColorSpace {image.colour_space} /BitsPerComponent {image.bits} "
                f"/Filter {image.filter}{parameters}"
            ).encode(),
        ),
    ]
    return pdf(objects)


def dct(page: Image.Image) -> EncodedImage:
    out = io.BytesIO()
    page.save(out, format="JPEG", quality=85)
    return EncodedImage("/DCTDecode", out.getvalue(), *page.size)


def jpx(page: Image.Image) -> EncodedImage:
    """JPEG 2000 codestream; the colour space comes from the codestream (PDF 7.4.9)."""
    out = io.BytesIO()
    page.save(out, format="JPEG2000", irreversible=False)
    return EncodedImage("/JPXDecode", out.getvalue(), *page.size)


def group4(page: Image.Image) -> bytes:
    """T.6 code of the page in black and white, 0 for white (TIFF's min-is-white): the
    single strip of a TIFF written by libtiff."""
    # Pillow writes bilevel TIFFs min-is-black: ink as 1 bits, which T.6 codes as black
    bilevel = page.point(lambda value: 255 if value < INK else 0).convert("1")
    out = io.BytesIO()
    TiffImagePlugin.WRITE_LIBTIFF = True
    try:
        bilevel.save(out, format="TIFF", compression="group4", strip_size=1 << 30)
    finally:
        TiffImagePlugin.WRITE_LIBTIFF = False
    tiff = Image.open(io.BytesIO(out.getvalue()))
    offsets, counts = tiff.tag_v2[273], tiff.tag_v2[279]
    if len(offsets) != 1:
        raise ValueError(f"expected one strip, libtiff wrote {len(offsets)}")
    return out.getvalue()[offsets[0] : offsets[0] + counts[0]]


def ccitt(page: Image.Image) -> EncodedImage:
    width, height = page.size
    parameters = f"<< /K -1 /Columns {width} /Rows {height} /BlackIs1 false >>"
    return EncodedImage(
        "/CCITTFaxDecode", group4(page), width, height, bits=1, parameters=parameters
    )


def jbig2(page: Image.Image) -> EncodedImage:
    """An embedded JBIG2 stream: page information (segment type 48) and an immediate
    lossless generic region (type 38) coded with MMR."""
    width, height = page.size
    page_information = struct.pack(">IIIIBH", width, height, 0, 0, 0, 0)
    region = struct.pack(">IIIIB", width, height, 0, 0, 0) + bytes([0x01]) + group4(page)
    data = _segment(0, 48, page_information) + _segment(1, 38, region)
    return EncodedImage("/JBIG2Decode", data, width, height, bits=1)


def _segment(number: int, kind: int, data: bytes) -> bytes:
    """A segment header (7.2) with no referred-to segments, page 1, then its data."""
    return struct.pack(">IBBBI", number, kind, 0, 1, len(data)) + data


def flate_png(page: Image.Image) -> EncodedImage:
    """Flate with the PNG predictors, each row its own filter type: Sub and Up in turn
    (computed with Pillow), every 40th and 41st row Average and Paeth (in Python)."""
    width, height = page.size
    rows = _png_rows(page)
    pixels = page.tobytes()
    previous = bytes(width)
    encoded = []
    for number in range(height):
        row = pixels[number * width : (number + 1) * width]
        kind = {3: 3, 4: 4}.get(number % 40, 1 + number % 2)
        filtered = rows[kind][number] if kind < 3 else _png_filtered(kind, row, previous)
        encoded.append(bytes([kind]) + filtered)
        previous = row
    parameters = f"<< /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns {width} >>"
    data = zlib.compress(b"".join(encoded))
    return EncodedImage("/FlateDecode", data, width, height, parameters=parameters)


def _png_rows(page: Image.Image) -> dict[int, list[bytes]]:
    """Every row filtered with Sub (1) and Up (2): the page less itself shifted right or
    down by one pixel, modulo 256."""
    width, height = page.size
    shifted = {1: (1, 0), 2: (0, 1)}
    rows = {}
    for kind, offset in shifted.items():
        neighbour = Image.new("L", page.size, 0)
        neighbour.paste(page, offset)
        pixels = ImageChops.subtract_modulo(page, neighbour).tobytes()
        rows[kind] = [pixels[n * width : (n + 1) * width] for n in range(height)]
    return rows


def _png_filtered(kind: int, row: bytes, above: bytes) -> bytes:
    out = bytearray(len(row))
    for index, value in enumerate(row):
        left = row[index - 1] if index else 0
        up = above[index]
        upper_left = above[index - 1] if index else 0
        predicted = (left + up) // 2 if kind == 3 else _paeth(left, up, upper_left)
        out[index] = (value - predicted) & 0xFF
    return bytes(out)


def _paeth(left: int, up: int, upper_left: int) -> int:
    estimate = left + up - upper_left
    distances = (abs(estimate - left), abs(estimate - up), abs(estimate - upper_left))
    return (left, up, upper_left)[distances.index(min(distances))]


def flate_tiff(page: Image.Image) -> EncodedImage:
    """Flate with TIFF predictor 2: each byte the difference to the one on its left."""
    width, height = page.size
    parameters = f"<< /Predictor 2 /Colors 1 /BitsPerComponent 8 /Columns {width} >>"
    data = zlib.compress(b"".join(_png_rows(page)[1]))
    return EncodedImage("/FlateDecode", data, width, height, parameters=parameters)


def run_length(page: Image.Image) -> EncodedImage:
    return EncodedImage("/RunLengthDecode", run_length_encode(page.tobytes()), *page.size)


def run_length_encode(data: bytes) -> bytes:
    """PDF 7.4.5: a length byte 0-127 copies the next 1-128 bytes, 129-255 repeats the
    next byte 257 - length times; 128 ends the data."""
    out, start = bytearray(), 0
    while start < len(data):
        end = start
        while end + 1 < len(data) and data[end + 1] == data[start] and end - start < 127:
            end += 1
        if end > start:
            out += bytes([257 - (end - start + 1), data[start]])
            start = end + 1
            continue
        end = start + 1
        while (
            end < len(data)
            and end - start < 128
            and (end + 1 >= len(data) or data[end] != data[end + 1])
        ):
            end += 1
        out += bytes([end - start - 1]) + data[start:end]
        start = end
    return bytes(out + b"\x80")


def lzw(page: Image.Image) -> EncodedImage:
    return EncodedImage("/LZWDecode", lzw_encode(page.tobytes()), *page.size)


def lzw_encode(data: bytes) -> bytes:
    """PDF 7.4.4 with EarlyChange 1: codes 9 to 12 bits wide, 256 clears the table, 257
    ends the data; the width grows one code before the decoder's table needs it. The
    table maps (code of a string, next byte) to the code of the longer string."""
    writer = _BitWriter()
    clear, end, first_free, width = 256, 257, 258, 9
    table: dict[int, int] = {}
    writer.write(clear, width)
    if not data:
        writer.write(end, width)
        return writer.bytes()
    code = data[0]
    for value in data[1:]:
        key = code << 8 | value
        if key in table:
            code = table[key]
            continue
        writer.write(code, width)
        table[key] = first_free + len(table)
        code = value
        next_code = first_free + len(table)
        if next_code == 4096:
            writer.write(clear, width)
            table.clear()
            width = 9
        elif next_code >= 1 << width:
            width += 1
    writer.write(code, width)
    writer.write(end, width)
    return writer.bytes()


class _BitWriter:
    def __init__(self) -> None:
        self.out = bytearray()
        self.value = 0
        self.bits = 0

    def write(self, code: int, width: int) -> None:
        self.value = (self.value << width) | code
        self.bits += width
        while self.bits >= 8:
            self.bits -= 8
            self.out.append(self.value >> self.bits & 0xFF)
        self.value &= (1 << self.bits) - 1

    def bytes(self) -> bytes:
        tail = bytes([self.value << (8 - self.bits) & 0xFF]) if self.bits else b""
        return bytes(self.out) + tail


ENCODERS: dict[str, Callable[[Image.Image], EncodedImage]] = {
    "DCT": dct,
    "JPX": jpx,
    "CCITTFax-G4": ccitt,
    "JBIG2-MMR": jbig2,
    "Flate-PNG-predictors": flate_png,
    "Flate-TIFF-predictor": flate_tiff,
    "RunLength": run_length,
    "LZW": lzw,
}

"""Scanned variants of generated PDFs, in grades from clean to illegible, and PDFs whose
text layer is obfuscated. Used by the OCR tests, the calibration script
(scripts/ocr_calibration.py) and the benchmark (bench/pdf_bench.py).

A scan: every page rendered (pypdfium2, greyscale) at the grade's resolution, rotated
by its skew, blurred, given noise (uniform grey noise plus dark speckles), and saved
back into a PDF as a JPEG image at the grade's quality (Pillow). The noise comes from a
seeded generator, so a grade always gives the same bytes.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pypdfium2 as pdfium
from fpdf import FPDF
from PIL import Image, ImageChops, ImageFilter
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, NameObject


@dataclass(frozen=True)
class ScanGrade:
    name: str
    dpi: int
    skew_degrees: float
    blur_radius: float
    noise: int
    """Amplitude of uniform grey noise (0-255)."""
    speckles: float
    """Share of pixels turned dark."""
    jpeg_quality: int


GRADES: tuple[ScanGrade, ...] = (
    ScanGrade("g0-clean", 300, 0.0, 0.0, 0, 0.0, 90),
    ScanGrade("g1-office", 200, 0.5, 0.3, 20, 0.0005, 80),
    ScanGrade("g2-fair", 150, 1.0, 0.5, 40, 0.001, 70),
    ScanGrade("g3-worn", 120, 1.5, 0.6, 60, 0.002, 60),
    ScanGrade("g4-tired", 110, 1.75, 0.65, 70, 0.003, 55),
    ScanGrade("g5-weary", 105, 1.9, 0.68, 75, 0.0035, 52),
    ScanGrade("g6-grainy", 100, 2.0, 0.7, 80, 0.004, 50),
    ScanGrade("g7-spotty", 95, 2.1, 0.72, 85, 0.005, 48),
    ScanGrade("g8-poor", 90, 2.25, 0.75, 90, 0.006, 45),
    ScanGrade("g9-bad", 80, 2.5, 0.8, 100, 0.008, 40),
    ScanGrade("g10-awful", 70, 3.0, 1.0, 120, 0.015, 35),
    ScanGrade("g11-illegible", 45, 4.0, 1.6, 160, 0.06, 25),
)
GRADE = {grade.name: grade for grade in GRADES}


def scan(pdf: bytes, grade: ScanGrade, seed: int = 7) -> bytes:
    """The PDF as a scan of the given grade: image-only pages, no text layer."""
    pages = scanned_pages(pdf, grade, seed)
    out = io.BytesIO()
    pages[0].save(
        out,
        format="PDF",
        resolution=grade.dpi,
        save_all=True,
        append_images=pages[1:],
        quality=grade.jpeg_quality,
    )
    return out.getvalue()


def _render(page: pdfium.PdfPage, dpi: int) -> Image.Image:
    return page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")


def _degrade(image: Image.Image, grade: ScanGrade, rng: random.Random) -> Image.Image:
    if grade.skew_degrees:
        image = image.rotate(grade.skew_degrees, resample=Image.Resampling.BICUBIC, fillcolor=255)
    if grade.blur_radius:
        image = image.filter(ImageFilter.GaussianBlur(grade.blur_radius))
    if grade.noise:
        noise = Image.frombytes("L", image.size, rng.randbytes(image.width * image.height))
        scaled = noise.point(lambda value: value * grade.noise // 255)
        image = ImageChops.add(image, scaled, scale=1.0, offset=-grade.noise // 2)
    if grade.speckles:
        pixels = image.width * image.height
        dark = bytearray(b"\xff" * pixels)
        for _ in range(round(grade.speckles * pixels)):
            dark[rng.randrange(pixels)] = 0
        image = ImageChops.darker(image, Image.frombytes("L", image.size, bytes(dark)))
    return image


def scanned_pages(pdf: bytes, grade: ScanGrade, seed: int = 7) -> list[Image.Image]:
    rng = random.Random(seed)
    document = pdfium.PdfDocument(pdf)
    try:
        return [_degrade(_render(page, grade.dpi), grade, rng) for page in document]
    finally:
        document.close()


def stamped_scan(pdf: bytes, grade: ScanGrade, stamp: str) -> bytes:
    """A scan with a line of real text drawn over each page (a page number or an
    archive stamp added by software): a text layer that holds almost nothing."""
    out = FPDF(format="A4")
    out.set_auto_page_break(auto=False)
    out.set_font("helvetica", size=8)
    for image in scanned_pages(pdf, grade):
        out.add_page()
        out.image(image, x=0, y=0, w=210, h=297)
        out.set_xy(150, 285)
        out.cell(50, 5, stamp)
    return bytes(out.output())


def image_only_pdf(images: list[Image.Image], dpi: int = 150) -> bytes:
    out = io.BytesIO()
    images[0].save(out, format="PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out.getvalue()


def obfuscate_text_layer(pdf: bytes, seed: int = 3) -> bytes:
    """The same PDF, rendering as before, whose text layer reads as symbols: every font
    gets a ToUnicode map sending each character code to a scrambled symbol, as PDFs
    from some producers (or made to resist copying) do."""
    rng = random.Random(seed)
    pool = [chr(code) for code in range(0x2190, 0x2190 + 224)]  # arrows and math symbols
    rng.shuffle(pool)
    entries = "\n".join(
        f"<{code:02X}> <{ord(pool[code - 0x20]):04X}>" for code in range(0x21, 0x100)
    )
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Scrambled def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        "1 beginbfchar <20> <0020> endbfchar\n"
        f"223 beginbfchar\n{entries}\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    stream = DecodedStreamObject()
    stream.set_data(cmap.encode("ascii"))
    reference = writer._add_object(stream)
    for page in writer.pages:
        fonts = page["/Resources"]["/Font"]
        for name in fonts:
            fonts[name].get_object()[NameObject("/ToUnicode")] = reference
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

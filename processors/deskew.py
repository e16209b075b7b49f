"""A scanned page turned straight before Tesseract reads it (processors/pdf_text.py)."""

from __future__ import annotations

import itertools

from PIL import Image

from processors.ocr_preprocess import normalised

MAX_SKEW_DEGREES = 5
INK_LEVEL = 160
MIN_INK = 0.003


def deskew(image: Image.Image) -> Image.Image:
    """The page turned straight. A scan a degree or two askew makes Tesseract drop whole
    columns and tilts the rows; the angle is the one whose horizontal ink profile is
    sharpest (text lines then fall into rows), searched on a copy an eighth of the size
    (about 70 ms a page): whole degrees first, then fifths around the best."""
    small = _ink(image)
    coarse = max(range(-MAX_SKEW_DEGREES, MAX_SKEW_DEGREES + 1), key=lambda a: _sharpness(small, a))
    fine = [coarse + step / 5 for step in range(-4, 5)]
    angle = max(fine, key=lambda a: _sharpness(small, a))
    if abs(angle) < 0.3:
        return image
    return image.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=255)


def _ink(image: Image.Image) -> Image.Image:
    """Ink white on black at an eighth of the size: darker than `INK_LEVEL`; on a faint
    page (faded thermal print: less than `MIN_INK` of it that dark) what lies well below
    its local paper (`ocr_preprocess.normalised`), else the noise picks the angle."""
    small = image.reduce(8).point(lambda value: 255 if value < INK_LEVEL else 0)
    if sum(small.histogram()[255:]) >= MIN_INK * small.width * small.height:
        return small
    return normalised(image).reduce(8).point(lambda value: 255 if value < INK_LEVEL else 0)


def _sharpness(ink: Image.Image, angle: float) -> int:
    """How sharply the ink falls into rows: the squared differences between the ink of
    neighbouring pixel rows."""
    turned = ink.rotate(angle, resample=Image.Resampling.BILINEAR) if angle else ink
    rows = turned.resize((1, turned.height), Image.Resampling.BOX).tobytes()
    return sum((a - b) ** 2 for a, b in itertools.pairwise(rows))

"""A text layer that passed the language check, compared with what the page shows.

A font that maps only some glyphs to the wrong letters (capitals sent to other letters,
a third of the alphabet permuted: `hontoauszugW mostbank diro` for "Kontoauszug Postbank
Giro") leaves text whose letter pairs still look like German, so
`text_quality.reads_as_language` passes it. Such a layer has fewer dictionary words and
rarer letter pairs than a normal page (a higher `scramble_score`), but so do real pages
full of names, codes and foreign words; the score alone cannot tell them apart
(docs/pdf_text.md, "Scrambled text layers").

So a page whose score is in the doubtful band is checked against its image: the words
of its text layer outside the dictionary (where a scramble shows) are cut out of the
page rendered at `CHECK_DPI`, stacked into one small image and read by Tesseract in one
call (about 0.3 s a page). When OCR reads the words clearly and fewer than
`MIN_AGREEMENT` of them as the layer spells them, the layer does not say what the page
shows and the page is read by OCR instead. When OCR reads too little (text hidden,
white, clipped) or is not installed, the layer is kept: the check can only take a
layer away on evidence.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image

from processors.common_words import COMMON_WORDS
from processors.ocr import LANGUAGES, OcrFailed, OcrUnavailable, recognise
from processors.pdf_layout.words import page_chars
from processors.text_layer import Word, words
from processors.text_quality import MIN_LANGUAGE_WORDS, fold, language_evidence

logger = logging.getLogger(__name__)

DOUBTFUL_SCORE = 3.0
"""From this `scramble_score` up (below `text_quality.SCRAMBLED_SCORE`, where a layer is
refused outright) a page is checked. Normal generated pages score 2.2-3.0, corpus pages
up to 3.8; a layer with a tenth to a half of its letters scrambled 2.5-4.3."""
MAX_KNOWN_SHARE = 0.6
"""...or when fewer than this share of its words are dictionary words (the generated
letters and documents have 0.51-0.77; a quarter of the letters scrambled 0.31-0.40)."""
SAMPLE_WORDS = 16
MIN_SAMPLE_WORDS = 6
"""Fewer words outside the dictionary than this: nothing to compare."""
MIN_AGREEMENT = 0.75
MIN_READ_SHARE = 0.5
"""OCR must return at least this share of the sampled words for a verdict."""
MAX_CHECKED_PAGES = 8
CHECK_DPI = 300
_GAP = 12
_LETTERS = re.compile(r"[^\W\d_]{4,}")


def misread_pages(
    document: pdfium.PdfDocument, texts: Sequence[str], command: str, skip: Sequence[int]
) -> list[int]:
    """The pages (0-based, not in `skip`) whose text layer reads as language but not as
    what the page shows."""
    found: list[int] = []
    checked = 0
    for number, text in enumerate(texts):
        if number in skip or not doubtful(text) or checked >= MAX_CHECKED_PAGES:
            continue
        checked += 1
        if _disagrees(document[number], command):
            logger.info("page %d: the text layer is not what the page shows", number + 1)
            found.append(number)
    return found


def doubtful(text: str) -> bool:
    evidence = language_evidence(text)
    if evidence.words < MIN_LANGUAGE_WORDS:
        return False
    return evidence.scramble_score >= DOUBTFUL_SCORE or evidence.known_share < MAX_KNOWN_SHARE


def _disagrees(page: pdfium.PdfPage, command: str) -> bool:
    sample = _sample(page)
    if len(sample) < MIN_SAMPLE_WORDS:
        return False
    scale = CHECK_DPI / 72
    image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
    stacked = _stack([_crop(image, word, scale, page.get_height()) for word in sample])
    buffer = io.BytesIO()
    stacked.save(buffer, format="PPM")
    try:
        reading = recognise(buffer.getvalue(), command, dpi=CHECK_DPI, languages=LANGUAGES)
    except (OcrUnavailable, OcrFailed) as error:
        logger.info("the text layer could not be checked against OCR: %s", error)
        return False
    read = {fold(run) for word in reading.words for run in _LETTERS.findall(word.text)}
    if len(read) < MIN_READ_SHARE * len(sample):
        return False
    agreeing = sum(fold(_letters(word.text)) in read for word in sample)
    return agreeing < MIN_AGREEMENT * len(sample)


def _sample(page: pdfium.PdfPage) -> list[Word]:
    """Up to `SAMPLE_WORDS` words of four letters or more outside the dictionary, spread
    over the page (every n-th)."""
    text_page = page.get_textpage()
    try:
        text = page_chars(text_page)
        upright = words(text_page, text)
    finally:
        text_page.close()
    unknown = [
        word
        for word in upright
        if _LETTERS.fullmatch(_letters(word.text)) and fold(_letters(word.text)) not in COMMON_WORDS
    ]
    step = max(1, len(unknown) // SAMPLE_WORDS)
    return unknown[::step][:SAMPLE_WORDS]


def _letters(text: str) -> str:
    return text.strip(".,;:!?()[]\"'«»„“”-/")


def _crop(image: Image.Image, word: Word, scale: float, height: float) -> Image.Image:
    margin = word.height * 0.6
    top = (height - word.middle - margin) * scale
    bottom = (height - word.middle + margin) * scale
    box = (int((word.left - 2) * scale), int(top), int((word.right + 2) * scale), int(bottom))
    return image.crop(box)


def _stack(crops: list[Image.Image]) -> Image.Image:
    """One word a line, white between."""
    width = max(crop.width for crop in crops) + 2 * _GAP
    height = sum(crop.height + _GAP for crop in crops) + _GAP
    stacked = Image.new("L", (width, height), 255)
    y = _GAP
    for crop in crops:
        stacked.paste(crop, (_GAP, y))
        y += crop.height + _GAP
    return stacked

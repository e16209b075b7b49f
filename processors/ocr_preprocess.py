"""Second chances for a scanned page OCR read badly (below the quality gate, or almost
no words): receipts photographed or scanned by a phone are small, low in contrast and
lie on a darker table, which Tesseract's global threshold turns into one dark blob.

The page (already turned straight by `processors/deskew.py`) is read again
- cut to the paper when it lies on a darker ground (a photo on a table: the longest run of
  columns, then rows, that are mostly brighter than Otsu's threshold between ground and
  paper), its contrast stretched (`ImageOps.autocontrast`);
- faded print (`faint`: less than `FAINT` grey levels between the darkest pixels and the
  paper) normalised (`normalised`: each pixel's depth below its local paper, stretched
  so ink is black and paper white, as CLAHE does) and read, and thresholded from there;
- with an adaptive threshold: a pixel is ink when it is darker than the mean of its
  neighbourhood (`WINDOW` pixels) by `OFFSET` grey levels, so faded print on light paper
  and the table around it are told apart locally;
- upscaled by `UPSCALE` when its words are small (median height below `SMALL_TEXT`
  pixels at the render's 300 dpi: about 6 pt), and thresholded after upscaling;
and the best reading is kept (`score`: recognised words less the others). docs/ocr.md
has what each step adds on the generated receipts.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable

from PIL import Image, ImageChops, ImageFilter, ImageOps, ImageStat

from processors.ocr import PAGE_SEGMENTATION, OcrPage, OcrWord
from processors.ocr_gate import legible as passes

SINGLE_COLUMN = 4
"""Tesseract's page segmentation mode for a single column of text of variable sizes."""
NARROW = 1.8
WINDOW = 31
OFFSET = 12
UPSCALE = 2
SMALL_TEXT = 28
MAX_EXTRA_PIXELS = 3_000_000
"""The threshold and upscaling steps only for a receipt-sized image (a paper cut, a
narrow page): on a noisy A4 page at 300 dpi (8.7 million pixels) Tesseract took over its
120 s limit."""


def score(page: OcrPage) -> int:
    """Recognised words less the others: noise read as words counts against a reading,
    and so does text a filter wiped out."""
    recognised = sum(word.recognised for word in page.words)
    return recognised - (len(page.words) - recognised)


BACKGROUND = 9
"""Pixels (at a quarter of the size) around each one whose bright end is its paper..."""
PAPER_RANK = 60
"""...the 60th of 81, so ink (a minority) and a white border beside the paper (a few)
do not count: the brightest pixel took the scanner's white corners for the paper."""
PAPER_CEILING = 90
"""The paper is never brighter than this percentile of the page: white corners beside
grey paper made black bars along its edges, and Tesseract dropped the text next to them."""
INK_SHARE = 2.0
"""Per cent of the pixels, the deepest below their paper, that become black..."""
PAPER_SHARE = 50.0
"""...and per cent, the least deep, that become white (paper, grain and shadows)."""
GRAIN = 5
"""Pixels of the median filter before normalising: 3 left specks that Tesseract read as
punctuation inside dates (`15.02,.2025`); 7 read no better and lost the faintest print."""
FAINT = 80
"""Grey levels between print and paper below which print is faded."""


def normalised(image: Image.Image) -> Image.Image:
    """Faded print on uneven paper (thermal fading, a phone's shadow) made black on
    white: the paper's brightness around each pixel (the brightest near it, at a quarter
    of the size, smoothed) less the pixel is its ink depth; the depths are stretched so
    that the deepest `INK_SHARE` per cent are black and the paper white. A local contrast
    normalisation, as CLAHE does, after a median filter (`GRAIN`) takes out the grain
    and the specks a JPEG leaves, which would be read as commas and dots."""
    clean = image.filter(ImageFilter.MedianFilter(GRAIN))
    small = clean.reduce(_REDUCE).filter(ImageFilter.RankFilter(BACKGROUND, PAPER_RANK))
    background = small.filter(ImageFilter.BoxBlur(2)).resize(image.size, Image.Resampling.BILINEAR)
    ceiling = _percentile(clean, PAPER_CEILING)
    background = background.point(lambda value: min(value, ceiling))
    depth = ImageChops.subtract(background, clean)
    return ImageOps.invert(ImageOps.autocontrast(depth, cutoff=(PAPER_SHARE, INK_SHARE)))


def _percentile(image: Image.Image, share: float) -> int:
    """The grey level below which `share` per cent of the pixels lie."""
    histogram = image.histogram()
    wanted, seen = share * sum(histogram) / 100, 0
    for level, count in enumerate(histogram):
        seen += count
        if seen >= wanted:
            return level
    return 255


def faint(image: Image.Image) -> bool:
    """Faded print: the darkest `INK_SHARE` per cent of the pixels lie less than
    `FAINT` grey levels below the paper (the median)."""
    histogram = image.histogram()
    total = sum(histogram)
    seen, ink, paper_level = 0, None, 255
    for level, count in enumerate(histogram):
        seen += count
        if ink is None and seen * 100 >= INK_SHARE * total:
            ink = level
        if seen * 2 >= total:
            paper_level = level
            break
    return ink is not None and paper_level - ink < FAINT


def adaptive_threshold(image: Image.Image) -> Image.Image:
    """Ink where a pixel is `OFFSET` darker than its neighbourhood's mean, else white."""
    mean = image.filter(ImageFilter.BoxBlur(WINDOW // 2))
    darker = ImageChops.subtract(mean, image)  # mean - pixel, clipped at 0
    return darker.point(lambda value: 0 if value > OFFSET else 255)


PAPER_COLUMNS = 0.2
"""A column is paper when this share of its pixels is brighter than the threshold."""
PAPER_ROWS = 0.5
MAX_PAPER_SHARE = 0.85
"""A paper region this large is the whole page: nothing to cut."""
MIN_PAPER = 0.2
"""...and one narrower or shorter than this share of the page is no paper."""
GROUND_CONTRAST = 30
_REDUCE = 4


def paper(image: Image.Image) -> tuple[Image.Image, tuple[int, int]] | None:
    """The bright paper on a darker ground, contrast stretched, and where it starts on
    the page; None when the page is all paper."""
    small = image.reduce(_REDUCE)
    threshold = _otsu(small.histogram())
    mask = small.point(lambda value: 255 if value > threshold else 0)
    columns = _longest_run(
        _means(mask.resize((mask.width, 1), Image.Resampling.BOX)), PAPER_COLUMNS
    )
    if columns is None:
        return None
    band = mask.crop((columns[0], 0, columns[1], mask.height))
    rows = _longest_run(_means(band.resize((1, band.height), Image.Resampling.BOX)), PAPER_ROWS)
    if rows is None:
        return None
    box = (columns[0], rows[0], columns[1], rows[1])
    if (box[2] - box[0]) * (box[3] - box[1]) > MAX_PAPER_SHARE * small.width * small.height:
        return None
    if box[2] - box[0] < MIN_PAPER * small.width or box[3] - box[1] < MIN_PAPER * small.height:
        return None  # a sliver: the white corners a scanner app leaves around grey paper
    if not _darker_around(small, box):
        return None
    left, top, right, bottom = (value * _REDUCE for value in box)
    cut = image.crop((left, top, right, bottom))
    return ImageOps.autocontrast(cut, cutoff=1), (left, top)


def _darker_around(small: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """The ground around the paper is darker by `GROUND_CONTRAST` grey levels: on a
    faded receipt's own page, grey paper all over, Otsu split the grain and the white
    corners, and the cut dropped the receipt's bottom (its total)."""
    inside = ImageStat.Stat(small.crop(box))
    whole = ImageStat.Stat(small)
    area = (box[2] - box[0]) * (box[3] - box[1])
    rest = small.width * small.height - area
    if rest <= 0:
        return False
    around = (whole.sum[0] - inside.sum[0]) / rest
    return around <= inside.mean[0] - GROUND_CONTRAST


def _otsu(histogram: list[int]) -> int:
    total = sum(histogram)
    weighted = sum(level * count for level, count in enumerate(histogram))
    below = below_weighted = 0
    best, threshold = -1.0, 128
    for level, count in enumerate(histogram):
        below += count
        below_weighted += level * count
        if below in (0, total):
            continue
        mean_below = below_weighted / below
        mean_above = (weighted - below_weighted) / (total - below)
        spread = below * (total - below) * (mean_below - mean_above) ** 2
        if spread > best:
            best, threshold = spread, level
    return threshold


def _means(strip: Image.Image) -> list[float]:
    return [value / 255 for value in strip.tobytes()]


def _longest_run(shares: list[float], minimum: float) -> tuple[int, int] | None:
    """(start, end) of the longest run of shares at least `minimum`."""
    best: tuple[int, int] | None = None
    start = None
    for index, share in enumerate([*shares, -1.0]):
        if share >= minimum and start is None:
            start = index
        elif share < minimum and start is not None:
            if best is None or index - start > best[1] - best[0]:
                best = (start, index)
            start = None
    return best


def small_text(page: OcrPage) -> bool:
    heights = [word.height for word in page.words if word.recognised]
    return not heights or statistics.median(heights) < SMALL_TEXT


def improve(
    image: Image.Image,
    first: OcrPage,
    read: Callable[[Image.Image, int], OcrPage],
    min_words: int,
    wanted: Callable[[str], bool] | None = None,
) -> OcrPage:
    """The best of `first` and the readings of the preprocessed page (a reading with
    fewer than `min_words` words never replaces one with text; one whose text shows
    what the reader needs, `wanted`, beats those that do not: a faded receipt read with
    more words but its date's digits misread); word boxes in the page image's pixels."""
    found = [page for _, page in readings(image, first, read)]
    worded = [page for page in found if len(page.words) >= min_words] or [first]
    if wanted is not None:
        worded = [page for page in worded if wanted(f"{page.plain}\n{page.layout}")] or worded
    return max(worded, key=score)


def another_look(image: Image.Image, page: OcrPage, min_words: int) -> bool:
    """Read again: too few words, below the quality gate, a narrow till roll, or paper
    photographed on a darker ground (where the first reading may miss a column)."""
    if len(page.words) < min_words or not passes(page.words) or narrow(image):
        return True
    return paper(image) is not None


def narrow(image: Image.Image) -> bool:
    """Receipt-shaped: Tesseract's automatic layout drops the right-hand column of
    amounts on a narrow till roll, which reads whole as a single column."""
    return image.height >= NARROW * image.width


def readings(
    image: Image.Image, first: OcrPage, read: Callable[[Image.Image, int], OcrPage]
) -> list[tuple[str, OcrPage]]:
    """Each step's reading, named (for the measurement in docs/ocr.md). Words read on the
    paper cut keep the cut's pixels: the page's layout text is what the readers use."""
    found = [("first", first)]
    cut = paper(image)
    target, offset = cut if cut is not None else (image, (0, 0))
    mode = SINGLE_COLUMN if narrow(target) else PAGE_SEGMENTATION
    if cut is not None or mode != PAGE_SEGMENTATION:
        step = "paper" if cut is not None else "column"
        found.append((step, _placed(read(target, mode), 1, offset)))
    if target.width * target.height > MAX_EXTRA_PIXELS:
        return found  # a whole noisy page thresholded or upscaled takes Tesseract minutes
    if faint(image.crop((*offset, offset[0] + target.width, offset[1] + target.height))):
        target = normalised(target)
        found.append(("normalised", _placed(read(target, mode), 1, offset)))
    found.append(("threshold", _placed(read(adaptive_threshold(target), mode), 1, offset)))
    if small_text(max(found, key=lambda pair: score(pair[1]))[1]):
        size = (target.width * UPSCALE, target.height * UPSCALE)
        upscaled = target.resize(size, Image.Resampling.LANCZOS)
        found.append(("upscaled", _placed(read(upscaled, mode), UPSCALE, offset)))
    return found


def _placed(page: OcrPage, factor: int, offset: tuple[int, int]) -> OcrPage:
    """Word boxes back in the page image's pixels."""
    if factor == 1 and offset == (0, 0):
        return page
    words = tuple(_moved(word, factor, offset) for word in page.words)
    return dataclasses.replace(page, words=words)


def _moved(word: OcrWord, factor: int, offset: tuple[int, int]) -> OcrWord:
    return dataclasses.replace(
        word,
        left=word.left // factor + offset[0],
        top=word.top // factor + offset[1],
        width=max(1, word.width // factor),
        height=max(1, word.height // factor),
    )

"""OCR of page images with Tesseract: image bytes in, words with confidences out.

Tesseract (Debian packages `tesseract-ocr`, `tesseract-ocr-deu`, `tesseract-ocr-eng`, and
for French, Dutch, Spanish and Italian pages `-fra`, `-nld`, `-spa`, `-ita`) runs as a
subprocess, first with the German and English models, with TSV output, which gives every
word with its box and confidence (0-100). The command is a parameter: the caller passes
it from its settings (`ProcessingContext.ocr_command`); this module reads no settings.

From the words two texts are built, the same two the text-layer readers use:
- **plain**: Tesseract's reading order (block by block, line by line);
- **layout**: one line per visual row, words placed at their column (x / character
  width), so table rows (statement bookings, totals next to their labels) stay on one
  line. Small skew is undone first: the median slope of Tesseract's lines is taken out
  of every word's y before rows are formed.

Tesseract runs with one thread (`OMP_THREAD_LIMIT=1`): the worker already reads one
document per core, and a second thread gained nothing on a page (measured, docs/ocr.md).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
from dataclasses import dataclass
from functools import lru_cache

from processors.common_words import ENGLISH_WORDS, GERMAN_WORDS, NEIGHBOUR_WORDS
from processors.ocr_bic import repair_bics
from processors.ocr_iban import repair_ibans
from processors.ocr_legal_forms import repair_legal_forms
from processors.ocr_vat_label import repair_vat_label
from processors.text_quality import fold, token_verdict

DEFAULT_COMMAND = "tesseract"
LANGUAGES = ("deu", "eng")
SINGLE_MODELS = ("deu", "fra", "nld", "spa", "ita")
"""A page found in one of these languages is read again with its model alone
(`reading_languages`); English pages keep both first models."""
MIN_LANGUAGE_WORDS = 5
_LANGUAGE_WORDS = {"deu": GERMAN_WORDS, "eng": ENGLISH_WORDS, **NEIGHBOUR_WORDS}
PAGE_TIMEOUT_SECONDS = 120.0
"""A safety net for use outside the worker; the worker's per-document limit comes first."""
PAGE_SEGMENTATION = 3
"""Tesseract's page segmentation mode."""
SPARSE_TEXT = 11
"""The mode for what is left of a page after its first reading (processors/ocr_marks.py):
as much text as can be found, in no particular order."""
RECOGNISED_CONFIDENCE = 50.0
"""A word counts as recognised when it is word-like and Tesseract is at least this sure."""

_PACKAGES = "tesseract-ocr, tesseract-ocr-deu, tesseract-ocr-eng"
_DASH_BEFORE_DIGIT = re.compile("^[\u2013\u2014\u2212~]+(?=\\d)")


class OcrUnavailable(Exception):
    """The OCR engine (or one of its language models) is not installed."""


class OcrFailed(Exception):
    """Tesseract ran and failed on this image."""


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    confidence: float
    left: int
    top: int
    width: int
    height: int
    line: tuple[int, int, int]
    """Tesseract's (block, paragraph, line) numbers: words of one line share them."""

    @property
    def recognised(self) -> bool:
        return self.confidence >= RECOGNISED_CONFIDENCE and token_verdict(self.text) is not False


@dataclass(frozen=True, slots=True)
class OcrPage:
    words: tuple[OcrWord, ...]
    plain: str
    layout: str


def ocr_available(command: str = DEFAULT_COMMAND) -> str | None:
    """None when Tesseract and its German and English models are installed, else a
    sentence saying what is missing (for a start-up warning or a failure message)."""
    return _probe(command)


def installed_models(command: str = DEFAULT_COMMAND) -> frozenset[str]:
    """The language models Tesseract lists (none when it does not run)."""
    listed = _list_models(command)
    return (
        frozenset(listed.stdout.split())
        if isinstance(listed, subprocess.CompletedProcess)
        else frozenset()
    )


@lru_cache(maxsize=8)
def _list_models(command: str) -> subprocess.CompletedProcess[str] | str:
    if shutil.which(command) is None:
        return f"OCR engine not installed: {command!r} was not found (Debian: {_PACKAGES})."
    try:
        return subprocess.run(
            [command, "--list-langs"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"OCR engine {command!r} does not run: {error}."


@lru_cache(maxsize=8)
def _probe(command: str) -> str | None:
    listed = _list_models(command)
    if isinstance(listed, str):
        return listed
    installed = set(listed.stdout.split())
    missing = [language for language in LANGUAGES if language not in installed]
    if listed.returncode != 0 or missing:
        return (
            f"OCR engine {command!r} lacks the language models {', '.join(missing) or '?'} "
            f"(Debian: {_PACKAGES})."
        )
    return None


def recognise(
    image: bytes,
    command: str = DEFAULT_COMMAND,
    dpi: int | None = None,
    languages: tuple[str, ...] = LANGUAGES,
    segmentation: int = PAGE_SEGMENTATION,
) -> OcrPage:
    """Words of one page image (PNG, PNM, TIFF, JPEG: what Tesseract reads). Raises
    `OcrUnavailable` when the command is missing, `OcrFailed` when Tesseract fails."""
    arguments = [command, "stdin", "stdout", "-l", "+".join(languages)]
    arguments += ["--psm", str(segmentation)]
    if dpi is not None:
        arguments += ["--dpi", str(dpi)]
    try:
        finished = subprocess.run(
            [*arguments, "tsv"],
            input=image,
            capture_output=True,
            timeout=PAGE_TIMEOUT_SECONDS,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            check=False,
        )
    except (FileNotFoundError, PermissionError) as error:
        raise OcrUnavailable(f"OCR engine not installed: {command!r} ({error}).") from error
    except subprocess.TimeoutExpired as error:
        raise OcrFailed(f"OCR took longer than {PAGE_TIMEOUT_SECONDS:g} s on a page.") from error
    if finished.returncode != 0:
        detail = finished.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        raise OcrFailed(f"OCR failed ({finished.returncode}): {' '.join(detail)}")
    return page_of(parse_tsv(finished.stdout.decode("utf-8", "replace")))


def page_of(words: tuple[OcrWord, ...]) -> OcrPage:
    """The page read as `words`, with its plain and layout texts."""
    return OcrPage(words, repaired(plain_text(words)), repaired(layout_text(words)))


def parse_tsv(tsv: str) -> tuple[OcrWord, ...]:
    """Word rows (level 5) of Tesseract's TSV with a confidence and some text."""
    words: list[OcrWord] = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) != 12 or cells[0] != "5":
            continue
        text = _DASH_BEFORE_DIGIT.sub("-", cells[11].strip())
        confidence = float(cells[10])
        if not text or confidence < 0:
            continue
        block, paragraph, line = (int(cell) for cell in cells[2:5])
        left, top, width, height = (int(cell) for cell in cells[6:10])
        words.append(OcrWord(text, confidence, left, top, width, height, (block, paragraph, line)))
    return tuple(words)


def reading_languages(
    words: tuple[OcrWord, ...], installed: frozenset[str] = frozenset(SINGLE_MODELS)
) -> tuple[str, ...]:
    """The model alone (`deu`, `fra`, `nld`, `spa`, `ita`) of a page whose words (read
    with the German and English models) are mostly of its language: at least
    `MIN_LANGUAGE_WORDS` common words of it and more than of any other. Else both first
    models. With both, Tesseract takes each word from the model that is surer of it, and
    the English one, which has no umlauts or accents, wins many words with them: `März`
    comes out `Marz`, `Überweisung` `Uberweisung`, `Relevé` `Releve`. A model that is not
    installed is not chosen."""
    counts = _language_counts(words)
    best = max(
        (language for language in SINGLE_MODELS if language in installed),
        key=lambda language: counts[language],
        default=None,
    )
    if best is None or counts[best] < MIN_LANGUAGE_WORDS:
        return LANGUAGES
    if any(counts[other] >= counts[best] for other in counts if other != best):
        return LANGUAGES
    return (best,)


def contradicts(words: tuple[OcrWord, ...], language: str) -> bool:
    """Whether a page read with `language`'s model alone, in a document found to be in
    it, reads as another language: more words common in the other languages than in
    this one. A page with none of either (numbers, names) does not contradict."""
    folded = _folded(words)
    own = _LANGUAGE_WORDS[language]
    others = [words for other, words in _LANGUAGE_WORDS.items() if other != language]
    return sum(any(word in other for other in others) for word in folded) > sum(
        word in own for word in folded
    )


def _language_counts(words: tuple[OcrWord, ...]) -> dict[str, int]:
    """How many words are common words of each language (a word may count for several)."""
    folded = _folded(words)
    return {
        language: sum(word in common for word in folded)
        for language, common in _LANGUAGE_WORDS.items()
    }


def _folded(words: tuple[OcrWord, ...]) -> list[str]:
    return [fold(word.text.strip(".,:;()")) for word in words]


def repaired(text: str) -> str:
    """The text with what OCR misreads in known shapes put right: IBANs by their checksum
    (`processors/ocr_iban.py`), labelled BICs by their shape (`ocr_bic.py`), company
    legal forms (`ocr_legal_forms.py`), the VAT label before a rate (`ocr_vat_label.py`)."""
    return "\n".join(_repaired_line(line) for line in text.split("\n"))


def _repaired_line(line: str) -> str:
    return repair_vat_label(repair_legal_forms(repair_bics(repair_ibans(line))))


def mean_confidence(words: tuple[OcrWord, ...] | list[OcrWord]) -> float:
    return statistics.fmean(word.confidence for word in words) if words else 0.0


def recognised_rate(words: tuple[OcrWord, ...] | list[OcrWord]) -> float:
    return sum(word.recognised for word in words) / len(words) if words else 0.0


def plain_text(words: tuple[OcrWord, ...]) -> str:
    lines: dict[tuple[int, int, int], list[str]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word.text)
    return "\n".join(" ".join(texts) for texts in lines.values())


def layout_text(words: tuple[OcrWord, ...]) -> str:
    """One line per visual row, each word at its column."""
    if not words:
        return ""
    slope = _skew(words)
    char_width = statistics.median(word.width / len(word.text) for word in words)
    height = statistics.median(word.height for word in words)
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    placed = sorted(
        ((statistics.fmean(_level(word, slope) for word in line), line) for line in lines.values()),
        key=lambda item: item[0],
    )
    rows: list[tuple[float, list[OcrWord]]] = []
    for y, line in placed:
        if rows and y - rows[-1][0] <= height * 0.5:
            rows[-1][1].extend(line)
        else:
            rows.append((y, list(line)))
    margin = min(word.left for word in words)
    return "\n".join(_row_text(row, margin, char_width) for _, row in rows)


def _level(word: OcrWord, slope: float) -> float:
    """The word's vertical centre with the page's skew taken out."""
    return word.top + word.height / 2 - slope * (word.left + word.width / 2)


def _skew(words: tuple[OcrWord, ...]) -> float:
    """Median slope (dy/dx) of Tesseract's lines of two or more words."""
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    slopes: list[float] = []
    for line in lines.values():
        first, last = line[0], line[-1]
        dx = (last.left + last.width / 2) - (first.left + first.width / 2)
        if len(line) >= 2 and dx > 0:
            dy = (last.top + last.height) - (first.top + first.height)
            slopes.append(dy / dx)
    return statistics.median(slopes) if slopes else 0.0


def _row_text(row: list[OcrWord], margin: int, char_width: float) -> str:
    """Words at their columns; words of one Tesseract line close together (less than
    three characters apart) get one space, as in the text."""
    text = ""
    previous: OcrWord | None = None
    for word in sorted(row, key=lambda w: w.left):
        column = round((word.left - margin) / char_width) if char_width else 0
        gap = max(column - len(text), 1 if text else 0)
        if previous is not None and previous.line == word.line:
            distance = word.left - (previous.left + previous.width)
            gap = 1 if distance < 3 * char_width else gap
        text += " " * gap + word.text
        previous = word
    return text

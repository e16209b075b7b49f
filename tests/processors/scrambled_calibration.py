"""Calibration of the scrambled-text gate (`text_quality.reads_as_language`,
docs/pdf_text.md "Scrambled text layers").

    PYTHONPATH=. .venv/bin/python -m tests.processors.scrambled_calibration

Normal text: every page of every corpus PDF whose text layer reads as text, whole and
in windows of `WINDOW` words (short pages), and the generated documents unscrambled.
Scrambled text: the generated documents (`scrambled_docs`: two letters in two fonts, the
invoice and statement layouts of `generated_docs`) with 10 % to 100 % of their letters
permuted or shifted, five seeds each. Prints the score's spread on each side and the
share of pages the gate sends to OCR.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from dataclasses import dataclass

import pypdfium2 as pdfium

from processors.text_layer import read_pages
from processors.text_quality import (
    MIN_LANGUAGE_WORDS,
    SCRAMBLED_SCORE,
    language_evidence,
    reads_as_text,
)
from testkit import generated_docs as generated
from tests.processors.conftest import CORPUS, MANIFEST
from tests.processors.scrambled_docs import (
    ENGLISH_LETTER,
    GERMAN_LETTER,
    NEIGHBOUR_LETTERS,
    Scramble,
    letter,
    scramble,
)

WINDOW = MIN_LANGUAGE_WORDS
SHARES = (0.1, 0.25, 0.5, 0.75, 1.0)
MODES = ("permute", "shift")
SEEDS = range(1, 6)


@dataclass(frozen=True)
class Sample:
    name: str
    words: int
    score: float


def page_texts(pdf: bytes, max_pages: int = 5) -> list[str]:
    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError:
        return []
    try:
        return read_pages(document, max_pages)[0]
    finally:
        document.close()


def sources() -> dict[str, bytes]:
    invoice, statement = generated.SAMPLE_INVOICE, generated.SAMPLE_STATEMENT
    return {
        "de-letter-helvetica": letter(GERMAN_LETTER, embedded_font=False),
        "de-letter-dejavu": letter(GERMAN_LETTER, embedded_font=True),
        "en-letter-helvetica": letter(ENGLISH_LETTER, embedded_font=False),
        "en-letter-dejavu": letter(ENGLISH_LETTER, embedded_font=True),
        "de-invoice": generated.german_invoice(invoice),
        "en-invoice": generated.english_invoice(invoice),
        "table-invoice": generated.table_invoice(invoice),
        "de-statement": generated.german_statement(statement),
        "en-statement": generated.english_statement(statement),
    }


def _sample(name: str, text: str) -> Sample:
    evidence = language_evidence(text)
    return Sample(name, evidence.words, evidence.scramble_score)


def corpus_pdfs() -> list[str]:
    """Every PDF of the corpus once (by hash), as paths relative to it; [] without it."""
    if not MANIFEST.is_file():
        return []
    rows = [json.loads(line) for line in MANIFEST.read_text(encoding="utf-8").splitlines() if line]
    unique = {row["sha256"]: row["file"] for row in rows if row["file"].lower().endswith(".pdf")}
    return sorted(unique.values())


def corpus_samples() -> Iterator[tuple[Sample, list[Sample]]]:
    """Each text-layer page of the corpus with its windows of `WINDOW` words."""
    for path in corpus_pdfs():
        for number, text in enumerate(page_texts((CORPUS / path).read_bytes())):
            if not reads_as_text(text, 0.5):
                continue
            name = f"{path} p{number + 1}"
            tokens = text.split()
            windows = [
                _sample(name, " ".join(tokens[i : i + WINDOW * 2]))
                for i in range(0, len(tokens), WINDOW * 2)
            ]
            yield _sample(name, text), [w for w in windows if w.words >= WINDOW]


def scrambled_samples() -> Iterator[tuple[float, str, Sample]]:
    for name, pdf in sources().items():
        for share in SHARES:
            for mode in MODES:
                for seed in SEEDS:
                    text = page_texts(scramble(pdf, Scramble(share, mode, seed)))[0]
                    yield share, mode, _sample(f"{name} {mode} {share} seed {seed}", text)


def _spread(scores: list[float]) -> str:
    if not scores:
        return "none"
    return f"min {min(scores):.2f}  median {statistics.median(scores):.2f}  max {max(scores):.2f}"


def main() -> int:
    pages: list[Sample] = []
    windows: list[Sample] = []
    for page, page_windows in corpus_samples():
        pages.append(page)
        windows.extend(page_windows)
    judged = [p for p in pages if p.words >= MIN_LANGUAGE_WORDS]
    flagged = [p for p in [*judged, *windows] if p.score >= SCRAMBLED_SCORE]
    print(f"gate: {MIN_LANGUAGE_WORDS}+ words and score >= {SCRAMBLED_SCORE}")
    print(
        f"corpus pages judged {len(judged)} of {len(pages)}: {_spread([p.score for p in judged])}"
    )
    print(f"corpus windows {len(windows)}: {_spread([w.score for w in windows])}")
    for sample in sorted([*judged, *windows], key=lambda s: -s.score)[:5]:
        print(f"  highest {sample.score:.2f} ({sample.words} words): {sample.name}")
    print(f"false positives: {len(flagged)} of {len(judged) + len(windows)}")
    normal = [_sample(name, page_texts(pdf)[0]) for name, pdf in sources().items()]
    print(f"generated unscrambled: {_spread([s.score for s in normal])}")
    for language, paragraphs in NEIGHBOUR_LETTERS.items():
        sample = _sample(language, page_texts(letter(paragraphs, embedded_font=False))[0])
        print(f"generated letter in {language} ({sample.words} words): {sample.score:.2f}")
    found: dict[tuple[float, str], list[Sample]] = {}
    for share, mode, sample in scrambled_samples():
        found.setdefault((share, mode), []).append(sample)
    for (share, mode), samples in sorted(found.items()):
        hits = sum(s.score >= SCRAMBLED_SCORE for s in samples)
        scores = [s.score for s in samples]
        print(f"{share:4.0%} {mode:7}: detected {hits}/{len(samples)}  {_spread(scores)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Write processors/language_data.py: letter-bigram costs of German and English, derived
from the word lists in Tesseract's own language models (Debian packages
`tesseract-ocr-deu`, `tesseract-ocr-eng`, which the service installs for OCR anyway).

The lists are unpacked with Tesseract's tools (`combine_tessdata -u`, `dawg2wordlist`);
nothing is downloaded. Each language weighs the same (the English list is four times
longer); every word counts once. The costs are -log2 P(next letter | letter), add-one
smoothed, in tenths of a bit, over the alphabet of `processors.text_quality.fold` (a-z,
ä, ö, ü, ß, `?` for any other letter) and a space for the start and end of a word.

Usage: .venv/bin/python scripts/build_language_data.py [TESSDATA_DIR]
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from processors.text_quality import ALPHABET, fold

LANGUAGES = ("deu", "eng")
TARGET = Path(__file__).resolve().parents[1] / "processors" / "language_data.py"
TESSDATA = Path("/usr/share/tesseract-ocr/5/tessdata")
SYMBOLS = ALPHABET + " "


def word_list(tessdata: Path, language: str, work: Path) -> list[str]:
    prefix = work / f"{language}."
    subprocess.run(
        ["combine_tessdata", "-u", str(tessdata / f"{language}.traineddata"), str(prefix)],
        check=True,
        capture_output=True,
    )
    listed = work / f"{language}.words"
    subprocess.run(
        [
            "dawg2wordlist",
            f"{prefix}lstm-unicharset",
            f"{prefix}lstm-word-dawg",
            str(listed),
        ],
        check=True,
        capture_output=True,
    )
    return listed.read_text(encoding="utf-8").split()


def bigram_shares(words: list[str]) -> dict[str, float]:
    counts: Counter[str] = Counter()
    for word in words:
        folded = f" {fold(word)} "
        counts.update(folded[i : i + 2] for i in range(len(folded) - 1))
    total = sum(counts.values())
    return {pair: count / total for pair, count in counts.items()}


def costs(shares: list[dict[str, float]]) -> dict[str, tuple[int, ...]]:
    """Per letter, -log2 P(next | letter) in tenths of a bit for each next symbol in the
    order of `SYMBOLS`, from the languages' mean bigram shares, add-one smoothed (one
    word-list bigram in a million)."""
    smoothing = 1e-6
    mixed = {
        a + b: sum(share.get(a + b, 0.0) for share in shares) / len(shares) + smoothing
        for a in SYMBOLS
        for b in SYMBOLS
    }
    table: dict[str, tuple[int, ...]] = {}
    for a in SYMBOLS:
        row = sum(mixed[a + b] for b in SYMBOLS)
        table[a] = tuple(round(-10 * math.log2(mixed[a + b] / row)) for b in SYMBOLS)
    return table


def render(table: dict[str, tuple[int, ...]]) -> str:
    half = len(SYMBOLS) // 2
    rows = []
    for letter, tenths in table.items():
        first, second = (", ".join(map(str, part)) for part in (tenths[:half], tenths[half:]))
        rows.append(f"    {json.dumps(letter, ensure_ascii=False)}: (\n        {first},\n")
        rows.append(f"        {second},\n    ),\n")
    return (
        '"""Letter-bigram costs of German and English, written by\n'
        "scripts/build_language_data.py from Tesseract's word lists. Do not edit.\n\n"
        "BIGRAM_TENTHS[a][i] is -log2 P(SYMBOLS[i] follows a) in tenths of a bit; a space\n"
        'stands for the start or end of a word."""\n\n'
        f"SYMBOLS = {json.dumps(SYMBOLS, ensure_ascii=False)}\n\n"
        "# fmt: off\n"
        f"BIGRAM_TENTHS: dict[str, tuple[int, ...]] = {{\n{''.join(rows)}}}\n"
        "# fmt: on\n"
    )


def main(argv: list[str]) -> int:
    tessdata = Path(argv[1]) if len(argv) > 1 else TESSDATA
    with tempfile.TemporaryDirectory() as work:
        shares = [bigram_shares(word_list(tessdata, lang, Path(work))) for lang in LANGUAGES]
    TARGET.write_text(render(costs(shares)), encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

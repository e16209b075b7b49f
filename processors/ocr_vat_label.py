"""The German VAT label in OCR text put right by its shape: `Must 19%` -> `MwSt 19%`.

On small, faded receipt print Tesseract's German model reads `MwSt` as the dictionary
word `Must` (w as u): the receipt then shows no VAT and is not taken for one. Only the
word followed by a VAT rate (one or two digits, an optional decimal, a per cent sign)
is touched: `Must` before a rate is no English or German sentence.
"""

from __future__ import annotations

import re

_MISREAD = re.compile(r"\b[MN][uv]\s?[Ss]t\b(?=\.?\s*\d{1,2}(?:[,.]\d{1,2})?\s*%)")


def repair_vat_label(line: str) -> str:
    return _MISREAD.sub("MwSt", line)

"""BICs in OCR text put right by their shape: `C0BADEFFXXX` -> `COBADEFFXXX`.

A BIC (ISO 9362) is four letters of the bank, two of the country, two letters or digits
of the location and optionally three of the branch. A digit OCR reads in one of the
first six positions can only be a misread letter, and the look-alike letter is its one
reading (0 -> O, 1 -> I, 2 -> Z, 5 -> S, 6 -> G, 8 -> B). A BIC carries no checksum, so
only a word right after a `BIC` or `SWIFT` label is touched, and only when its country
is a known one. The location and branch stay as read: a letter or a digit is valid there.
"""

from __future__ import annotations

import re

from processors.ocr_iban import AS_LETTER
from processors.text_values import IBAN_LENGTHS

COUNTRIES = frozenset(IBAN_LENGTHS) | {"US", "CA", "SG", "HK", "JP", "CN", "AU", "IN"}
"""Countries a BIC's fifth and sixth letters may name: the SEPA countries and the
others whose statements the reader knows."""
_LABELLED = re.compile(
    r"(?P<label>\b(?:BIC|SWIFT)(?:[-/ ]?(?:Code|BIC))?\s*[:.]?\s*)"
    r"(?P<bic>[A-Za-z0-9]{8}(?:[A-Za-z0-9]{3})?)\b"
)


def repair_bics(line: str) -> str:
    """The line with labelled BICs put right where a digit stands for a letter."""
    return _LABELLED.sub(_repaired, line)


def _repaired(match: re.Match[str]) -> str:
    bic = match.group("bic")
    letters = [_letter(char) for char in bic[:6]]
    if any(letter is None for letter in letters):
        return match.group()
    head = "".join(letter for letter in letters if letter is not None)
    if head[4:6] not in COUNTRIES:
        return match.group()
    return match.group("label") + head + bic[6:]


def _letter(char: str) -> str | None:
    if "A" <= char <= "Z":
        return char
    options = AS_LETTER.get(char, ())
    return options[0] if len(options) == 1 else None

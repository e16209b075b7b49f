"""IBANs in OCR text put right with their checksum: `FRO3 8384 ...` -> `FR03 8384 ...`.

OCR confuses characters of similar shape (O and 0, I, l and 1, S and 5, B and 8, Z and
2) and splits or joins groups (`DE 17 1117 ...`, `FR1827...997 80723992`). An IBAN says
which class each position holds: two country letters, two check digits, then the
country's BBAN format (ISO 13616 registry: `n` digits, `a` letters, `c` either). So an
IBAN-shaped run of tokens is read position by position: a confusable character in a
digit position becomes its digit, in a letter position its letter (a lower-case `l` may
be I or L); in a `c` position a capital or a digit stays, and a lower-case look-alike
may be either. The run is accepted only when exactly one candidate passes mod 97: a
wrong repair passes by chance about once in 97 tries, and candidates are capped so that
this stays rare. Countries without a known format are left alone.

The repaired IBAN is printed as IBANs are printed (ISO 13616): in groups of four when
the run read mostly as groups of four (paper format), else without spaces (electronic).
"""

from __future__ import annotations

import itertools
import re

from processors.text_values import IBAN_LENGTHS, iban_valid

BBAN_FORMATS = {
    "AT": "16n", "BE": "12n", "BG": "4a6n8c", "CH": "5n12c", "CY": "8n16c", "CZ": "20n",
    "DE": "18n", "DK": "14n", "EE": "16n", "ES": "20n", "FI": "14n", "FR": "10n11c2n",
    "GB": "4a14n", "GR": "7n16c", "HR": "17n", "HU": "24n", "IE": "4a14n", "IS": "22n",
    "IT": "1a10n12c", "LI": "5n12c", "LT": "16n", "LU": "3n13c", "LV": "4a13c",
    "MC": "10n11c2n", "MT": "4a5n18c", "NL": "4a10n", "NO": "11n", "PL": "24n", "PT": "21n",
    "RO": "4a16c", "SE": "20n", "SI": "15n", "SK": "20n",
}  # fmt: skip
"""Each country's BBAN as runs of digits (n), letters (a) and either (c)."""

AS_DIGIT = {
    "O": "0", "o": "0", "D": "0", "Q": "0", "I": "1", "l": "1", "i": "1", "|": "1",
    "Z": "2", "z": "2", "S": "5", "s": "5", "G": "6", "b": "6", "T": "7", "B": "8",
    "g": "9", "q": "9",
}  # fmt: skip
"""Letters OCR reads for digits of similar shape."""
AS_LETTER = {
    "0": ("O",), "1": ("I",), "2": ("Z",), "5": ("S",), "6": ("G",), "8": ("B",),
    "l": ("I", "L"), "|": ("I",), "o": ("O",), "s": ("S",), "z": ("Z",),
}  # fmt: skip
"""Digits and lower-case letters OCR reads for capital letters of similar shape."""
MAX_CANDIDATES = 8
"""At most this many readings are checked: the more are tried, the likelier a wrong one
passes mod 97 by chance (8 tries: about 8 %, and then only when OCR also made an error
outside the known confusions, and no other candidate passed)."""
MAX_GAP = 2
"""Spaces allowed between the groups of one IBAN (wider gaps separate table cells)."""
_GROUP = re.compile(r"\S+")
_TRAILING = re.compile(r"[.,;:)]+$")
_ALNUM = re.compile(r"[A-Za-z0-9|]+")


def repair_ibans(line: str) -> str:
    """The line with every repairable IBAN-shaped run printed right; the rest unchanged.
    A repaired IBAN shorter than what OCR read is padded with spaces, so what follows on
    the line keeps its column."""
    groups = [(m.start(), m.end()) for m in _GROUP.finditer(line)]
    out, position, index = [], 0, 0
    while index < len(groups):
        found = _iban_at(line, groups, index)
        if found is None:
            index += 1
            continue
        consumed, start, end, iban = found
        out += [line[position:start], iban.ljust(end - start)]
        position, index = end, index + consumed
    repaired = "".join([*out, line[position:]])
    return repaired.rstrip() if line == line.rstrip() else repaired


def _iban_at(
    line: str, groups: list[tuple[int, int]], index: int
) -> tuple[int, int, int, str] | None:
    """(groups consumed, start, end, IBAN as it should print) for a run starting at
    groups[index], or None when none starts there or it is right already."""
    first = line[groups[index][0] : groups[index][1]]
    lengths = sorted({IBAN_LENGTHS[country] for country in _countries(first[:2])})
    for length in lengths:
        run = _run(line, groups, index, length)
        if run is None:
            continue
        consumed, end, characters, sizes = run
        iban = _repaired(characters)
        if iban is None:
            continue
        printed = _printed(iban, sizes)
        start = groups[index][0]
        if printed == line[start:end]:
            return None
        return consumed, start, end, printed
    return None


def _run(
    line: str, groups: list[tuple[int, int]], index: int, length: int
) -> tuple[int, int, str, list[int]] | None:
    """The groups from `index` whose characters make exactly `length`: (groups, end,
    characters, group sizes). Trailing punctuation may end the last group."""
    characters, sizes = "", []
    for offset, (start, end) in enumerate(groups[index:]):
        if offset and start - groups[index + offset - 1][1] > MAX_GAP:
            return None
        text = line[start:end]
        body = _TRAILING.sub("", text)
        if not _ALNUM.fullmatch(body):
            return None
        characters += body
        sizes.append(len(body))
        if len(characters) == length:
            return offset + 1, start + len(body), characters, sizes
        if len(characters) > length or body != text:
            return None
    return None


def _repaired(characters: str) -> str | None:
    """The one reading of `characters` in its positions' classes that passes mod 97."""
    valid: set[str] = set()
    for country in _countries(characters[:2]):
        if IBAN_LENGTHS[country] != len(characters):
            continue
        options = _options(country, characters)
        if options is None or _count(options) > MAX_CANDIDATES:
            return None
        valid |= {"".join(c) for c in itertools.product(*options) if iban_valid("".join(c))}
    return valid.pop() if len(valid) == 1 else None


def _options(country: str, characters: str) -> list[tuple[str, ...]] | None:
    """Each position's possible characters, None when one has none."""
    options: list[tuple[str, ...]] = [(country[0],), (country[1],)]
    options += [_digits(characters[2]), _digits(characters[3])]
    for count, kind in re.findall(r"(\d+)([nac])", BBAN_FORMATS[country]):
        offset = len(options)
        options += [_CLASS_OPTIONS[kind](c) for c in characters[offset : offset + int(count)]]
    return None if any(not option for option in options) else options


def _count(options: list[tuple[str, ...]]) -> int:
    combinations = 1
    for option in options:
        combinations *= len(option)
    return combinations


def _countries(head: str) -> set[str]:
    if len(head) < 2:
        return set()
    pairs = {"".join(pair) for pair in itertools.product(*map(_letters, head))}
    return {pair for pair in pairs if pair in BBAN_FORMATS}


def _digits(char: str) -> tuple[str, ...]:
    if char.isdigit():
        return (char,)
    return (AS_DIGIT[char],) if char in AS_DIGIT else ()


def _letters(char: str) -> tuple[str, ...]:
    if "A" <= char <= "Z":
        return (char,)
    return AS_LETTER.get(char, ())


def _either(char: str) -> tuple[str, ...]:
    """A capital or a digit is read as it is (either is valid here); a lower-case
    letter or a bar may be a digit or a capital."""
    if "A" <= char <= "Z" or char.isdigit():
        return (char,)
    return tuple(sorted({*_digits(char), *_letters(char)}))


_CLASS_OPTIONS = {"n": _digits, "a": _letters, "c": _either}


def _printed(iban: str, sizes: list[int]) -> str:
    """Groups of four when OCR read most groups (but the last) as four, else compact."""
    inner = sizes[:-1]
    if inner and sum(size == 4 for size in inner) * 2 > len(inner):
        return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
    return iban

"""Reading values out of a PDF's text layer: amounts, dates, IBANs, labelled fields.

Shared by the plain-PDF invoice reader and the bank statement reader. Everything here
is a pure function over strings, except `page_texts`: pypdf's extraction, for the PDFs
PDFium cannot open (`processors/text_layer.py` reads all others).

Number formats: German `1.234,56`, English `1,234.56`, Swiss `1'234.56`. The decimal
separator is the last `.` or `,` when exactly one or two digits follow it; otherwise
the separators group thousands. Dates: `09.01.2015`, `9.1.15`, `2015-01-09`,
`09/01/2015` (day first unless the day cannot be a month or `month_first` is set),
`9 January 2015`, `7. Mai 2014`, `January 9, 2015`, `Jan 9 2015`.
"""

from __future__ import annotations

import functools
import logging
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from pypdf import PdfReader

logger = logging.getLogger(__name__)

LINE_CACHE = 4096
"""Lines whose amounts and cells are remembered: the readers ask about the same lines
many times (every label is looked for on every line)."""

# --- text layer ------------------------------------------------------------------------


def page_texts(reader: PdfReader, max_pages: int, layout: bool) -> list[str]:
    """Text of each page through pypdf, best effort. `layout` keeps columns on one line
    (pypdf's layout mode), which table rows need; the plain mode keeps label/value runs."""
    texts: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for page in list(reader.pages)[:max_pages]:
            texts.append(_page_text(page, layout))
    for warning in caught:
        logger.info("pypdf warning: %s", warning.message)
    return texts


def _page_text(page: object, layout: bool) -> str:
    extract = getattr(page, "extract_text", None)
    if extract is None:
        return ""
    try:
        text = extract(extraction_mode="layout") if layout else extract()
    except Exception as error:  # pypdf raises many types on malformed content streams
        logger.info("no text from page: %s: %s", type(error).__name__, error)
        return ""
    return text if isinstance(text, str) else ""


def forget_lines() -> None:
    """Empty the line caches at the start of a document: a cache serves the many looks
    at one document's lines, not repeated reads of the same file."""
    _amounts.cache_clear()
    _cells.cache_clear()
    is_header_row.cache_clear()


# --- amounts ---------------------------------------------------------------------------

_AMOUNT = re.compile(
    r"(?<![\w.,])(?P<sign>[-+\u2212]\s{0,2})?"
    r"(?P<num>\d{1,3}(?:[.,'\u2019]\d{3})+(?:[.,]\d{1,2})?|\d+[.,]\d{2})"
    r"(?P<trail>\s?[-+](?!\d)|\s?[SH]\b)?(?![\d,.])(?!\s?%)"
)


@dataclass(frozen=True, slots=True)
class AmountMatch:
    value: Decimal
    start: int
    end: int
    signed: bool  # an explicit sign (+, -, S/H) was printed


def parse_number(text: str) -> Decimal | None:
    """`1.234,56`, `1,234.56`, `1'234.56`, `1234` -> Decimal; None when not a number."""
    raw = text.strip().replace("\u2019", "'").replace("'", "").replace(" ", "")
    if not raw or not re.fullmatch(r"\d[\d.,]*", raw):
        return None
    last = max(raw.rfind("."), raw.rfind(","))
    if last >= 0 and 1 <= len(raw) - last - 1 <= 2:
        integer, fraction = raw[:last], raw[last + 1 :]
    else:
        integer, fraction = raw, ""
    integer = integer.replace(".", "").replace(",", "")
    try:
        return Decimal(f"{integer}.{fraction}" if fraction else integer)
    except InvalidOperation:
        return None


def find_amounts(line: str) -> list[AmountMatch]:
    """Every amount with two decimals (or thousands groups) in `line`, signs applied."""
    return list(_amounts(line))


@functools.lru_cache(maxsize=LINE_CACHE)
def _amounts(line: str) -> tuple[AmountMatch, ...]:
    found: list[AmountMatch] = []
    for match in _AMOUNT.finditer(line):
        value = parse_number(match["num"])
        if value is None:
            continue
        sign = (match["sign"] or "").strip()
        trail = (match["trail"] or "").strip()
        negative = sign in ("-", "\u2212") or trail in ("-", "S")
        signed = bool(sign or trail)
        found.append(AmountMatch(-value if negative else value, match.start(), match.end(), signed))
    return tuple(found)


# --- dates -----------------------------------------------------------------------------

MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan", "januar", "jänner", "janvier", "januari", "janv"),
            ("february", "feb", "februar", "février", "fevrier", "februari", "févr"),
            ("march", "mar", "märz", "maerz", "mars", "maart", "mrz"),
            ("april", "apr", "avril"),
            ("may", "mai", "mei"),
            ("june", "jun", "juni", "juin"),
            ("july", "jul", "juli", "juillet", "juil"),
            ("august", "aug", "août", "aout", "augustus"),
            ("september", "sep", "sept", "septembre"),
            ("october", "oct", "oktober", "okt", "octobre", "október"),
            ("november", "nov", "novembre"),
            ("december", "dec", "dezember", "dez", "décembre", "decembre"),
        ],
        start=1,
    )
    for name in names
}
_MONTH_WORD = r"(?P<month>[A-Za-zÄÖÜäöüéû]{3,10})\.?"
_DATE_PATTERNS = [
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?<![\d.])(?P<d>\d{1,2})\.\s?(?P<m>\d{1,2})\.\s?(?P<y>\d{4}|\d{2})(?![\d])"),
    re.compile(r"(?<![\d/])(?P<a>\d{1,2})[/-](?P<b>\d{1,2})[/-](?P<y>\d{4}|\d{2})(?!\d)"),
    re.compile(rf"(?<!\d)(?P<d>\d{{1,2}})\.?\s+{_MONTH_WORD}\s+(?P<y>\d{{4}})(?!\d)"),
    re.compile(rf"\b{_MONTH_WORD}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s?,?\s*(?P<y>\d{{4}})(?!\d)"),
]


@dataclass(frozen=True, slots=True)
class DateMatch:
    value: date
    start: int
    end: int


def find_dates(text: str, month_first: bool = False) -> list[DateMatch]:
    """Every date in `text`, in order of position."""
    found: dict[int, DateMatch] = {}
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            value = _date_from(match, month_first)
            if value is not None and match.start() not in found:
                found[match.start()] = DateMatch(value, match.start(), match.end())
    return [found[key] for key in sorted(found)]


def _date_from(match: re.Match[str], month_first: bool) -> date | None:
    groups = match.groupdict()
    year = int(groups["y"])
    year += 2000 if year < 100 else 0
    if "month" in groups and groups["month"] is not None:
        month = MONTHS.get(groups["month"].lower().rstrip("."))
        day = int(groups["d"])
    elif "a" in groups:
        first, second = int(groups["a"]), int(groups["b"])
        day, month = (
            (second, first)
            if (month_first and second <= 31) or first > 12
            else (
                first,
                second,
            )
        )
        if month > 12:
            day, month = month, day
    else:
        day, month = int(groups["d"]), int(groups["m"])
    if month is None:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


# --- identifiers -----------------------------------------------------------------------

# Banks group IBANs irregularly ("FR76 10107 00245 ..."), and layout or OCR text may
# widen a gap to two spaces; the checksum decides the end.
_IBAN = re.compile(r"\b([A-Z]{2}\d{2}(?: {0,2}[A-Z0-9]){11,30})\b")
_BIC = re.compile(r"\b([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b")


IBAN_LENGTHS = {
    "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22, "DK": 18,
    "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27, "HR": 21, "HU": 28,
    "IE": 22, "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27,
    "MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SE": 24, "SI": 19,
    "SK": 24,
}  # fmt: skip
"""IBAN lengths of the SEPA countries (ISO 13616 registry)."""


def iban_valid(candidate: str) -> bool:
    compact = re.sub(r"\s", "", candidate).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", compact):
        return False
    rotated = compact[4:] + compact[:4]
    digits = "".join(str(int(char, 36)) for char in rotated)
    return int(digits) % 97 == 1


def find_ibans(text: str) -> list[str]:
    """Valid IBANs (checksum checked), compact, in order, without repeats. A match may
    swallow a following word, so shorter prefixes are tried too."""
    found: list[str] = []
    for match in _IBAN.finditer(text):
        iban = _longest_valid_prefix(match.group(1))
        if iban and iban not in found:
            found.append(iban)
    return found


def _longest_valid_prefix(candidate: str) -> str | None:
    """The IBAN at the start of `candidate`: of its country's length when the country is
    known (a following word can pass the checksum by chance: one in 97), else the
    longest prefix with a valid checksum."""
    compact = re.sub(r"\s", "", candidate)
    length = IBAN_LENGTHS.get(compact[:2])
    if length is not None:
        return compact[:length] if iban_valid(compact[:length]) else None
    for end in range(len(compact), 14, -1):
        if iban_valid(compact[:end]):
            return compact[:end]
    return None


def find_bic(text: str) -> str | None:
    for line in text.splitlines():
        label = re.search(r"\b(?:BIC|SWIFT)\b", line)
        if label:
            match = _BIC.search(line[label.end() :])
            if match:
                return match.group(1)
    return None


# --- labelled values -------------------------------------------------------------------


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def labelled(lines: list[str], label: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """(label line index, text after the label) for every line carrying `label`; when nothing
    follows the label, the text before it (text layers often print value then label)
    and then the next line are offered as well."""
    for index, line in enumerate(lines):
        for match in label.finditer(line):
            after = line[match.end() :].strip(" :#\t")
            if after:
                yield index, after
            before = line[: match.start()].strip(" :#\t")
            if before:
                yield index, before
            if not after and index + 1 < len(lines):
                yield index, lines[index + 1].strip()


# --- columns (layout text) -------------------------------------------------------------

_CELL = re.compile(r"\S+(?: \S+)*")
COLUMN_DEPTH = 15
"""How many lines below a header row its columns are followed."""


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    start: int
    end: int


def cells(line: str) -> list[Cell]:
    """The cells of a layout line: runs of text apart by two or more spaces."""
    return list(_cells(line))


@functools.lru_cache(maxsize=LINE_CACHE)
def _cells(line: str) -> tuple[Cell, ...]:
    return tuple(Cell(match.group(), match.start(), match.end()) for match in _CELL.finditer(line))


@functools.lru_cache(maxsize=LINE_CACHE)
def is_header_row(line: str, minimum: int = 3) -> bool:
    """Several cells and no amount: the head of a table (`Net   VAT   Total`)."""
    return len(cells(line)) >= minimum and not find_amounts(line)


def overlaps(start: int, end: int, cell_start: int, cell_end: int, slack: int = 2) -> bool:
    """Columns are aligned left, right or centred: spans that overlap (give or take
    `slack` characters) are one column."""
    return start <= cell_end + slack and end >= cell_start - slack


def column_amounts(lines: list[str], header: int, cell: Cell) -> list[AmountMatch]:
    """Amounts printed under `cell` of the header row `lines[header]`."""
    found: list[AmountMatch] = []
    for line in lines[header + 1 : header + 1 + COLUMN_DEPTH]:
        found.extend(
            a for a in find_amounts(line) if overlaps(a.start, a.end, cell.start, cell.end)
        )
    return found


def cell_below(lines: list[str], header: int, cell: Cell) -> str | None:
    """The cell right under `cell` in the next line, if one lines up with it."""
    if header + 1 >= len(lines):
        return None
    below = [c for c in cells(lines[header + 1]) if overlaps(c.start, c.end, cell.start, cell.end)]
    return below[0].text if len(below) == 1 else None

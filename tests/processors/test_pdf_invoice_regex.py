"""`guarded` patterns find exactly what the patterns without their look-ahead find."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import processors.pdf_invoices.labels as labels
from processors.pdf_invoices.regex import guarded
from processors.pdf_invoices.title_and_template import _PLACEHOLDER

_GUARD = re.compile(r"\(\?=\[(?:[^\]\\]|\\.)*\]\)\(\?:(?P<pattern>.*)\)", re.DOTALL)

LABEL_PATTERNS = {
    name: value
    for name, value in [*vars(labels).items(), *enumerate(labels.ISSUE_LABELS)]
    if isinstance(value, re.Pattern)
} | {"PLACEHOLDER": _PLACEHOLDER}

# The vocabulary the labels look for, and characters that fold to ASCII letters when
# case is ignored (long s, Kelvin sign, dotted I): with digits, separators and spaces.
_PIECES = st.sampled_from(
    [
        "Rechnung", "RECHNUNGS-NR.", "Invoice No.", "invoice  date", "Netto", "net",
        "Sub-Total", "MwSt", "USt", "Steuer-Nr.", "VAT", "tax", "Gesamtbetrag", "TOTAL",
        "Summe", "Fällig", "échéance", "Bill to", "GmbH", "e.K.", "DE 123 456 789",
        "EUR", "€", "19 %", "1.234,56", "2024-01-09", " ● ", " - ", "      ", "\n", ":",
        "#", "\u017f", "\u212a", "İ", "ß", "x", "7", "[Name]", "{{nr}}", "<<Datum>>",
        "«Firma»", "TT.MM.JJJJ", "INV-XXXX", "XXX",
    ]
)  # fmt: skip
_TEXTS = st.lists(_PIECES, max_size=12).map("".join)


def _unguarded(pattern: re.Pattern[str]) -> re.Pattern[str]:
    match = _GUARD.fullmatch(pattern.pattern)
    return re.compile(match["pattern"] if match else pattern.pattern, pattern.flags)


def _found(pattern: re.Pattern[str], text: str) -> list[object]:
    return [
        [(m.span(), m.groups()) for m in pattern.finditer(text)],
        [line and (m := pattern.match(line)) and m.span() for line in text.splitlines()],
    ]


@pytest.mark.parametrize("name", sorted(LABEL_PATTERNS, key=str))
@settings(max_examples=50, deadline=None)
@given(text=_TEXTS)
def test_labels_find_what_they_found_unguarded(name: object, text: str) -> None:
    pattern = LABEL_PATTERNS[name]
    assert _found(pattern, text) == _found(_unguarded(pattern), text)


def test_the_labels_are_guarded() -> None:
    unguarded = [name for name, p in LABEL_PATTERNS.items() if not _GUARD.fullmatch(p.pattern)]
    assert unguarded == ["WORD"]  # starts with a negated class: any letter


def test_ignoring_case_the_guard_takes_what_the_letter_takes() -> None:
    pattern = guarded(r"\bsteuer\b", re.IGNORECASE)
    assert pattern.pattern.startswith("(?=[s])")
    for text in ("Steuer", "STEUER", "\u017fteuer"):
        assert pattern.search(text)


@pytest.mark.parametrize(
    "pattern",
    [
        r"a*",  # may match empty: no character to look for
        r"(?:x|)y?",
        r"[^a]bc",  # a negated class
        r".bc",
        r"(?i:ab)c",  # flags changed inside
        r"(?P<x>a)?(?P=x)b",  # a back reference
    ],
)
def test_unknown_starts_are_left_alone(pattern: str) -> None:
    assert guarded(pattern).pattern == pattern


def test_the_guard_collects_every_branch_and_optional_start() -> None:
    pattern = guarded(r"(?<![\d.])(?:#|n[°o]\.?)?\s*(\d[A-Z\d-]*)|[a-c_]x")
    assert pattern.pattern.startswith(r"(?=[\#\d\s_a-cn])")
    assert pattern.search("Nr. n° 17-A").group(1) == "17-A"  # type: ignore[union-attr]

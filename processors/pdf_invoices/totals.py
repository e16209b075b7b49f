"""Totals of a PDF invoice: net, VAT and gross found by their labels (on the line, below
a bare label, or in a table column), the VAT breakdown rows, and the cross-check
net + VAT = gross."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

from processors.invoice_model import VatBreakdown
from processors.pdf_invoices.labels import (
    AMOUNT_DUE_LABEL,
    CHARGE_LABEL,
    CURRENCY_MARKS,
    DEDUCTION,
    GROSS_LABEL,
    INCLUSIVE,
    NET_LABEL,
    PERCENT,
    PREPAID_LABEL,
    VAT_LABEL,
    WORD,
)
from processors.pdf_invoices.totals_choice import Candidates, Decision, checks, decide
from processors.results.evidence import EvidenceField
from processors.text_values import (
    COLUMN_DEPTH,
    AmountMatch,
    cells,
    find_amounts,
    is_header_row,
    overlaps,
)

_CENT = Decimal("0.01")


def _label_amounts(
    lines: list[str],
    label: re.Pattern[str],
    exclude: re.Pattern[str] | None,
    skip_zero_rate: bool = False,
    origins: dict[Decimal, str] | None = None,
) -> list[Decimal]:
    """Amounts printed on (or, for a bare label, right after) lines carrying `label`;
    `origins` gets the line each was first read from (the field's evidence)."""
    found: list[Decimal] = []
    origins = {} if origins is None else origins
    for index, line in enumerate(lines):
        if is_header_row(line):
            found.extend(_column_totals(lines, index, label, exclude, origins))
            continue
        match = label.search(line)
        if not match or (exclude is not None and exclude.search(line)):
            continue
        if skip_zero_rate and _zero_rate(line):
            continue
        amounts = find_amounts(line)
        if not amounts and _wrapped_header(lines, index, match.start(), match.end()):
            continue
        on_line = bool(amounts)
        if not amounts and index + 1 < len(lines):
            amounts = _amounts_below(lines[index + 1], match.start(), match.end())
        # Totals carry cents; integers on such lines are capital, counts or ids.
        amounts = [a for a in amounts if a.value.as_tuple().exponent != 0]
        if amounts:
            chosen = _after_label(line, match.end(), amounts) if on_line else amounts[-1]
            source = line if on_line else lines[index + 1]
            for value in (*_space_grouped(source, chosen), abs(chosen.value)):
                found.append(value)
                origins.setdefault(value, source)
    return found


_GROUPS_BEFORE = re.compile(r"(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f]\d{3})*)[ \u00a0\u202f]$")


def _space_grouped(line: str, amount: AmountMatch) -> list[Decimal]:
    """`Total TTC 25 807,37`: thousands grouped by spaces (French) read as 807,37; the
    grouped reading is one more candidate, and the arithmetic decides between them (a
    space also separates a quantity from a price in a table row)."""
    before = _GROUPS_BEFORE.search(line[: amount.start])
    digits = line[amount.start : amount.end].lstrip("-+\u2212 ")
    if before is None or not re.match(r"\d{3}[.,]", digits):
        return []
    grouped = re.sub(r"\D", "", before.group(1)) + "000"
    return [Decimal(grouped) + abs(amount.value)]


def _zero_rate(line: str) -> bool:
    percent = PERCENT.search(line)
    return percent is not None and Decimal(percent.group(1).replace(",", ".")) == 0


def _after_label(line: str, label_end: int, amounts: list[AmountMatch]) -> AmountMatch:
    """The last of the amounts right after the label, up to the next word after one of
    them (a second label and value beside it: `Exclusief BTW € 593,36   Subtotaal
    € 717,97`); without an amount after the label, the last one on the line."""
    run = [a for a in amounts if a.start >= label_end]
    for previous, amount in itertools.pairwise(run):
        if WORD.search(line[previous.end : amount.start]):
            return previous
    return run[-1] if run else amounts[-1]


def _wrapped_header(lines: list[str], index: int, start: int, end: int) -> bool:
    """A bare label under a cell of a row without amounts is the second line of a
    wrapped table header ("Ohne" over "MwSt."), not a label with a value below."""
    if index == 0 or find_amounts(lines[index - 1]):
        return False
    return len(cells(lines[index])) == 1 and any(
        overlaps(cell.start, cell.end, start, end) for cell in cells(lines[index - 1])
    )


def _amounts_below(line: str, start: int, end: int) -> list[AmountMatch]:
    """For a bare label: the next line when it holds nothing but amounts, else the
    first amount in the label's column or right of it (text in a left column is
    another block of the page)."""
    amounts = find_amounts(line)
    rest = line
    for amount in reversed(amounts):
        rest = rest[: amount.start] + rest[amount.end :]
    if amounts and not CURRENCY_MARKS.sub("", rest):
        return amounts
    return [a for a in amounts if a.end >= start - 2][:1]


def _column_totals(
    lines: list[str],
    header: int,
    label: re.Pattern[str],
    exclude: re.Pattern[str] | None,
    origins: dict[Decimal, str],
) -> list[Decimal]:
    """Amounts with cents under the header cells that carry `label` (`Montant HT`,
    `Tax`, `Total` over a table): one of them is the total row."""
    found: list[Decimal] = []
    for cell in cells(lines[header]):
        if not label.search(cell.text) or (exclude is not None and exclude.search(cell.text)):
            continue
        for line in lines[header + 1 : header + 1 + COLUMN_DEPTH]:
            for amount in find_amounts(line):
                if amount.value.as_tuple().exponent == 0:
                    continue
                if overlaps(amount.start, amount.end, cell.start, cell.end):
                    for value in (*_space_grouped(line, amount), abs(amount.value)):
                        found.append(value)
                        origins.setdefault(value, line)
    return found


_NOT_GROSS = re.compile(
    "|".join(p.pattern for p in (NET_LABEL, CHARGE_LABEL, PREPAID_LABEL)), re.IGNORECASE
)
"""A net, a charge or allowance (`Gesamtbetrag der Zuschläge 0,00`) or a prepayment is
no gross, whatever total word it carries."""
_NOT_VAT = re.compile(
    "|".join(p.pattern for p in (NET_LABEL, CHARGE_LABEL, INCLUSIVE)), re.IGNORECASE
)


def totals(
    lines: list[str], negative: bool = False
) -> tuple[Decision, tuple[VatBreakdown, ...], dict[str, Any]]:
    """Every candidate of each total, decided together (`totals_choice`); `negative` for
    a credit note."""
    breakdown = _vat_breakdown(lines)
    origins: dict[EvidenceField, dict[Decimal, str]] = {field: {} for field in _SOURCED}
    nets = _label_amounts(lines, NET_LABEL, CHARGE_LABEL, origins=origins[_NET])
    vats = _label_amounts(lines, VAT_LABEL, _NOT_VAT, True, origins[EvidenceField.VAT_TOTAL])
    if any(_zero_rate(line) and VAT_LABEL.search(line) for line in lines):
        vats.append(Decimal("0.00"))  # at 0 % the amount printed is the base, not the VAT
    vats.extend(_rated_vat_sums(lines))
    if breakdown:
        vats.append(sum((row.tax_amount or Decimal(0) for row in breakdown), Decimal(0)))
        nets.append(sum((row.taxable_amount or Decimal(0) for row in breakdown), Decimal(0)))
    decision = decide(
        Candidates(
            nets=nets,
            vats=vats,
            grosses=_label_amounts(lines, GROSS_LABEL, _NOT_GROSS, origins=origins[_GROSS]),
            dues=_label_amounts(lines, AMOUNT_DUE_LABEL, CHARGE_LABEL, origins=origins[_DUE]),
            prepaids=_label_amounts(lines, PREPAID_LABEL, None),
            printed=frozenset(abs(a.value) for line in lines for a in find_amounts(line)),
            taxed=vat_doubt(lines, Decimal(0)),
            deducted=_deducted(lines),
        )
    )
    decision = replace(decision, sources=_sources(decision, origins))
    decision = decision.signed(negative or _printed_negative(lines, decision.gross))
    return decision, breakdown, checks(decision, len(breakdown))


_NET, _GROSS, _DUE = EvidenceField.NET_TOTAL, EvidenceField.GROSS_TOTAL, EvidenceField.AMOUNT_DUE
_SOURCED = (_NET, EvidenceField.VAT_TOTAL, _GROSS, _DUE)


def _sources(
    decision: Decision, origins: dict[EvidenceField, dict[Decimal, str]]
) -> tuple[tuple[EvidenceField, str], ...]:
    """The line each total chosen was read from (an amount due equal to the gross: the
    gross's line when no amount-due line prints it)."""
    chosen = {
        _NET: decision.net,
        EvidenceField.VAT_TOTAL: decision.vat,
        _GROSS: decision.gross,
        _DUE: decision.amount_due,
    }
    found: dict[EvidenceField, str] = {}
    for field, value in chosen.items():
        line = None if value is None else origins[field].get(abs(value))
        if line is None and field is _DUE and value is not None:
            line = origins[_GROSS].get(abs(value))
        if line is not None:
            found[field] = line
    return tuple(found.items())


def _deducted(lines: list[str]) -> bool:
    """A line with an amount takes something off (`abzgl. geleistete Abschläge`, `Payment
    received`); a charge or allowance (`Abschlag Rabatt -20,00`) is part of the net."""
    return any(
        DEDUCTION.search(line)
        and find_amounts(line)
        and (PREPAID_LABEL.search(line) or not CHARGE_LABEL.search(line))
        for line in lines
    )


def vat_doubt(lines: list[str], vat: Decimal | None) -> bool:
    """No VAT decided, or zero VAT while a line with an amount prints a rate above zero
    (a taxed item, a breakdown row, or a discount: a doubt costs a review, a silent
    wrong VAT costs a booking)."""
    if vat is None:
        return True
    if vat:
        return False
    return any(
        (percent := PERCENT.search(line)) is not None
        and Decimal(percent.group(1).replace(",", ".")) > 0
        and bool(find_amounts(line))
        for line in lines
    )


def _rated_vat_sums(lines: list[str]) -> list[Decimal]:
    """The sum of VAT lines at different rates (`zzgl. 19 % USt. 3.581,93`, `zzgl. 7 % USt.
    749,85`): the VAT total is not one row of them. Lines printed twice (text in content
    order and in layout) count once. Rows grouped by spaces (`TVA 20 % 3 165,29`) give a
    second sum, read grouped; the arithmetic decides."""
    rows: dict[tuple[Decimal, Decimal], Decimal] = {}
    for line in lines:
        percent = PERCENT.search(line)
        if percent is None or not VAT_LABEL.search(line) or _NOT_VAT.search(line):
            continue
        rest = line[percent.end() :]
        amounts = find_amounts(rest)
        rate = Decimal(percent.group(1).replace(",", "."))
        if rate and len(amounts) == 1:
            plain = abs(amounts[0].value)
            rows[(rate, plain)] = max([plain, *_space_grouped(rest, amounts[0])])
    if len({rate for rate, _ in rows}) < 2:
        return []
    plain_sum = sum((plain for _, plain in rows), Decimal(0))
    return sorted({plain_sum, sum(rows.values(), Decimal(0))})


def _printed_negative(lines: list[str], gross: Decimal | None) -> bool:
    """The gross chosen is printed with a minus on a gross line."""
    if gross is None:
        return False
    return any(
        a.value == -gross for line in lines if GROSS_LABEL.search(line) for a in find_amounts(line)
    )


def _vat_breakdown(lines: list[str]) -> tuple[VatBreakdown, ...]:
    """Rows printing a rate and a base and tax that fit it (tax = base x rate)."""
    rows: dict[tuple[Decimal, Decimal], VatBreakdown] = {}
    for line in lines:
        percent = PERCENT.search(line)
        if not percent:
            continue
        rate = Decimal(percent.group(1).replace(",", "."))
        amounts = [a.value for a in find_amounts(line[percent.end() :])]
        row = _base_and_tax(rate, amounts)
        if row and (rate, row[0]) not in rows:
            rows[(rate, row[0])] = VatBreakdown("S" if rate else "Z", rate, row[0], row[1])
    return tuple(rows.values())


def _base_and_tax(rate: Decimal, amounts: list[Decimal]) -> tuple[Decimal, Decimal] | None:
    """The base and the tax that fit the rate; at 0 % a base followed by a zero tax (an
    exempt or reverse-charge row)."""
    if rate == 0:
        pairs = itertools.pairwise(amounts)
        return next(((base, tax) for base, tax in pairs if base > 0 and tax == 0), None)
    for i, base in enumerate(amounts):
        for tax in amounts[i + 1 :]:
            if base > 0 and abs((base * rate / 100).quantize(_CENT) - tax) <= _CENT and tax > 0:
                return base, tax
    return None

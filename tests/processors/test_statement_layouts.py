"""Bank statements from any bank: every generated layout read field by field (text
layer), a few scanned (OCR), and the reader's general rules on small texts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from processors.bank_statement import BankStatementProcessor, parse
from processors.base import DocumentType, ProcessingError
from processors.ocr import ocr_available
from processors.statements.tokens import decimal_comma, find_amounts, find_dates
from testkit.statements.layouts import LAYOUT, LAYOUTS
from testkit.statements.measure import Score, score
from testkit.statements.render import render
from tests.processors.conftest import context
from tests.processors.scans import GRADE, scan

PROCESSOR = BankStatementProcessor()
MIN_FIELDS_EXACT = 0.98
SCANNED = ("revolut_en", "card_sg")
"""One-page scans: OCR takes seconds a page."""


def _score(name: str, pdf: bytes | None = None) -> Score:
    rendered = render(LAYOUT[name])
    try:
        data = PROCESSOR.process(pdf or rendered.pdf, context(DocumentType.BANK_STATEMENT)).data
    except ProcessingError as error:
        return score(rendered, name, str(error.code))
    return score(rendered, name, data)


HELD_OUT_MISSES = {
    "neobank_nl": "held out (issue 40): its booking type 'Kaarttransactie' is not in the "
    "vocabulary, so it is read as part of the counterparty (94.9 % of fields)",
    "beleggen_overview_nl": "held out (issue 40): its booking types 'Storting' and "
    "'Servicekosten', alone on the first line, are not in the vocabulary and are read as "
    "the counterparty (97.2 % of fields)",
    "crypto_side_nl": "held out (issue 40): 'Storting' and 'Servicekosten' as in "
    "beleggen_overview_nl (97.0 % of fields)",
    "portfolio_holdings_en": "held out (issue 40): the overview's product header (`Paid in`, "
    "`Paid out`) stands within four lines of the cash table and names its columns: the "
    "money-in column is taken as a debit, one deposit is lost, no reconciliation",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            layout.name,
            marks=[pytest.mark.xfail(reason=HELD_OUT_MISSES[layout.name], strict=True)]
            if layout.name in HELD_OUT_MISSES
            else [],
        )
        for layout in LAYOUTS
    ],
)
def test_every_layout_read_field_by_field(name: str) -> None:
    result = _score(name)
    assert result.failure is None
    assert (result.found, result.extra) == (result.printed, 0), result.misses
    assert result.fields_exact >= MIN_FIELDS_EXACT * result.fields_total, result.misses
    assert result.balances in (True, None), result.misses
    assert result.reconciled in (True, None)
    assert (result.balances is None) is (LAYOUT[name].balances.value == "none")


@pytest.mark.skipif(ocr_available() is not None, reason="Tesseract not installed")
@pytest.mark.parametrize("name", SCANNED)
def test_scanned_layout_read_by_ocr(name: str) -> None:
    result = _score(name, scan(render(LAYOUT[name]).pdf, GRADE["g1-office"]))
    assert result.failure is None
    assert result.found == result.printed, result.misses
    assert result.hits["amount"] == result.printed
    assert result.hits["bookingDate"] == result.printed
    assert result.fields_exact >= MIN_FIELDS_EXACT * result.fields_total, result.misses
    assert result.balances is True and result.reconciled is True, result.misses


@pytest.mark.parametrize(
    ("text", "comma", "expected"),
    [
        ("07.12.2021", True, date(2021, 12, 7)),
        ("07.12.21", True, date(2021, 12, 7)),
        ("2021-12-07", False, date(2021, 12, 7)),
        ("07-12-2021", True, date(2021, 12, 7)),
        ("7 Dec 2021", False, date(2021, 12, 7)),
        ("07 DEC", False, date(2021, 12, 7)),
        ("7. Dezember 2021", True, date(2021, 12, 7)),
        ("7 déc. 2021", True, date(2021, 12, 7)),
        ("Dec 7, 2021", False, date(2021, 12, 7)),
        ("7 dicembre 2021", True, date(2021, 12, 7)),
        ("07.12", True, date(2021, 12, 7)),
    ],
)
def test_date_formats(text: str, comma: bool, expected: date) -> None:
    [token] = find_dates(text, comma)
    assert token.resolve(False, date(2021, 12, 31)) == expected


def test_day_and_month_without_a_year_before_the_statement_end_take_its_year() -> None:
    [token] = find_dates("28.12.", True)
    assert token.resolve(False, date(2022, 1, 4)) == date(2021, 12, 28)


def test_a_dot_date_is_an_amount_where_amounts_use_a_decimal_point() -> None:
    assert find_dates("07.12", False) == []
    assert [a.value for a in find_amounts("07.12", False)] == [Decimal("7.12")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("-1.234,56", "-1234.56"),
        ("1,234.56", "1234.56"),
        ("1 234,56 €", "1234.56"),
        ("1.234,56-", "-1234.56"),
        ("1.234,56 S", "-1234.56"),
        ("1.234,56 H", "1234.56"),
        ("500.00 CR", "500.00"),
        ("12.00 DR", "-12.00"),
        ("-€12.00", "-12.00"),
        ("+2.500,00€", "2500.00"),
        ("- 580,06", "-580.06"),
    ],
)
def test_amount_formats(text: str, value: str) -> None:
    [amount] = find_amounts(text, decimal_comma(text))
    assert amount.value == Decimal(value)


def test_unsigned_columns_take_their_sign_from_the_running_balance() -> None:
    """No header, no signs: the column that carries the previous balance plus the row's
    amount is the balance, and it signs the amounts."""
    text = (
        "Opening balance                                            100.00\n"
        "01/03/2025   Coffee shop                         4.50      95.50\n"
        "02/03/2025   Salary                            900.00     995.50\n"
        "03/03/2025   Rent                              700.00     295.50\n"
        "Closing balance                                            295.50\n"
    )
    reading = parse(text)
    amounts = [t.amount for t in reading.transactions]
    assert amounts == [Decimal("-4.50"), Decimal("900.00"), Decimal("-700.00")]
    assert reading.reconciled is True


def test_debit_and_credit_columns_by_their_header_words() -> None:
    text = (
        "Data         Descrizione                      Dare         Avere\n"
        "03/03/2025   Bonifico Rossi Srl             120,00\n"
        "04/03/2025   Stipendio                                  2.000,00\n"
        "05/03/2025   Pagamento POS Bar                 3,50\n"
    )
    reading = parse(text)
    assert [t.amount for t in reading.transactions] == [
        Decimal("-120.00"),
        Decimal("2000.00"),
        Decimal("-3.50"),
    ]


def test_purpose_lines_end_at_a_footer_and_at_the_page_end() -> None:
    page = (
        "Buchungstag   Text                                   Betrag\n"
        "03.03.2025    Lastschrift Stadtwerke                 -50,00\n"
        "              Abschlag März\n"
        "                                                     Seite 1 von 2\n"
        "Musterbank AG - Sitz Musterstadt - HRB 1234 - Vorstand: A. Muster, B. Beispiel\n"
    )
    reading = parse([page, "Buchungstag   Text     Betrag\n"])
    assert reading.transactions[0].purpose == ["Abschlag März"]

"""The due date a person reads or computes from the payment terms, the amount due after
what was paid before, and the doubt on each value that might be wrong (issue 36, task
h36totals; docs/pdf_invoices.md, "Terms, prepayments and doubts")."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from processors.pdf_invoices.fields import read_invoice
from processors.pdf_invoices.terms import computed_due, due_date
from processors.results.evidence import EvidenceField

_HEAD = "Rechnung Nr. 2024-17 vom 03.02.2024\n"
_TOTALS = "Nettobetrag: 1.000,00 EUR\nUSt. 19 %: 190,00 EUR\nGesamtbetrag: 1.190,00 EUR\n"


@pytest.mark.parametrize(
    ("terms", "days"),
    [
        ("Zahlbar innerhalb von 14 Tagen ohne Abzug.", 14),
        ("Zahlungsbedingungen: Netto 30 Tage", 30),
        ("Zahlungsziel: 10 Tage netto ab Rechnungsdatum.", 10),
        ("Payment terms: payable within 30 days of the invoice date.", 30),
        ("Terms: Net 45", 45),
        ("Paiement à 30 jours date de facture.", 30),
        ("Betaling binnen 14 dagen na factuurdatum.", 14),
        ("Bei Zahlung innerhalb von 8 Tagen 2 % Skonto, innerhalb von 30 Tagen netto.", 30),
        ("Payment terms: 21 days", 21),
        ("Conditions de paiement : 45 jours", 45),
        ("Der Rechnungsbetrag ist sofort fällig.", 0),
        ("Payable upon receipt", 0),
    ],
)
def test_a_due_date_is_computed_from_the_terms_and_doubted(terms: str, days: int) -> None:
    due = due_date([terms], date(2024, 2, 3), month_first=False)
    assert due.value == date(2024, 2, 3).fromordinal(date(2024, 2, 3).toordinal() + days)
    assert due.computed and due.doubt is not None and f"{days} days" in due.doubt
    assert due.source is not None and due.source in terms


def test_days_of_other_things_are_no_terms() -> None:
    lines = [
        "Rückgabe innerhalb von 30 Tagen möglich.",
        "Bei Zahlungsverzug berechnen wir Zinsen nach 30 Tagen.",
        "Nettobetrag 100,00",
    ]
    assert computed_due(lines, date(2024, 2, 3)).value is None


def test_a_discount_line_gives_its_net_date() -> None:
    due = due_date(
        ["Bei Zahlung bis 10.02.2024 2 % Skonto, netto bis 04.03.2024."], None, month_first=False
    )
    assert (due.value, due.doubt) == (date(2024, 3, 4), None)


def test_a_discount_date_on_its_own_line_is_not_the_due_date() -> None:
    lines = ["Zahlbar bis 10.02.2024 mit 2 % Skonto", "Zahlbar bis 04.03.2024 ohne Abzug"]
    due = due_date(lines, None, month_first=False)
    assert (due.value, due.doubt) == (date(2024, 3, 4), None)


def test_a_date_before_the_due_label_on_its_line_is_another_one() -> None:
    due = due_date(["Date : 06/01/2025    Échéance : 20/01/2025"], None, month_first=False)
    assert (due.value, due.doubt) == (date(2025, 1, 20), None)


def test_an_allowance_is_no_deduction_from_the_gross() -> None:
    text = _HEAD + "Abschlag Rabatt -20,00\n" + _TOTALS
    assert EvidenceField.AMOUNT_DUE not in read_invoice(text).doubts


def test_two_different_printed_due_dates_are_doubted() -> None:
    due = due_date(["Fällig am 17.02.2024", "Zahlbar bis 20.02.2024"], None, month_first=False)
    assert due.value == date(2024, 2, 17)
    assert due.doubt == "two different due dates are printed"


def test_a_computed_due_date_is_low_but_no_review() -> None:
    reading = read_invoice(_HEAD + _TOTALS + "Zahlbar innerhalb von 14 Tagen ohne Abzug.\n")
    assert reading.invoice.due_date == date(2024, 2, 17)
    assert EvidenceField.DUE_DATE in reading.doubts
    assert reading.checks["needsReview"] is False
    assert reading.sources[EvidenceField.DUE_DATE] == "innerhalb von 14 Tagen"


def test_instalments_deducted_give_the_rest_due() -> None:
    text = _HEAD + _TOTALS + "abzgl. geleistete Abschläge -600,00 EUR\nRestbetrag 590,00 EUR\n"
    reading = read_invoice(text)
    assert reading.invoice.totals.amount_due == Decimal("590.00")
    assert reading.invoice.totals.prepaid == Decimal("600.00")
    assert reading.checks["totals"] == "passed"
    assert reading.sources[EvidenceField.AMOUNT_DUE] == "Restbetrag 590,00 EUR"


def test_an_amount_due_not_printed_beside_a_deduction_is_low() -> None:
    text = _HEAD + _TOTALS + "Bereits durch Lastschrift eingezogen: Teilbetrag 300,00 EUR bezahlt\n"
    reading = read_invoice(text)
    assert reading.invoice.totals.amount_due == Decimal("1190.00")
    assert "deducts" in reading.doubts[EvidenceField.AMOUNT_DUE]
    assert reading.checks["needsReview"] is True


def test_an_amount_due_equal_to_the_gross_beside_a_prepayment_is_low() -> None:
    text = _HEAD + _TOTALS + "Anzahlung 500,00 EUR\nZu zahlen 1.190,00 EUR\n"
    reading = read_invoice(text)
    assert reading.doubts[EvidenceField.AMOUNT_DUE].startswith("a prepayment is printed")


def test_a_gross_found_without_its_label_is_low() -> None:
    text = _HEAD + "Nettobetrag: 1.000,00 EUR\nUSt. 19 %: 190,00 EUR\nEUR 1.190,00\n"
    reading = read_invoice(text)
    assert reading.invoice.totals.gross == Decimal("1190.00")
    assert reading.doubts[EvidenceField.GROSS_TOTAL].startswith("no gross is labelled")

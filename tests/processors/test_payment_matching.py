"""Payments matched to invoices (processors/payment_matching.py, issue 42 part 4),
measured on generated statements and invoices with known pairs."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from processors.payment_matching import (
    OpenInvoice,
    Payment,
    Reason,
    compact,
    match_payments,
    names_alike,
)
from tests.processors.payment_sets import payment_set

# Measured 2026-11-28 over 5 generated sets: precision 100 % (651 proposals), recall
# 98.6 % (of 660 pairs); held as floors at the targets.
PRECISION_FLOOR = 0.98
RECALL_FLOOR = 0.90
SEEDS = range(5)


def _measure() -> tuple[float, float, int, int]:
    proposed = correct = wanted = 0
    for seed in SEEDS:
        made = payment_set(seed)
        matches = match_payments(made.payments, made.invoices)
        found = {(m.payment, m.invoice) for m in matches}
        proposed += len(found)
        correct += len(found & made.pairs)
        wanted += len(made.pairs)
    return correct / proposed, correct / wanted, proposed, wanted


def test_precision_and_recall_on_generated_sets_hold_their_floors() -> None:
    precision, recall, proposed, wanted = _measure()
    assert proposed and wanted
    assert precision >= PRECISION_FLOOR, (precision, recall)
    assert recall >= RECALL_FLOOR, (precision, recall)


INVOICE = OpenInvoice(
    "a",
    True,
    "RE-2024-0815",
    date(2024, 3, 9),
    Decimal("119.00"),
    "EUR",
    "Beispiel Handel GmbH",
    ("DE89370400440532013000",),
)


def _payment(
    amount: str, purpose: str, name: str | None = None, iban: str | None = None
) -> Payment:
    return Payment(("s", 0), Decimal(amount), "EUR", date(2024, 3, 20), name, iban, purpose)


def test_the_number_with_ocr_noise_and_other_separators_matches() -> None:
    assert compact("RE 2024 O8I5") == "RE20240815"
    (match,) = match_payments([_payment("-119.00", "Rechnung re2024O815")], [INVOICE])
    assert match.reasons[:2] == (Reason.AMOUNT_EXACT, Reason.NUMBER)


def test_a_discount_up_to_three_percent_settles_the_invoice() -> None:
    (match,) = match_payments([_payment("-115.43", "RE-2024-0815 Skonto")], [INVOICE])
    assert Reason.AMOUNT_DISCOUNT in match.reasons and match.amount == Decimal("119.00")
    assert match_payments([_payment("-110.00", "Zahlung")], [INVOICE]) == []


def test_incoming_payments_never_pay_supplier_invoices() -> None:
    assert match_payments([_payment("119.00", "RE-2024-0815")], [INVOICE]) == []


def test_partial_payments_and_one_payment_for_two_invoices() -> None:
    first = Payment(
        ("s", 0), Decimal("-60.00"), "EUR", date(2024, 3, 20), None, None, "RE-2024-0815 Rate 1"
    )
    second = Payment(
        ("s", 1), Decimal("-59.00"), "EUR", date(2024, 4, 20), None, None, "RE-2024-0815 Rest"
    )
    matches = match_payments([first, second], [INVOICE])
    assert [m.amount for m in sorted(matches, key=lambda m: m.payment)] == [
        Decimal("60.00"),
        Decimal("59.00"),
    ]
    other = OpenInvoice(
        "b",
        True,
        "RE-2024-0816",
        date(2024, 3, 10),
        Decimal("81.00"),
        "EUR",
        "Beispiel Handel GmbH",
    )
    both = match_payments([_payment("-200.00", "RE-2024-0815 RE-2024-0816")], [INVOICE, other])
    assert {m.invoice for m in both} == {"a", "b"}
    assert all(Reason.AMOUNT_GROUP in m.reasons for m in both)


def test_names_compare_without_legal_form_case_and_accents() -> None:
    assert names_alike("BUEROBEDARF MUELLER", "Bürobedarf Müller KG")  # alike enough
    assert names_alike("BÜROBEDARF MÜLLER", "Bürobedarf Müller KG")
    assert not names_alike("Stadtwerke Nord", "Software Wagner AG")

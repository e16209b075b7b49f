"""BankStatementProcessor: generated statements field by field, and the shared corpus."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from processors.bank_statement import BankStatementProcessor, parse
from processors.base import DocumentType, FailureCode, FileKind, ProcessingError, ResultType
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    Booking,
    StatementSpec,
    english_statement,
    german_invoice,
    german_statement,
)
from tests.processors.conftest import context, manifest_rows, row_id

PROCESSOR = BankStatementProcessor()
LAYOUTS = {"german": german_statement, "english": english_statement}
SPECS = {
    "sample": SAMPLE_STATEMENT,
    "negative_opening_large": replace(
        SAMPLE_STATEMENT,
        number="12",
        opening=Decimal("-683.68"),
        bookings=(
            *SAMPLE_STATEMENT.bookings,
            Booking(
                date(2024, 2, 20),
                date(2024, 2, 20),
                Decimal("-61.02"),
                "Total Tankstelle",
                ("Summe Tanken 20.02.", "Karte 1234"),
            ),
            Booking(
                date(2024, 2, 29),
                date(2024, 3, 1),
                Decimal("12345.67"),
                "Kunde Nord GmbH",
                ("Rechnung RE-2024-0815", "vielen Dank"),
            ),
        ),
    ),
}


def _read(pdf: bytes) -> dict[str, Any]:
    outcome = PROCESSOR.process(pdf, context(DocumentType.BANK_STATEMENT))
    assert outcome.result_type is ResultType.BANK_STATEMENT
    return dict(outcome.data)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("spec_name", SPECS)
def test_generated_statement_fields(layout: str, spec_name: str) -> None:
    spec: StatementSpec = SPECS[spec_name]
    data = _read(LAYOUTS[layout](spec))
    statement = data["statement"]
    assert statement["accountIban"] == spec.iban
    assert statement["number"] == spec.number
    assert statement["periodStart"] == spec.start.isoformat()
    assert statement["periodEnd"] == spec.end.isoformat()
    assert statement["currency"] == "EUR"
    assert Decimal(statement["openingBalance"]) == spec.opening
    assert Decimal(statement["closingBalance"]) == spec.closing
    assert data["reconciled"] is True
    assert len(data["transactions"]) == len(spec.bookings)
    for read, booking in zip(data["transactions"], spec.bookings, strict=True):
        assert read["bookingDate"] == booking.booking.isoformat()
        assert read["valueDate"] == booking.value.isoformat()
        assert Decimal(read["amount"]) == booking.amount
        assert read["currency"] == "EUR"
        assert read["counterpartyName"] == booking.counterparty
        assert read["confirmed"] is False
        for text in booking.purpose:
            assert text in read["purpose"]
    assert data["transactions"][0]["counterpartyIban"] == "DE02120300000000202051"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_balances_that_do_not_reconcile_are_flagged(layout: str) -> None:
    wrong = replace(SAMPLE_STATEMENT, closing_override=Decimal("999.99"))
    data = _read(LAYOUTS[layout](wrong))
    assert data["reconciled"] is False
    assert data["statement"]["closingBalance"] == "999.99"
    assert len(data["transactions"]) == len(SAMPLE_STATEMENT.bookings)


def test_statement_without_transactions() -> None:
    empty = replace(SAMPLE_STATEMENT, bookings=())
    with pytest.raises(ProcessingError) as raised:
        PROCESSOR.process(german_statement(empty), context(DocumentType.BANK_STATEMENT))
    assert raised.value.code is FailureCode.NO_TRANSACTIONS_FOUND


def test_invoice_is_not_a_bank_statement() -> None:
    with pytest.raises(ProcessingError) as raised:
        PROCESSOR.process(german_invoice(SAMPLE_INVOICE), context(DocumentType.BANK_STATEMENT))
    assert raised.value.code is FailureCode.NOT_A_BANK_STATEMENT


def test_scores_only_pdfs_sent_as_bank_statement() -> None:
    assert PROCESSOR.score(FileKind.PDF, b"%PDF", context(DocumentType.BANK_STATEMENT)) == 60
    assert PROCESSOR.score(FileKind.PDF, b"%PDF", context(DocumentType.AUTO)) == 0
    assert PROCESSOR.score(FileKind.XML, b"<a/>", context(DocumentType.BANK_STATEMENT)) == 0


@pytest.mark.parametrize("row", manifest_rows("bank_statement"), ids=row_id)
def test_corpus_bank_statement(row: dict[str, Any], corpus: Path) -> None:
    data = _read((corpus / row["file"]).read_bytes())
    transactions = data["transactions"]
    assert transactions
    assert all(t["bookingDate"] and t["amount"] for t in transactions)
    statement = data["statement"]
    printed = statement["openingBalance"] is not None and statement["closingBalance"] is not None
    total = sum((Decimal(t["amount"]) for t in transactions), Decimal(0))
    if printed:
        reconciles = Decimal(statement["openingBalance"]) + total == Decimal(
            statement["closingBalance"]
        )
        # Never claimed without the sum behind it.
        assert data["reconciled"] is reconciles


STATEMENT_TRUTH: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "corpus_truth.json").read_text(encoding="utf-8")
)["statements"]


@pytest.mark.parametrize("row", manifest_rows("bank_statement"), ids=row_id)
def test_corpus_statement_every_printed_transaction_found_and_reconciled(
    row: dict[str, Any], corpus: Path
) -> None:
    truth = STATEMENT_TRUTH[Path(row["file"]).name]
    data = _read((corpus / row["file"]).read_bytes())
    assert len(data["transactions"]) == truth["transactions"]
    assert data["statement"]["openingBalance"] == truth["openingBalance"]
    assert data["statement"]["closingBalance"] == truth["closingBalance"]
    assert data["reconciled"] is True
    assert data["source"] == {"container": "pdf", "method": "text"}


@pytest.mark.parametrize("row", manifest_rows("plain_pdf", "plain_invoice")[:4], ids=row_id)
def test_corpus_non_statements_are_refused(row: dict[str, Any], corpus: Path) -> None:
    with pytest.raises(ProcessingError) as raised:
        PROCESSOR.process((corpus / row["file"]).read_bytes(), context(DocumentType.BANK_STATEMENT))
    assert raised.value.code in (
        FailureCode.NOT_A_BANK_STATEMENT,
        FailureCode.NO_TRANSACTIONS_FOUND,
    )


def test_amount_run_into_the_value_date_is_read() -> None:
    """Some text layers draw the amount before the value date and booking text and run
    them together (Postbank, page 2 of the corpus sample)."""
    text = (
        "Buchung  Wert  Vorgang/Buchungsinformation            Soll      Haben\n"
        "28.01.                                        + 2.780,7028.01.Gutschr. SEPA\n"
        "                  BEZUEGE PERS.NR. 70600170/01\n"
        "29.01.                                        -  328,7529.01.SEPA Überw. Einzel\n"
        "                  FINANZKASSE KOELN-SUED\n"
    )
    reading = parse(text)
    assert [(t.booking, t.value, t.amount) for t in reading.transactions] == [
        ("28.01.", "28.01.", Decimal("2780.70")),
        ("29.01.", "29.01.", Decimal("-328.75")),
    ]
    assert reading.transactions[0].first_line == "Gutschr. SEPA"
    assert reading.transactions[1].purpose == ["FINANZKASSE KOELN-SUED"]

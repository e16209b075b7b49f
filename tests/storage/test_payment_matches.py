"""Payments matched to invoices in storage (storage/repositories/payment_matches.py):
confirming a statement's transaction proposes the invoice it pays, a decision stands,
a rejected pair is not proposed again, and a paid invoice is no longer open."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any

from processors.base import CompanyProfile, DocumentType, ProcessingContext
from processors.pipeline import read_document
from storage.db import Database
from storage.models import Result
from storage.payment_match_models import MatchStatus
from storage.repositories import payment_matches, web_results
from storage.repositories import results as result_repo
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    Booking,
    german_invoice,
    german_statement,
)
from tests.conftest import Tenant

GROSS = SAMPLE_INVOICE.gross


@cache
def _data(kind: str) -> dict[str, Any]:
    company = CompanyProfile(name="Kunde Digital KG")
    if kind == "invoice":
        spec = replace(SAMPLE_INVOICE, seller_vat_id="DE136695976")
        context = ProcessingContext(DocumentType.SUPPLIER_INVOICE, "upload", company)
        return read_document(german_invoice(spec), context).data
    booking = Booking(
        date(2024, 3, 20), date(2024, 3, 20), -GROSS, "Beispiel Handel GmbH", ("RE 2024 O815",)
    )
    statement = replace(
        SAMPLE_STATEMENT, bookings=(booking,), start=date(2024, 3, 1), end=date(2024, 3, 31)
    )
    context = ProcessingContext(DocumentType.BANK_STATEMENT, "upload", company)
    return read_document(german_statement(statement), context).data


def _book(database: Database, tenant: Tenant, kind: str) -> uuid.UUID:
    with database.session() as session:
        result_type = "invoice" if kind == "invoice" else "bank_statement"
        result = result_repo.book_result(
            session, tenant.company_id, kind[:8] * 8, result_type, _data(kind)
        )
        session.commit()
        return result.id


def _confirm(database: Database, statement_id: uuid.UUID) -> None:
    with database.session() as session:
        statement = session.get(Result, statement_id)
        assert statement is not None
        web_results.confirm_transactions(session, statement, [0], None)
        session.commit()


def test_a_confirmed_payment_is_proposed_for_its_invoice_and_accepted(
    database: Database, tenant: Tenant
) -> None:
    invoice_id = _book(database, tenant, "invoice")
    statement_id = _book(database, tenant, "statement")
    _confirm(database, statement_id)
    with database.read_session() as session:
        (ref,) = payment_matches.matches_of_invoice(session, invoice_id)
        assert ref.row.statement_result_id == statement_id and ref.row.position == 0
        assert ref.row.amount == GROSS and ref.row.status == "proposed"
        assert "number_in_reference" in ref.row.reasons
        assert ref.statement_number == SAMPLE_STATEMENT.number
        open_amounts = {
            i.key: i.open_amount for i in payment_matches.open_invoices(session, tenant.company_id)
        }
        assert open_amounts[str(invoice_id)] == Decimal(0)
    with database.session() as session:
        row = payment_matches.decide(
            session, tenant.company_id, ref.row.id, MatchStatus.ACCEPTED, None
        )
        assert row is not None and row.status == "accepted"
        again = payment_matches.decide(
            session, tenant.company_id, ref.row.id, MatchStatus.REJECTED, None
        )
        assert again is not None and again.status == "accepted"  # the first decision stands
        session.commit()


def test_a_rejected_pair_is_not_proposed_again_and_another_company_sees_nothing(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    invoice_id = _book(database, tenant, "invoice")
    statement_id = _book(database, tenant, "statement")
    _confirm(database, statement_id)
    with database.session() as session:
        (ref,) = payment_matches.matches_of_statement(session, statement_id)
        assert (
            payment_matches.decide(
                session, other_tenant.company_id, ref.row.id, MatchStatus.ACCEPTED, None
            )
            is None
        )
        payment_matches.decide(session, tenant.company_id, ref.row.id, MatchStatus.REJECTED, None)
        statement = session.get(Result, statement_id)
        assert statement is not None
        assert payment_matches.match_statement(session, statement) == []
        session.commit()
    with database.read_session() as session:
        (ref,) = payment_matches.matches_of_invoice(session, invoice_id)
        assert ref.row.status == "rejected"


def test_the_tables_carry_the_matches_and_the_invoices_content_items(
    database: Database, tenant: Tenant
) -> None:
    from storage.models import utcnow
    from storage.repositories.exports import Partition, results_in
    from storage.tables.result_frames import ResultRows
    from storage.tables.result_schemas import INVOICE_CONTENT_ITEMS, PAYMENT_MATCHES

    invoice_id = _book(database, tenant, "invoice")
    statement_id = _book(database, tenant, "statement")
    _confirm(database, statement_id)
    rows = ResultRows()
    with database.read_session() as session:
        for chunk in results_in(session, Partition(tenant.company_id, utcnow().date()), 100):
            rows.add(chunk)
    (match,) = rows.frame(PAYMENT_MATCHES).to_dicts()
    assert (match["result_id"], match["invoice_result_id"]) == (str(statement_id), str(invoice_id))
    assert match["status"] == "proposed" and match["amount"] == GROSS
    items = rows.frame(INVOICE_CONTENT_ITEMS)
    assert items.height == 12 and set(items["status"]) <= {
        "present",
        "missing",
        "not_determinable",
        "not_applicable",
        "not_required",
    }

"""The supplier IBANs kept in storage (storage/repositories/bank_accounts.py): only live
invoices count, noting twice adds nothing, and purging a deleted result takes its
accounts and warnings with it. On both backends."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import timedelta
from functools import cache
from typing import Any

from sqlalchemy import func, select

from processors.base import CompanyProfile, DocumentType, ProcessingContext
from processors.pipeline import read_document
from storage.bank_account_models import AccountWarningRow, PayeeAccount
from storage.db import Database
from storage.models import utcnow
from storage.repositories import bank_accounts, retention
from storage.repositories import results as result_repo
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.conftest import Tenant

FIRST_IBAN = "DE89370400440532013000"
SECOND_IBAN = "DE02120300000000202051"


@cache
def _invoice_data(number: str, iban: str) -> dict[str, Any]:
    spec = replace(SAMPLE_INVOICE, number=number, iban=iban, seller_vat_id="DE136695976")
    context = ProcessingContext(
        DocumentType.SUPPLIER_INVOICE, "upload", CompanyProfile(name="Kunde Digital KG")
    )
    data = read_document(german_invoice(spec), context).data
    assert data["direction"] == "supplier_invoice"
    return data


def _book(database: Database, tenant: Tenant, number: str, iban: str) -> uuid.UUID:
    data = _invoice_data(number, iban)
    with database.session() as session:
        result = result_repo.book_result(session, tenant.company_id, number * 8, "invoice", data)
        bank_accounts.note_invoice(session, tenant.company_id, result.id, data)
        bank_accounts.note_invoice(session, tenant.company_id, result.id, data)  # no-op
        session.commit()
    return result.id


def _count(database: Database, model: Any) -> int:
    with database.read_session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_a_deleted_invoices_iban_no_longer_counts_and_purging_takes_its_rows(
    database: Database, tenant: Tenant
) -> None:
    first = _book(database, tenant, "A1", FIRST_IBAN)
    assert _count(database, PayeeAccount) == 1
    with database.session() as session:
        result = session.get(result_repo.Result, first)
        assert result is not None
        result.deleted_at = utcnow() - timedelta(days=400)
        session.commit()
    second = _book(database, tenant, "B2", SECOND_IBAN)
    with database.read_session() as session:
        assert bank_accounts.warnings_of(session, second) == []  # the deleted one is gone
    third = _book(database, tenant, "C3", FIRST_IBAN)
    with database.read_session() as session:
        (warning,) = bank_accounts.warnings_of(session, third)
        assert warning.known_ibans == [SECOND_IBAN]
    with database.session() as session:
        purged = retention.purge_deleted_results(session, utcnow() - timedelta(days=1))
        session.commit()
    assert purged == 1
    assert _count(database, PayeeAccount) == 2 and _count(database, AccountWarningRow) == 1


def test_the_warnings_are_in_the_tables_with_their_invoice(
    database: Database, tenant: Tenant
) -> None:
    from storage.repositories.exports import Partition, results_in
    from storage.tables.result_frames import ResultRows
    from storage.tables.result_schemas import BANK_ACCOUNT_WARNINGS

    _book(database, tenant, "T1", FIRST_IBAN)
    changed = _book(database, tenant, "T2", SECOND_IBAN)
    rows = ResultRows()
    with database.read_session() as session:
        for chunk in results_in(session, Partition(tenant.company_id, utcnow().date()), 100):
            rows.add(chunk)
    (warning,) = rows.frame(BANK_ACCOUNT_WARNINGS).to_dicts()
    assert (warning["result_id"], warning["reason"], warning["iban"]) == (
        str(changed),
        "new_iban",
        SECOND_IBAN,
    )
    assert warning["known_ibans"] == [FIRST_IBAN] and warning["decision"] is None

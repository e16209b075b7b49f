"""The `vat_id_checks` status table (issue 42, part 2): every VAT id printed on an invoice
with its offline verdict, and the online confirmation kept as proof beside it. The
confirmation comes from the real client against the local eVatR server
(tests/support/vat_services.py); on both backends."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from flows import vat_confirm
from processors.base import CompanyProfile, DocumentType, ProcessingContext
from processors.pipeline import read_document
from processors.results import result_from_dict
from processors.results.invoice import InvoiceResult
from processors.tax_ids import tax_id_checks
from storage.db import Database
from storage.models import utcnow
from storage.repositories import results as result_repo
from storage.repositories.exports import Partition, results_in
from storage.settings import Settings
from storage.tables.result_frames import ResultRows
from storage.tables.result_schemas import VAT_ID_CHECKS
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.conftest import Tenant
from tests.support.vat_services import vat_services

AUSTRIAN = "ATU13585627"


def _invoice_data() -> dict[str, Any]:
    """A PDF invoice as read, its seller's VAT id an Austrian one, checked offline again."""
    spec = replace(SAMPLE_INVOICE, number="AT-7", seller_vat_id="DE136695976")
    context = ProcessingContext(
        DocumentType.SUPPLIER_INVOICE, "upload", CompanyProfile(name="Kunde Digital KG")
    )
    read = result_from_dict("invoice", read_document(german_invoice(spec), context).data)
    assert isinstance(read, InvoiceResult)
    invoice = replace(read.invoice, seller=replace(read.invoice.seller, vat_id=AUSTRIAN))
    return replace(read, invoice=invoice, tax_ids=tax_id_checks(invoice)).to_dict()


def _rows(database: Database, tenant: Tenant) -> list[dict[str, Any]]:
    rows = ResultRows()
    with database.read_session() as session:
        for chunk in results_in(session, Partition(tenant.company_id, utcnow().date()), 100):
            rows.add(chunk)
    return rows.frame(VAT_ID_CHECKS).to_dicts()


def _book(database: Database, tenant: Tenant) -> uuid.UUID:
    with database.session() as session:
        result = result_repo.book_result(
            session, tenant.company_id, uuid.uuid4().hex * 2, "invoice", _invoice_data()
        )
        session.commit()
        return result.id


def test_the_table_carries_each_vat_id_with_its_offline_and_online_verdicts(
    database: Database, tenant: Tenant, settings: Settings
) -> None:
    result_id = _book(database, tenant)
    (before,) = [row for row in _rows(database, tenant) if row["party"] == "seller"]
    assert (before["value"], before["verdict"], before["country"]) == (AUSTRIAN, "valid", "AT")
    assert before["online_confirmed"] is None and before["online_service"] is None

    with vat_services() as server:
        configured = settings.model_copy(
            update={
                "vat_confirm_service": "evatr",
                "vat_confirm_endpoint": server.evatr,
                "vat_confirm_own_vat_id": "DE136695976",
            }
        )
        assert vat_confirm.confirm_result(database, configured, result_id) == 1

    (seller,) = [row for row in _rows(database, tenant) if row["party"] == "seller"]
    assert seller["result_id"] == str(result_id) and seller["kind"] == "vat_id"
    assert (seller["online_service"], seller["online_confirmed"]) == ("evatr", "valid")
    assert seller["online_status"].startswith("evatr-") and seller["online_request_id"]
    assert isinstance(seller["online_answered_at"], datetime)
    assert seller["online_cached"] is False

"""Results: the duplicate key that finds an invoice booked twice from different files."""

from __future__ import annotations

from typing import Any

from storage.db import Database
from storage.models import utcnow
from storage.repositories.results import book_result, invoice_duplicate_key, possible_duplicates
from tests.conftest import Tenant


def _invoice(number: str, gross: str, vat_id: str | None = "DE 123 456 789") -> dict[str, Any]:
    seller = {"name": "Lieferant GmbH", "vatId": vat_id, "taxNumber": None}
    return {"invoice": {"number": number, "seller": seller, "totals": {"gross": gross}}}


def test_the_key_normalizes_seller_number_and_amount() -> None:
    assert invoice_duplicate_key(_invoice("RE-2024/17", "119")) == invoice_duplicate_key(
        _invoice("re 2024 17", "119.00", vat_id="de123456789")
    )
    assert invoice_duplicate_key(_invoice("RE-2024/17", "119")) != invoice_duplicate_key(
        _invoice("RE-2024/17", "119.01")
    )


def test_without_number_or_total_there_is_no_key() -> None:
    assert invoice_duplicate_key(_invoice("", "119")) is None
    assert invoice_duplicate_key({"invoice": {"number": "1", "seller": {}, "totals": {}}}) is None
    assert invoice_duplicate_key({"statement": {}}) is None


def test_possible_duplicates_are_other_live_invoices_of_the_same_company(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    with database.session() as session:
        first = book_result(session, tenant.company_id, "a" * 64, "invoice", _invoice("7", "10"))
        second = book_result(session, tenant.company_id, "b" * 64, "invoice", _invoice("7", "10"))
        book_result(session, tenant.company_id, "c" * 64, "invoice", _invoice("8", "10"))
        book_result(session, other_tenant.company_id, "d" * 64, "invoice", _invoice("7", "10"))
        session.flush()
        assert [r.id for r in possible_duplicates(session, first)] == [second.id]
        second.deleted_at = utcnow()
        session.flush()
        assert possible_duplicates(session, first) == []

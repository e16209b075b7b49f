"""Corrections of a PDF invoice's fields: typed-in values read as the data writes them,
the stored extraction never changed, each change a row (old, new) and a change of the
result, and what the invoices table and the DATEV export carry is the corrected value.
Both backends, rolled back per test."""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from storage.correction_fields import read_value
from storage.datev import export as datev_export
from storage.datev.settings import DatevSettings
from storage.db import Database
from storage.errors import ValidationFailed
from storage.models import Result
from storage.objectstore import LocalDirStore
from storage.repositories import datev_exports, invoice_approvals, invoice_corrections, web_results
from storage.repositories.invoice_corrections import InvoiceApproved, NotCorrectable
from storage.repositories.results import book_result
from storage.tables.export import Exporter
from tests.conftest import Tenant
from tests.storage.test_result_tables import Bill, _invoice


def _pdf_invoice() -> dict[str, Any]:
    data = _invoice(Bill("Alpha GmbH", date(2026, 1, 5), "119.00"))
    data.pop("validation")  # read from a PDF's text, not an e-invoice
    return data


def _book(database: Database, tenant: Tenant, data: dict[str, Any]) -> uuid.UUID:
    with database.session() as session:
        result = book_result(session, tenant.company_id, uuid.uuid4().hex * 2, "invoice", data)
        session.commit()
        return result.id


def _correct(database: Database, tenant: Tenant, key: uuid.UUID, field: str, raw: str) -> bool:
    with database.session() as session:
        result = web_results.live_result(session, tenant.company_id, key, lock=True)
        assert result is not None
        changed = invoice_corrections.correct_field(session, result, field, raw, None)
        session.commit()
        return changed


@pytest.mark.parametrize(
    ("field", "typed", "stored"),
    [
        ("gross", "1.234,56", "1234.56"),
        ("net", " 99.5 ", "99.5"),
        ("issue_date", "3.2.2026", "2026-02-03"),
        ("due_date", "2026-02-28", "2026-02-28"),
        ("iban", "de89 3704 0044 0532 0130 00", "DE89370400440532013000"),
        ("seller_vat_id", "de 123.456.789", "DE123456789"),
        ("number", "  R-1 ", "R-1"),
        ("buyer_name", "", None),
    ],
)
def test_typed_values_are_read_as_the_data_writes_them(
    field: str, typed: str, stored: str | None
) -> None:
    assert read_value(field, typed) == stored


@pytest.mark.parametrize(
    ("field", "typed"),
    [("gross", "zwölf"), ("gross", "NaN"), ("issue_date", "30.2.2026"), ("iban", "DE00"),
     ("seller_vat_id", "123"), ("colour", "red"), ("number", "x" * 201)],
)  # fmt: skip
def test_values_that_do_not_fit_are_refused(field: str, typed: str) -> None:
    with pytest.raises(ValidationFailed):
        read_value(field, typed)


def test_corrections_reach_the_table_and_the_datev_export(
    database: Database, tenant: Tenant, tmp_path: Path
) -> None:
    extracted = _pdf_invoice()
    key = _book(database, tenant, extracted)
    assert _correct(database, tenant, key, "gross", "120,00")
    assert not _correct(database, tenant, key, "gross", "120.00")  # the same value
    assert _correct(database, tenant, key, "number", "R-9")
    with database.read_session() as session:
        assert session.get_one(Result, key).data == extracted
        steps = invoice_corrections.corrections_of(session, [key])[key]
    assert [(s.field, s.old, s.new) for s in steps] == [
        ("gross", "119.00", "120.00"),
        ("number", extracted["invoice"]["number"], "R-9"),
    ]

    store = LocalDirStore(tmp_path / "objects")
    Exporter(database, store, "http://docintake.test").export_changed(timedelta(0))
    (row,) = pl.read_parquet(f"{store.root}/tables/invoices/v2/**/*.parquet").iter_rows(named=True)
    assert (row["number"], str(row["gross"])) == ("R-9", "120.000000")
    assert row["corrected_fields"] == ["gross", "number"]

    with database.session() as session:
        settings = DatevSettings(consultant_number=29098, client_number=55003)
        datev_exports.save_datev_settings(session, tenant.company_id, settings)
        period = (date(2026, 1, 1), date(2026, 1, 31))
        (entry,) = datev_export.plan(session, tenant.company_id, period, True).entries
    assert (entry.number, entry.gross) == ("R-9", Decimal("120.00"))


def test_an_e_invoice_is_not_corrected(database: Database, tenant: Tenant) -> None:
    key = _book(database, tenant, _invoice(Bill("Alpha GmbH", date(2026, 1, 5), "119.00")))
    with pytest.raises(NotCorrectable):
        _correct(database, tenant, key, "number", "R-9")


def test_an_approved_invoice_is_corrected_after_its_approval_is_withdrawn(
    database: Database, tenant: Tenant
) -> None:
    key = _book(database, tenant, _pdf_invoice())
    for approved in (True, False):
        with database.session() as session:
            result = web_results.live_result(session, tenant.company_id, key, lock=True)
            assert result is not None
            invoice_approvals.set_approval(session, result, approved, None)
            session.commit()
        if approved:
            with pytest.raises(InvoiceApproved):
                _correct(database, tenant, key, "number", "R-9")
    assert _correct(database, tenant, key, "number", "R-9")

"""The result tables: generated typed results booked through the repositories, a
statement transaction confirmed and a result deleted, exported by the real export; then
the three queries of docs/tables.md, run as the page prints them (polars), and the
duckdb one, give the expected answers. Both backends."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from processors.base import DocumentType, FileKind
from processors.invoice_model import Invoice, InvoiceType, LineItem, Party, Totals
from processors.results import BankStatementResult, InvoiceResult, PaymentFile
from processors.results.findings import Finding, Level
from processors.results.invoice import EInvoiceValidation
from processors.results.payment_file import Payment, PaymentFileChecks, PaymentKind
from processors.results.source import Source
from processors.results.statement import Statement, StatementTransaction
from storage.db import Database
from storage.models import Result
from storage.objectstore import LocalDirStore
from storage.repositories import web_results
from storage.repositories.results import book_result
from storage.tables.export import Exporter
from tests.conftest import Tenant

DOC = Path(__file__).parents[2] / "docs" / "tables.md"
XML = Source(container=FileKind.XML)


@dataclass(frozen=True)
class Bill:
    seller: str
    day: date
    gross: str
    failing: tuple[str, ...] = ()
    direction: DocumentType = DocumentType.SUPPLIER_INVOICE


BILLS = (
    Bill("Alpha GmbH", date(2026, 1, 5), "119.00", ("BR-CO-10", "BR-16")),
    Bill("Alpha GmbH", date(2026, 1, 20), "238.00", ("BR-CO-10",)),
    Bill("Alpha GmbH", date(2026, 2, 3), "11.90"),
    Bill("Beta AG", date(2026, 1, 9), "50.00", ("BR-16",)),
    Bill("Acme GmbH", date(2026, 1, 9), "999.00", ("BR-CO-10",), DocumentType.CUSTOMER_INVOICE),
)


def _invoice(bill: Bill) -> dict[str, Any]:
    gross = Decimal(bill.gross)
    invoice = Invoice(
        number=f"R-{bill.day}-{bill.gross}",
        invoice_type=InvoiceType.INVOICE,
        type_code="380",
        issue_date=bill.day,
        currency="EUR",
        seller=Party(name=bill.seller),
        buyer=Party(name="Acme GmbH"),
        totals=Totals(
            net=gross / Decimal("1.19"), vat=gross - gross / Decimal("1.19"), gross=gross
        ),
        lines=(LineItem("1", "Ware", Decimal(1), "C62", gross, gross, "S", Decimal(19)),),
    )
    findings = tuple(Finding(rule, Level.ERROR, f"{rule} failed") for rule in bill.failing)
    findings += (Finding("BR-DE-21", Level.WARNING, "a warning, not failing"),)
    validation = EInvoiceValidation("UBL", None, "EN16931", None, not bill.failing, findings)
    return InvoiceResult(
        invoice=invoice,
        direction=bill.direction,
        direction_uncertain=False,
        direction_mismatch=False,
        direction_reason="generated",
        validation=validation,
        source=XML,
    ).to_dict()


def _statement() -> dict[str, Any]:
    statement = Statement(
        "DE02120300000000202051", None, "EUR", None, None, "7", None, None, Decimal(0)
    )
    transactions = tuple(
        StatementTransaction(date(2026, 1, day), None, Decimal(amount), "EUR", who, None, "x")
        for day, amount, who in (
            (2, "-119.00", "Alpha GmbH"),
            (3, "50.00", "Kunde"),
            (4, "-9.99", "Bank"),
        )
    )
    return BankStatementResult(
        statement, transactions, None, Source(container=FileKind.PDF)
    ).to_dict()


def _payment_file() -> dict[str, Any]:
    payment = Payment(
        "P1",
        "2026-01-10",
        "E2E",
        "12.50",
        "EUR",
        "Beta AG",
        "DE89370400440532013000",
        None,
        "R-1",
        None,
        "Acme",
        None,
    )
    checks = PaymentFileChecks(xsd="valid", schema=None, structure="ok")
    file = PaymentFile(
        PaymentKind.CREDIT_TRANSFER,
        "pain.001.001.03",
        "M1",
        None,
        "Acme",
        1,
        Decimal("12.50"),
        checks,
        (payment,),
    )
    return file.to_dict()


def _book(database: Database, tenant: Tenant) -> None:
    with database.session() as session:

        def book(kind: str, data: dict[str, Any]) -> Result:
            sha = uuid.uuid4().hex * 2
            return book_result(session, tenant.company_id, sha, kind, data)

        for bill in BILLS:
            book("invoice", _invoice(bill))
        gone = book("invoice", _invoice(Bill("Gamma KG", date(2026, 1, 1), "1.00", ("BR-1",))))
        statement = book("bank_statement", _statement())
        book("payment_file", _payment_file())
        session.commit()
        web_results.confirm_transactions(session, statement, [1], None)
        web_results.delete_result(session, tenant.company_id, gone.id)
        session.commit()


def _export(database: Database, tmp_path: Path) -> Path:
    store = LocalDirStore(tmp_path / "objects")
    run = Exporter(database, store, "http://docintake.test").export_changed(timedelta(0))
    assert run.result_partitions == 1
    return store.root / "tables"


def _docs_block() -> str:
    section = DOC.read_text().split("### Three questions about what was read", 1)[1]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)[0]


def test_the_three_queries_of_the_docs(database: Database, tenant: Tenant, tmp_path: Path) -> None:
    _book(database, tenant)
    root = _export(database, tmp_path)
    code = _docs_block().replace('root = "var/objects/tables"', f'root = "{root}"')
    answers: dict[str, Any] = {}
    exec(code, answers)  # the documented code, as printed

    monthly = answers["gross_per_supplier_month"]
    assert monthly.select("supplier", "month", "gross", "invoices").rows() == [
        ("Alpha GmbH", date(2026, 1, 1), Decimal("357.000000"), 2),
        ("Alpha GmbH", date(2026, 2, 1), Decimal("11.900000"), 1),
        ("Beta AG", date(2026, 1, 1), Decimal("50.000000"), 1),
    ]  # the customer invoice and the deleted one are not there
    assert answers["failing_rules"].rows() == [
        ("Alpha GmbH", "BR-CO-10", 2),
        ("Alpha GmbH", "BR-16", 1),
        ("Beta AG", "BR-16", 1),
    ]
    unconfirmed = answers["unconfirmed"]
    assert unconfirmed.select("booking_date", "amount").rows() == [
        (date(2026, 1, 2), Decimal("-119.000000")),
        (date(2026, 1, 4), Decimal("-9.990000")),
    ]
    transfers = pl.read_parquet(f"{root}/payment_transfers/v1/**/*.parquet")
    assert transfers.select("name", "amount").rows() == [("Beta AG", Decimal("12.500000"))]
    lines = pl.read_parquet(f"{root}/invoice_lines/v1/**/*.parquet")
    assert lines.height == len(BILLS)


def test_the_duckdb_query_of_the_docs(database: Database, tenant: Tenant, tmp_path: Path) -> None:
    _book(database, tenant)
    root = _export(database, tmp_path)
    section = DOC.read_text().split("### Three questions about what was read", 1)[1]
    sql = re.findall(r"```sql\n(.*?)```", section, re.DOTALL)[0]
    rows = duckdb.sql(sql.replace("var/objects/tables", str(root))).fetchall()
    assert [(s, m.month, g, n) for s, m, _, g, n in rows] == [
        ("Alpha GmbH", 1, Decimal("357.000000"), 2),
        ("Alpha GmbH", 2, Decimal("11.900000"), 1),
        ("Beta AG", 1, Decimal("50.000000"), 1),
    ]

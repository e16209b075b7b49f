"""From stored results to the rows of the result tables (pure: typed results in, polars
frames out). Each result is read as its typed result (processors/results/), the same
reading the API and the web application do; one that does not fit its type is left out
and logged, as the web application shows it unreadable."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

import polars as pl

from processors.json_fields import ResultShapeError
from processors.results import BankStatementResult, InvoiceResult, PaymentFile, result_from_dict
from processors.results.findings import Level
from storage.repositories.exports import StoredResult
from storage.tables import check_rows
from storage.tables.result_schemas import (
    BANK_ACCOUNT_WARNINGS,
    BANK_TRANSACTIONS,
    INVOICE_CONTENT_ITEMS,
    INVOICE_FINDINGS,
    INVOICE_LINES,
    INVOICES,
    PAYMENT_MATCHES,
    PAYMENT_TRANSFERS,
    RESULT_TABLES,
    VAT_ID_CHECKS,
)
from storage.tables.schema_types import TableSchema

log = logging.getLogger(__name__)

Row = dict[str, Any]
_SCALE = Decimal("0.000001")  # the tables' AMOUNT has 6 decimal places


def amount(value: Decimal | str | None) -> Decimal | None:
    if value is None:
        return None
    try:
        return Decimal(value).quantize(_SCALE)
    except InvalidOperation:
        return None


class ResultRows:
    """The rows of a partition's result tables, added a chunk of results at a time."""

    def __init__(self) -> None:
        self.rows: dict[str, list[Row]] = {table.name: [] for table in RESULT_TABLES}

    def add(self, results: Iterable[StoredResult]) -> None:
        for stored in results:
            try:
                typed = result_from_dict(stored.type, stored.data)
            except (ResultShapeError, ValueError):
                log.warning("result %s left out of the tables: unreadable data", stored.id)
                continue
            if isinstance(typed, InvoiceResult):
                self._invoice(stored, typed)
                self.rows[INVOICE_CONTENT_ITEMS.name] += check_rows.content_items(stored, typed)
                self.rows[BANK_ACCOUNT_WARNINGS.name] += check_rows.account_warnings(stored)
                self.rows[VAT_ID_CHECKS.name] += check_rows.vat_id_checks(stored, typed)
            elif isinstance(typed, BankStatementResult):
                self._statement(stored, typed)
                self.rows[PAYMENT_MATCHES.name] += check_rows.payment_matches(stored)
            elif isinstance(typed, PaymentFile):
                self._payment_file(stored, typed)

    def frame(self, table: TableSchema) -> pl.DataFrame:
        return pl.DataFrame(self.rows[table.name], schema=table.polars, orient="row")

    def _invoice(self, stored: StoredResult, result: InvoiceResult) -> None:
        invoice, key = result.invoice, str(stored.id)
        findings = result.validation.findings if result.validation else ()
        self.rows[INVOICES.name].append(
            {
                "result_id": key,
                "direction": result.direction.value,
                "invoice_type": invoice.invoice_type.value,
                "number": invoice.number,
                "issue_date": invoice.issue_date,
                "due_date": invoice.due_date,
                "currency": invoice.currency,
                "seller_name": invoice.seller.name,
                "seller_vat_id": invoice.seller.vat_id,
                "buyer_name": invoice.buyer.name,
                "buyer_vat_id": invoice.buyer.vat_id,
                "net": amount(invoice.totals.net),
                "vat": amount(invoice.totals.vat),
                "gross": amount(invoice.totals.gross),
                "amount_due": amount(invoice.totals.amount_due),
                "read_from": "e_invoice" if result.validation else "pdf_text",
                "einvoice_valid": result.validation.valid if result.validation else None,
                "failing_findings": sum(1 for f in findings if f.level.fails),
                "needs_review": result.checks.needs_review if result.checks else None,
                "lines": len(invoice.lines),
                "approved_at": stored.approval.at if stored.approval else None,
                "approved_by": stored.approval.by if stored.approval else None,
                "corrected_fields": list(stored.corrected_fields),
                **_times(stored),
            }
        )
        self.rows[INVOICE_LINES.name] += [
            {
                "result_id": key,
                "position": position,
                "line_id": line.line_id,
                "name": line.name,
                "description": line.description,
                "quantity": amount(line.quantity),
                "unit_code": line.unit_code,
                "net_unit_price": amount(line.net_unit_price),
                "net_amount": amount(line.net_amount),
                "vat_category_code": line.vat_category_code,
                "vat_rate": amount(line.vat_rate),
            }
            for position, line in enumerate(invoice.lines)
        ]
        self.rows[INVOICE_FINDINGS.name] += [
            {
                "result_id": key,
                "position": position,
                "rule_id": finding.rule_id,
                "level": Level(finding.level).value,
                "fails": finding.level.fails,
                "text": finding.text,
                "location": finding.location,
                "stage": finding.stage,
                "business_terms": list(finding.business_terms),
            }
            for position, finding in enumerate(findings)
        ]

    def _statement(self, stored: StoredResult, result: BankStatementResult) -> None:
        statement = result.statement
        self.rows[BANK_TRANSACTIONS.name] += [
            {
                "result_id": str(stored.id),
                "position": position,
                "account_iban": statement.account_iban,
                "statement_number": statement.number,
                "booking_date": transaction.booking_date,
                "value_date": transaction.value_date,
                "amount": amount(transaction.amount),
                "currency": transaction.currency or statement.currency,
                "counterparty_name": transaction.counterparty_name,
                "counterparty_iban": transaction.counterparty_iban,
                "purpose": transaction.purpose,
                "confirmed": position in stored.confirmed_at,
                "confirmed_at": stored.confirmed_at.get(position),
            }
            for position, transaction in enumerate(result.transactions)
        ]

    def _payment_file(self, stored: StoredResult, result: PaymentFile) -> None:
        self.rows[PAYMENT_TRANSFERS.name] += [
            {
                "result_id": str(stored.id),
                "position": position,
                "kind": result.kind.value,
                "message_id": result.message_id,
                "payment_info_id": payment.payment_info_id,
                "requested_date": payment.requested_date,
                "end_to_end_id": payment.end_to_end_id,
                "amount": amount(payment.amount),
                "currency": payment.currency,
                "name": payment.name,
                "iban": payment.iban,
                "bic": payment.bic,
                "remittance_information": payment.remittance_information,
                "mandate_id": payment.mandate_id,
                "own_name": payment.own_name,
                "own_iban": payment.own_iban,
            }
            for position, payment in enumerate(result.payments)
        ]


def _times(stored: StoredResult) -> dict[str, datetime]:
    return {"created_at": stored.created_at, "updated_at": stored.updated_at}

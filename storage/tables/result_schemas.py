"""The result tables (issue 39): one row per live result or per item of one."""

from __future__ import annotations

import polars as pl

from storage.tables.schema_types import UTC_MICROS, Column, TableSchema, col

# What was read (issue 39), partitioned by the result's company and creation day: one
# row per live result or per item of one; the items join their result on `result_id`.
AMOUNT = pl.Decimal(38, 6)
RESULT_PARTITION = "Partition: the result's company and the day it was made (UTC)."


def _item_of(what: str) -> tuple[Column, ...]:
    return (
        col("result_id", pl.String(), f"the {what}'s result (uuid)"),
        col("position", pl.Int32(), f"index in the {what}'s list, from 0"),
    )


INVOICES = TableSchema(
    "invoices",
    2,
    f"One row per live invoice result. {RESULT_PARTITION}",
    (
        col("result_id", pl.String(), "result id (uuid)"),
        col("direction", pl.String(), "supplier_invoice (received) or customer_invoice (issued)"),
        col("invoice_type", pl.String(), "invoice, credit_note or corrected_invoice"),
        col("number", pl.String(), "invoice number (BT-1)", True),
        col("issue_date", pl.Date(), "issue date (BT-2)", True),
        col("due_date", pl.Date(), "payment due date (BT-9)", True),
        col("currency", pl.String(), "invoice currency (BT-5)", True),
        col("seller_name", pl.String(), "seller name (BT-27)", True),
        col("seller_vat_id", pl.String(), "seller VAT identifier (BT-31)", True),
        col("buyer_name", pl.String(), "buyer name (BT-44)", True),
        col("buyer_vat_id", pl.String(), "buyer VAT identifier (BT-48)", True),
        col("net", AMOUNT, "total without VAT (BT-109)", True),
        col("vat", AMOUNT, "VAT total (BT-110)", True),
        col("gross", AMOUNT, "total with VAT (BT-112)", True),
        col("amount_due", AMOUNT, "amount due for payment (BT-115)", True),
        col("read_from", pl.String(), "e_invoice (XML) or pdf_text"),
        col("einvoice_valid", pl.Boolean(), "an e-invoice's validation passed; null else", True),
        col("failing_findings", pl.Int32(), "findings of level fatal or error"),
        col("needs_review", pl.Boolean(), "a PDF's text read needs review; null else", True),
        col("lines", pl.Int32(), "invoice lines (BG-25)"),
        col(
            "approved_at",
            UTC_MICROS,
            "when approved; null: not approved",
            True,
        ),
        col(
            "approved_by",
            pl.String(),
            "who approved (e-mail); null: not approved",
            True,
        ),
        col(
            "corrected_fields",
            pl.List(pl.String()),
            "fields corrected in the web application (the row has the corrected values)",
        ),
        col("created_at", UTC_MICROS, "when the result was made"),
        col("updated_at", UTC_MICROS, "its last change"),
    ),
)

INVOICE_LINES = TableSchema(
    "invoice_lines",
    1,
    f"One row per line (BG-25) of a live invoice result. {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        col("line_id", pl.String(), "line identifier (BT-126)", True),
        col("name", pl.String(), "item name (BT-153)", True),
        col("description", pl.String(), "item description (BT-154)", True),
        col("quantity", AMOUNT, "invoiced quantity (BT-129)", True),
        col("unit_code", pl.String(), "unit of measure (BT-130)", True),
        col("net_unit_price", AMOUNT, "item net price (BT-146)", True),
        col("net_amount", AMOUNT, "line net amount (BT-131)", True),
        col("vat_category_code", pl.String(), "VAT category (BT-151)", True),
        col("vat_rate", AMOUNT, "VAT rate in percent (BT-152)", True),
    ),
)

INVOICE_FINDINGS = TableSchema(
    "invoice_findings",
    1,
    f"One row per validation finding of a live e-invoice result. {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        col("rule_id", pl.String(), "the rule (BR-CO-10, PEPPOL-EN16931-R001, ...)"),
        col("level", pl.String(), "fatal, error, warning or information"),
        col("fails", pl.Boolean(), "level fatal or error: the invoice is not valid"),
        col("text", pl.String(), "the validator's message"),
        col("location", pl.String(), "where in the XML", True),
        col("stage", pl.String(), "which artefact reported it (xsd:..., schematron:...)"),
        col("business_terms", pl.List(pl.String()), "EN 16931 terms it concerns (BT-/BG-)"),
    ),
)

BANK_TRANSACTIONS = TableSchema(
    "bank_transactions",
    1,
    f"One row per transaction of a live bank statement result. {RESULT_PARTITION}",
    (
        *_item_of("statement"),
        col("account_iban", pl.String(), "the statement's account", True),
        col("statement_number", pl.String(), "the statement's number", True),
        col("booking_date", pl.Date(), "booking date", True),
        col("value_date", pl.Date(), "value date", True),
        col("amount", AMOUNT, "amount; negative for a debit"),
        col("currency", pl.String(), "currency", True),
        col("counterparty_name", pl.String(), "the other side's name", True),
        col("counterparty_iban", pl.String(), "the other side's IBAN", True),
        col("purpose", pl.String(), "purpose / remittance text"),
        col("confirmed", pl.Boolean(), "confirmed in the web application"),
        col("confirmed_at", UTC_MICROS, "when it was confirmed", True),
    ),
)

PAYMENT_TRANSFERS = TableSchema(
    "payment_transfers",
    1,
    f"One row per payment of a live payment file result. {RESULT_PARTITION}",
    (
        *_item_of("payment file"),
        col("kind", pl.String(), "credit_transfer (pain.001) or direct_debit (pain.008)"),
        col("message_id", pl.String(), "the file's message id", True),
        col("payment_info_id", pl.String(), "its payment group (PmtInfId)", True),
        col(
            "requested_date", pl.String(), "execution / collection date as the file states it", True
        ),
        col("end_to_end_id", pl.String(), "end-to-end id", True),
        col("amount", AMOUNT, "amount; null when the file's text is not a number", True),
        col("currency", pl.String(), "currency", True),
        col("name", pl.String(), "counterparty: creditor (pain.001) or debtor (pain.008)", True),
        col("iban", pl.String(), "counterparty IBAN", True),
        col("bic", pl.String(), "counterparty BIC", True),
        col("remittance_information", pl.String(), "remittance information", True),
        col("mandate_id", pl.String(), "direct debit mandate", True),
        col("own_name", pl.String(), "the initiating side's name", True),
        col("own_iban", pl.String(), "the initiating side's IBAN", True),
    ),
)

# The checks of issue 42: an invoice's mandatory items, its bank account warnings, and the
# payments matched to invoices.
INVOICE_CONTENT_ITEMS = TableSchema(
    "invoice_content_items",
    1,
    f"One row per mandatory item (§14 UStG / §33 UStDV) of a live invoice result. "
    f"{RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        col("item", pl.String(), "the item (supplier_name_address, invoice_number, ...)"),
        col("status", pl.String(), "present, missing, not_determinable, not_applicable, ..."),
        col("reference", pl.String(), "the legal reference asking for it"),
        col("regime", pl.String(), "section_14 (full invoice) or section_33 (up to 250 EUR)"),
        col("where_found", pl.String(), "business terms, page or text where it was found", True),
    ),
)

BANK_ACCOUNT_WARNINGS = TableSchema(
    "bank_account_warnings",
    1,
    f"One row per bank account warning of a live supplier invoice result. {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        col("warning_id", pl.String(), "warning id (uuid)"),
        col("iban", pl.String(), "the IBAN the invoice asks to be paid into"),
        col("reason", pl.String(), "new_iban or foreign_iban"),
        col("supplier_key", pl.String(), "the supplier: vat:..., tax:... or name:..."),
        col("supplier_country", pl.String(), "the supplier's country", True),
        col("known_ibans", pl.List(pl.String()), "the supplier's IBANs seen before"),
        col("decision", pl.String(), "confirmed or dismissed; null while open", True),
        col("decided_at", UTC_MICROS, "when it was decided", True),
        col("created_at", UTC_MICROS, "when the warning was made"),
    ),
)

VAT_ID_CHECKS = TableSchema(
    "vat_id_checks",
    1,
    "One row per VAT id or tax number printed on a live invoice result: its offline check "
    f"and, where configured, its online confirmation (docs/checks.md). {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        col("party", pl.String(), "seller or buyer"),
        col("kind", pl.String(), "vat_id or tax_number"),
        col("value", pl.String(), "as printed"),
        col("verdict", pl.String(), "valid, bad_check_digit, bad_format or not_checked"),
        col("country", pl.String(), "the VAT id's prefix (EL for Greece)", True),
        col("online_service", pl.String(), "evatr or vies; null when not asked", True),
        col("online_confirmed", pl.String(), "valid, invalid or unanswered", True),
        col("online_status", pl.String(), "the service's status code", True),
        col("online_request_id", pl.String(), "the service's request id", True),
        col("online_requested_at", pl.String(), "the time the service gave", True),
        col("online_matches", pl.String(), "name, city, postalCode, street: A/B/C/D", True),
        col("online_answered_at", UTC_MICROS, "when the answer was kept", True),
        col("online_cached", pl.Boolean(), "an earlier answer reused", True),
    ),
)

PAYMENT_MATCHES = TableSchema(
    "payment_matches",
    1,
    "One row per payment matched to an invoice: a confirmed transaction of a live bank "
    f"statement result. {RESULT_PARTITION.replace('result', 'statement result', 1)}",
    (
        col("match_id", pl.String(), "match id (uuid)"),
        col("result_id", pl.String(), "the statement's result (uuid)"),
        col("position", pl.Int32(), "the transaction's index in the statement, from 0"),
        col("invoice_result_id", pl.String(), "the invoice's result (uuid)"),
        col("amount", AMOUNT, "the part of the transaction paying the invoice"),
        col("score", pl.Int32(), "0-100"),
        col("reasons", pl.List(pl.String()), "amount_exact, number_in_reference, ..."),
        col("status", pl.String(), "proposed, accepted or rejected"),
        col("decided_at", UTC_MICROS, "when it was accepted or rejected", True),
        col("created_at", UTC_MICROS, "when it was proposed"),
    ),
)

RESULT_TABLES = (
    INVOICES,
    INVOICE_LINES,
    INVOICE_FINDINGS,
    BANK_TRANSACTIONS,
    PAYMENT_TRANSFERS,
    INVOICE_CONTENT_ITEMS,
    BANK_ACCOUNT_WARNINGS,
    PAYMENT_MATCHES,
    VAT_ID_CHECKS,
)

"""The status tables: their columns, types and versions, and where their files live.

Every table is versioned on its own. A change to a table's columns bumps its version,
and the new version is written under a new prefix (`tables/<table>/v<version>/`), so a
reader of the old version never meets a file of the new shape. docs/tables.md documents
every column; tests/storage/test_tables_schemas.py keeps the two in step.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date

import polars as pl

TABLES_PREFIX = "tables"
STATE_KEY = f"{TABLES_PREFIX}/_state.json"
# One file per partition under a fixed name: a rewrite replaces it in one atomic step,
# so a reader sees the old rows or the new ones, never both and never neither.
PART_FILE = "part-0.parquet"

UTC_MICROS = pl.Datetime("us", "UTC")


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    dtype: pl.DataType
    nullable: bool
    description: str


@dataclass(frozen=True, slots=True)
class TableSchema:
    name: str
    version: int
    description: str
    columns: tuple[Column, ...]

    @property
    def polars(self) -> pl.Schema:
        return pl.Schema({column.name: column.dtype for column in self.columns})

    @property
    def names(self) -> list[str]:
        return [column.name for column in self.columns]

    @property
    def prefix(self) -> str:
        """Where this version's partitions live; scan it with hive partitioning."""
        return f"{TABLES_PREFIX}/{self.name}/v{self.version}"

    def partition_key(self, company_id: uuid.UUID, day: date) -> str:
        return f"{self.prefix}/company_id={company_id}/date={day.isoformat()}/{PART_FILE}"


def _col(name: str, dtype: pl.DataType, description: str, nullable: bool = False) -> Column:
    return Column(name, dtype, nullable, description)


# Hive partition columns: in the path, not in the files (`company_id=<uuid>/date=<day>`).
PARTITION_COLUMNS = ("company_id", "date")

UPLOADS = TableSchema(
    "uploads",
    2,
    "One row per upload, as it is now. Partition date: the day the upload was created (UTC).",
    (
        _col("upload_id", pl.String(), "upload id (uuid)"),
        _col("batch_id", pl.String(), "batch the file came in; null for a single upload", True),
        _col("external_id", pl.String(), "the client's externalId", True),
        _col("file_name", pl.String(), "file name; inside a batch, the path in the archive"),
        _col("document_type", pl.String(), "documentType as sent (auto, supplier_invoice, ...)"),
        _col("status", pl.String(), "queued, processing, completed, failed or deleted"),
        _col("result_type", pl.String(), "invoice, other_document, bank_statement, ...", True),
        _col("result_id", pl.String(), "result id (uuid)", True),
        _col("result_url", pl.String(), "where the result opens in the web application", True),
        _col(
            "hybrid_mismatches",
            pl.List(pl.String()),
            "a hybrid PDF's fields whose XML and visible text disagree; null if not a hybrid",
            True,
        ),
        _col("error_code", pl.String(), "failure code of a failed upload", True),
        _col("error_message", pl.String(), "failure message of a failed upload", True),
        _col("size_bytes", pl.Int64(), "file size in bytes"),
        _col("sha256", pl.String(), "SHA-256 of the file, hex"),
        _col("attempts", pl.Int32(), "times a worker took the file in hand"),
        _col("created_at", UTC_MICROS, "when the upload was accepted"),
        _col("updated_at", UTC_MICROS, "last change of the upload row"),
    ),
)

STATUS_HISTORY = TableSchema(
    "status_history",
    1,
    "Every status change of every upload, with the time spent in the state it entered. "
    "Partition: the upload's company and creation day, so an upload's history is never split.",
    (
        _col("history_id", pl.Int64(), "id of the change, increasing in the order of changes"),
        _col(
            "upload_id",
            pl.String(),
            "upload id (uuid); its row in `uploads` is in the same partition",
        ),
        _col("sequence", pl.Int32(), "1 for the upload's first change, then 2, 3, ..."),
        _col("from_status", pl.String(), "state left; null for the first change", True),
        _col("to_status", pl.String(), "state entered"),
        _col("at", UTC_MICROS, "when the change happened"),
        _col("left_at", UTC_MICROS, "when the upload left `to_status`; null if still in it", True),
        _col(
            "duration_seconds",
            pl.Float64(),
            "time spent in `to_status` (left_at - at); null while still in it",
            True,
        ),
        _col("is_current", pl.Boolean(), "true for the upload's latest change"),
    ),
)

BATCHES = TableSchema(
    "batches",
    2,
    "One row per batch (ZIP archive), with counts of its uploads by status. "
    "Partition date: the day the batch was created (UTC).",
    (
        _col("batch_id", pl.String(), "batch id (uuid)"),
        _col("external_id", pl.String(), "the client's externalId", True),
        _col("document_type", pl.String(), "documentType as sent"),
        _col("file_name", pl.String(), "archive file name"),
        _col("size_bytes", pl.Int64(), "archive size in bytes"),
        _col("status", pl.String(), "processing, completed, completed_with_errors or failed"),
        _col("unpack_state", pl.String(), "pending, done or failed"),
        _col("error_code", pl.String(), "why the archive was refused while unpacking", True),
        _col("error_message", pl.String(), "the message that goes with error_code", True),
        _col("attempts", pl.Int32(), "times a worker took the batch in hand"),
        _col("uploads", pl.Int64(), "files of the batch"),
        _col("queued", pl.Int64(), "of them queued"),
        _col("processing", pl.Int64(), "of them processing"),
        _col("completed", pl.Int64(), "of them completed"),
        _col("failed", pl.Int64(), "of them failed"),
        _col("deleted", pl.Int64(), "of them deleted (completed, then the result deleted)"),
        _col("created_at", UTC_MICROS, "when the batch was accepted"),
        _col("finished_at", UTC_MICROS, "when the pipeline finished the batch", True),
        _col("updated_at", UTC_MICROS, "last change of the batch row"),
        _col("duration_seconds", pl.Float64(), "finished_at - created_at", True),
        _col("source_type", pl.String(), "api or email"),
        _col("mail_from", pl.String(), "an e-mail batch's sender", True),
        _col("mail_subject", pl.String(), "an e-mail batch's subject", True),
        _col("message_id", pl.String(), "an e-mail batch's Message-ID", True),
        _col("received_at", UTC_MICROS, "when an e-mail batch's message arrived", True),
    ),
)

RESULTS_BY_TYPE = TableSchema(
    "results_by_type",
    1,
    "Completed uploads counted by documentType sent and result type made of them "
    "(a deleted result no longer counts). "
    "Partition: company and the uploads' creation day.",
    (
        _col("document_type", pl.String(), "documentType as sent"),
        _col("result_type", pl.String(), "invoice, other_document, bank_statement, payment_file"),
        _col("uploads", pl.Int64(), "completed uploads with this result type"),
        _col("size_bytes", pl.Int64(), "their bytes"),
    ),
)

FAILURE_CODES = TableSchema(
    "failure_codes",
    1,
    "Failed uploads counted by documentType and failure code. "
    "Partition: company and the uploads' creation day.",
    (
        _col("document_type", pl.String(), "documentType as sent"),
        _col("error_code", pl.String(), "failure code"),
        _col("uploads", pl.Int64(), "failed uploads with this code"),
        _col("first_failed_at", UTC_MICROS, "earliest failure (last change of the upload)"),
        _col("last_failed_at", UTC_MICROS, "latest failure"),
    ),
)

# What was read (issue 39), partitioned by the result's company and creation day: one
# row per live result or per item of one; the items join their result on `result_id`.
AMOUNT = pl.Decimal(38, 6)
RESULT_PARTITION = "Partition: the result's company and the day it was made (UTC)."


def _item_of(what: str) -> tuple[Column, ...]:
    return (
        _col("result_id", pl.String(), f"the {what}'s result (uuid)"),
        _col("position", pl.Int32(), f"index in the {what}'s list, from 0"),
    )


INVOICES = TableSchema(
    "invoices",
    2,
    f"One row per live invoice result. {RESULT_PARTITION}",
    (
        _col("result_id", pl.String(), "result id (uuid)"),
        _col("direction", pl.String(), "supplier_invoice (received) or customer_invoice (issued)"),
        _col("invoice_type", pl.String(), "invoice, credit_note or corrected_invoice"),
        _col("number", pl.String(), "invoice number (BT-1)", True),
        _col("issue_date", pl.Date(), "issue date (BT-2)", True),
        _col("due_date", pl.Date(), "payment due date (BT-9)", True),
        _col("currency", pl.String(), "invoice currency (BT-5)", True),
        _col("seller_name", pl.String(), "seller name (BT-27)", True),
        _col("seller_vat_id", pl.String(), "seller VAT identifier (BT-31)", True),
        _col("buyer_name", pl.String(), "buyer name (BT-44)", True),
        _col("buyer_vat_id", pl.String(), "buyer VAT identifier (BT-48)", True),
        _col("net", AMOUNT, "total without VAT (BT-109)", True),
        _col("vat", AMOUNT, "VAT total (BT-110)", True),
        _col("gross", AMOUNT, "total with VAT (BT-112)", True),
        _col("amount_due", AMOUNT, "amount due for payment (BT-115)", True),
        _col("read_from", pl.String(), "e_invoice (XML) or pdf_text"),
        _col("einvoice_valid", pl.Boolean(), "an e-invoice's validation passed; null else", True),
        _col("failing_findings", pl.Int32(), "findings of level fatal or error"),
        _col("needs_review", pl.Boolean(), "a PDF's text read needs review; null else", True),
        _col("lines", pl.Int32(), "invoice lines (BG-25)"),
        _col(
            "approved_at",
            UTC_MICROS,
            "when approved; null: not approved",
            True,
        ),
        _col(
            "approved_by",
            pl.String(),
            "who approved (e-mail); null: not approved",
            True,
        ),
        _col(
            "corrected_fields",
            pl.List(pl.String()),
            "fields corrected in the web application (the row has the corrected values)",
        ),
        _col("created_at", UTC_MICROS, "when the result was made"),
        _col("updated_at", UTC_MICROS, "its last change"),
    ),
)

INVOICE_LINES = TableSchema(
    "invoice_lines",
    1,
    f"One row per line (BG-25) of a live invoice result. {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        _col("line_id", pl.String(), "line identifier (BT-126)", True),
        _col("name", pl.String(), "item name (BT-153)", True),
        _col("description", pl.String(), "item description (BT-154)", True),
        _col("quantity", AMOUNT, "invoiced quantity (BT-129)", True),
        _col("unit_code", pl.String(), "unit of measure (BT-130)", True),
        _col("net_unit_price", AMOUNT, "item net price (BT-146)", True),
        _col("net_amount", AMOUNT, "line net amount (BT-131)", True),
        _col("vat_category_code", pl.String(), "VAT category (BT-151)", True),
        _col("vat_rate", AMOUNT, "VAT rate in percent (BT-152)", True),
    ),
)

INVOICE_FINDINGS = TableSchema(
    "invoice_findings",
    1,
    f"One row per validation finding of a live e-invoice result. {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        _col("rule_id", pl.String(), "the rule (BR-CO-10, PEPPOL-EN16931-R001, ...)"),
        _col("level", pl.String(), "fatal, error, warning or information"),
        _col("fails", pl.Boolean(), "level fatal or error: the invoice is not valid"),
        _col("text", pl.String(), "the validator's message"),
        _col("location", pl.String(), "where in the XML", True),
        _col("stage", pl.String(), "which artefact reported it (xsd:..., schematron:...)"),
        _col("business_terms", pl.List(pl.String()), "EN 16931 terms it concerns (BT-/BG-)"),
    ),
)

BANK_TRANSACTIONS = TableSchema(
    "bank_transactions",
    1,
    f"One row per transaction of a live bank statement result. {RESULT_PARTITION}",
    (
        *_item_of("statement"),
        _col("account_iban", pl.String(), "the statement's account", True),
        _col("statement_number", pl.String(), "the statement's number", True),
        _col("booking_date", pl.Date(), "booking date", True),
        _col("value_date", pl.Date(), "value date", True),
        _col("amount", AMOUNT, "amount; negative for a debit"),
        _col("currency", pl.String(), "currency", True),
        _col("counterparty_name", pl.String(), "the other side's name", True),
        _col("counterparty_iban", pl.String(), "the other side's IBAN", True),
        _col("purpose", pl.String(), "purpose / remittance text"),
        _col("confirmed", pl.Boolean(), "confirmed in the web application"),
        _col("confirmed_at", UTC_MICROS, "when it was confirmed", True),
    ),
)

PAYMENT_TRANSFERS = TableSchema(
    "payment_transfers",
    1,
    f"One row per payment of a live payment file result. {RESULT_PARTITION}",
    (
        *_item_of("payment file"),
        _col("kind", pl.String(), "credit_transfer (pain.001) or direct_debit (pain.008)"),
        _col("message_id", pl.String(), "the file's message id", True),
        _col("payment_info_id", pl.String(), "its payment group (PmtInfId)", True),
        _col(
            "requested_date", pl.String(), "execution / collection date as the file states it", True
        ),
        _col("end_to_end_id", pl.String(), "end-to-end id", True),
        _col("amount", AMOUNT, "amount; null when the file's text is not a number", True),
        _col("currency", pl.String(), "currency", True),
        _col("name", pl.String(), "counterparty: creditor (pain.001) or debtor (pain.008)", True),
        _col("iban", pl.String(), "counterparty IBAN", True),
        _col("bic", pl.String(), "counterparty BIC", True),
        _col("remittance_information", pl.String(), "remittance information", True),
        _col("mandate_id", pl.String(), "direct debit mandate", True),
        _col("own_name", pl.String(), "the initiating side's name", True),
        _col("own_iban", pl.String(), "the initiating side's IBAN", True),
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
        _col("item", pl.String(), "the item (supplier_name_address, invoice_number, ...)"),
        _col("status", pl.String(), "present, missing, not_determinable, not_applicable, ..."),
        _col("reference", pl.String(), "the legal reference asking for it"),
        _col("regime", pl.String(), "section_14 (full invoice) or section_33 (up to 250 EUR)"),
        _col("where_found", pl.String(), "business terms, page or text where it was found", True),
    ),
)

BANK_ACCOUNT_WARNINGS = TableSchema(
    "bank_account_warnings",
    1,
    f"One row per bank account warning of a live supplier invoice result. {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        _col("warning_id", pl.String(), "warning id (uuid)"),
        _col("iban", pl.String(), "the IBAN the invoice asks to be paid into"),
        _col("reason", pl.String(), "new_iban or foreign_iban"),
        _col("supplier_key", pl.String(), "the supplier: vat:..., tax:... or name:..."),
        _col("supplier_country", pl.String(), "the supplier's country", True),
        _col("known_ibans", pl.List(pl.String()), "the supplier's IBANs seen before"),
        _col("decision", pl.String(), "confirmed or dismissed; null while open", True),
        _col("decided_at", UTC_MICROS, "when it was decided", True),
        _col("created_at", UTC_MICROS, "when the warning was made"),
    ),
)

VAT_ID_CHECKS = TableSchema(
    "vat_id_checks",
    1,
    "One row per VAT id or tax number printed on a live invoice result: its offline check "
    f"and, where configured, its online confirmation (docs/checks.md). {RESULT_PARTITION}",
    (
        *_item_of("invoice"),
        _col("party", pl.String(), "seller or buyer"),
        _col("kind", pl.String(), "vat_id or tax_number"),
        _col("value", pl.String(), "as printed"),
        _col("verdict", pl.String(), "valid, bad_check_digit, bad_format or not_checked"),
        _col("country", pl.String(), "the VAT id's prefix (EL for Greece)", True),
        _col("online_service", pl.String(), "evatr or vies; null when not asked", True),
        _col("online_confirmed", pl.String(), "valid, invalid or unanswered", True),
        _col("online_status", pl.String(), "the service's status code", True),
        _col("online_request_id", pl.String(), "the service's request id", True),
        _col("online_requested_at", pl.String(), "the time the service gave", True),
        _col("online_matches", pl.String(), "name, city, postalCode, street: A/B/C/D", True),
        _col("online_answered_at", UTC_MICROS, "when the answer was kept", True),
        _col("online_cached", pl.Boolean(), "an earlier answer reused", True),
    ),
)

PAYMENT_MATCHES = TableSchema(
    "payment_matches",
    1,
    "One row per payment matched to an invoice: a confirmed transaction of a live bank "
    f"statement result. {RESULT_PARTITION.replace('result', 'statement result', 1)}",
    (
        _col("match_id", pl.String(), "match id (uuid)"),
        _col("result_id", pl.String(), "the statement's result (uuid)"),
        _col("position", pl.Int32(), "the transaction's index in the statement, from 0"),
        _col("invoice_result_id", pl.String(), "the invoice's result (uuid)"),
        _col("amount", AMOUNT, "the part of the transaction paying the invoice"),
        _col("score", pl.Int32(), "0-100"),
        _col("reasons", pl.List(pl.String()), "amount_exact, number_in_reference, ..."),
        _col("status", pl.String(), "proposed, accepted or rejected"),
        _col("decided_at", UTC_MICROS, "when it was accepted or rejected", True),
        _col("created_at", UTC_MICROS, "when it was proposed"),
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

ALL_TABLES = (
    UPLOADS,
    STATUS_HISTORY,
    BATCHES,
    RESULTS_BY_TYPE,
    FAILURE_CODES,
    *RESULT_TABLES,
)
# Tables partitioned by the uploads' company and creation day, written together.
UPLOAD_TABLES = (UPLOADS, STATUS_HISTORY, RESULTS_BY_TYPE, FAILURE_CODES)


def versions() -> dict[str, int]:
    return {table.name: table.version for table in ALL_TABLES}

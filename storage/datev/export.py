"""A DATEV export of a period: which invoices go in (and why the others do not), the
file in the chosen format, and the record of who exported which results when.

The period is chosen by the invoice date (BT-2). An invoice that needs review or failed
validation is held back unless the caller includes held invoices; one that cannot be
booked (no number, not EUR, a VAT rate without an account, ...) is always left out.
Both are listed in the report. A result exported before carries the time it was last
exported, so the second export of it shows as such."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from processors.results.invoice import InvoiceResult
from storage.datev import extf, xml_online
from storage.datev.bookings import Hold, Unbookable, Voucher, holds, voucher
from storage.datev.settings import DatevSettings
from storage.errors import DomainError
from storage.models import Result
from storage.objectstore.base import ObjectStore
from storage.repositories import datev_exports, invoice_corrections
from storage.repositories.invoice_corrections import Correction


class ExportFormat(StrEnum):
    BUCHUNGSSTAPEL = "buchungsstapel"  # EXTF CSV
    BELEGE = "belege"  # XML-Schnittstelle online ZIP


MEDIA_TYPES = {
    ExportFormat.BUCHUNGSSTAPEL: "text/csv; charset=windows-1252",
    ExportFormat.BELEGE: "application/zip",
}


class DatevNotSetUp(DomainError):
    status, code, title = 409, "datev_not_set_up", "DATEV settings missing"


class InvalidPeriod(DomainError):
    status, code, title = 422, "invalid_period", "Invalid export period"


class Status(StrEnum):
    INCLUDED = "included"
    HELD = "held"  # needs review or failed validation, not included
    LEFT_OUT = "left_out"  # cannot be booked


@dataclass(frozen=True, slots=True)
class Entry:
    result_id: uuid.UUID
    number: str | None
    issue_date: date
    partner: str | None
    direction: str
    gross: Decimal | None
    status: Status
    reasons: tuple[str, ...]  # Hold and Unbookable values
    exported_before: datetime | None
    voucher: Voucher | None


@dataclass(frozen=True, slots=True)
class Plan:
    settings: DatevSettings
    client_name: str
    period: tuple[date, date]
    fiscal_year_start: date
    entries: tuple[Entry, ...]

    @property
    def included(self) -> tuple[Entry, ...]:
        return tuple(entry for entry in self.entries if entry.status is Status.INCLUDED)

    def vouchers(self) -> list[tuple[uuid.UUID, Voucher]]:
        return [(e.result_id, e.voucher) for e in self.included if e.voucher is not None]


@dataclass(frozen=True, slots=True)
class Export:
    export_id: uuid.UUID
    content: bytes
    file_name: str
    media_type: str
    plan: Plan

    @property
    def content_disposition(self) -> str:
        return f'attachment; filename="{self.file_name}"'


def fiscal_year_start(day: date, start_month: int) -> date:
    year = day.year if day.month >= start_month else day.year - 1
    return date(year, start_month, 1)


def check_period(start: date, end: date, settings: DatevSettings) -> date:
    """The fiscal year's first day; a Buchungsstapel holds one fiscal year at most."""
    if end < start:
        raise InvalidPeriod("`to` is before `from`.")
    first = fiscal_year_start(start, settings.fiscal_year_start_month)
    if fiscal_year_start(end, settings.fiscal_year_start_month) != first:
        raise InvalidPeriod(
            f"The period crosses the start of a fiscal year ({first.year + 1}-"
            f"{settings.fiscal_year_start_month:02d}-01); DATEV takes one fiscal year per file."
        )
    return first


def plan(
    session: Session, company_id: uuid.UUID, period: tuple[date, date], include_held: bool
) -> Plan:
    settings = datev_exports.datev_settings(session, company_id)
    if settings is None:
        raise DatevNotSetUp("Enter the consultant and client numbers in the DATEV settings.")
    first_day = check_period(*period, settings)
    corrections = invoice_corrections.corrections_of_company(session, company_id)
    found = [
        (row, invoice)
        for row in datev_exports.invoice_results(session, company_id)
        if (invoice := _in_period(_corrected(row, corrections), period)) is not None
    ]
    exported = datev_exports.last_exported(session, company_id, [row.id for row, _ in found])
    entries = tuple(
        _entry(row.id, invoice, settings, include_held, exported.get(row.id))
        for row, invoice in found
    )
    company_name = datev_exports.company_name(session, company_id)
    ordered = tuple(sorted(entries, key=lambda e: (e.issue_date, e.number or "", e.result_id)))
    return Plan(settings, company_name, period, first_day, ordered)


def _corrected(row: Result, corrections: dict[uuid.UUID, list[Correction]]) -> dict[str, Any]:
    """The invoice's data as corrected in the web application (issue 43)."""
    return invoice_corrections.corrected_data(row.data, corrections.get(row.id, []))


def _in_period(data: dict[str, Any], period: tuple[date, date]) -> InvoiceResult | None:
    """The result when its invoice date is in the period. The date is looked at in the
    stored JSON first: reading a whole result takes about 1.4 ms (10,000 in 14 s on the
    shared machine), the date alone nothing, so only the period's invoices are read."""
    stored = data.get("invoice", {}).get("issueDate")
    if (
        not isinstance(stored, str)
        or not period[0].isoformat() <= stored[:10] <= period[1].isoformat()
    ):
        return None
    result = InvoiceResult.from_dict(data)
    day = result.invoice.issue_date
    return result if day is not None and period[0] <= day <= period[1] else None


def _entry(
    result_id: uuid.UUID,
    result: InvoiceResult,
    settings: DatevSettings,
    include_held: bool,
    exported_before: datetime | None,
) -> Entry:
    invoice = result.invoice
    assert invoice.issue_date is not None  # chosen by it
    booked = voucher(result, settings)
    held: tuple[Hold, ...] = holds(result)
    if isinstance(booked, Unbookable):
        status, reasons = Status.LEFT_OUT, (booked.value, *held)
    elif held and not include_held:
        status, reasons = Status.HELD, tuple(held)
    else:
        status, reasons = Status.INCLUDED, tuple(held)
    customer = result.direction.value == "customer_invoice"
    partner = invoice.buyer if customer else invoice.seller
    return Entry(
        result_id=result_id,
        number=invoice.number,
        issue_date=invoice.issue_date,
        partner=partner.name,
        direction=result.direction.value,
        gross=invoice.totals.gross,
        status=status,
        reasons=reasons,
        exported_before=exported_before,
        voucher=booked if status is Status.INCLUDED and isinstance(booked, Voucher) else None,
    )


def export(
    session: Session,
    store: ObjectStore,
    company_id: uuid.UUID,
    *,
    period: tuple[date, date],
    export_format: ExportFormat,
    include_held: bool,
    user_id: uuid.UUID | None = None,
    api_key_id: uuid.UUID | None = None,
    now: datetime | None = None,
) -> Export:
    """Writes the file and records the export in `session`; the caller commits."""
    chosen = plan(session, company_id, period, include_held)
    created = now or datetime.now(UTC)
    if export_format is ExportFormat.BUCHUNGSSTAPEL:
        content = extf.write(_batch(chosen, created), [v for _, v in chosen.vouchers()])
        exported = [result_id for result_id, _ in chosen.vouchers()]
        name = f"EXTF_Buchungsstapel_{period[0]:%Y%m%d}_{period[1]:%Y%m%d}.csv"
    else:
        content, exported = _package(session, store, chosen, created)
        name = f"DATEV_Belege_{period[0]:%Y%m%d}_{period[1]:%Y%m%d}.zip"
    record = datev_exports.record_export(
        session,
        company_id,
        user_id=user_id,
        api_key_id=api_key_id,
        export_format=export_format.value,
        period=period,
        included_held=include_held,
        result_ids=exported,
    )
    return Export(record.id, content, name, MEDIA_TYPES[export_format], chosen)


def _batch(chosen: Plan, created: datetime) -> extf.Batch:
    return extf.Batch(
        settings=chosen.settings,
        fiscal_year_start=chosen.fiscal_year_start,
        period_from=chosen.period[0],
        period_to=chosen.period[1],
        created_at=created,
        label=f"Rechnungen {chosen.period[0]:%d.%m.}-{chosen.period[1]:%d.%m.%Y}",
    )


def _package(
    session: Session, store: ObjectStore, chosen: Plan, created: datetime
) -> tuple[bytes, list[uuid.UUID]]:
    """The ZIP and the results in it: one whose original was purged has no voucher
    image to send, so it is in the Buchungsstapel only (docs/datev.md)."""
    included = chosen.vouchers()
    uploads = datev_exports.originals(session, [result_id for result_id, _ in included])
    documents = []
    for result_id, booked in included:
        upload = uploads.get(result_id)
        if upload is None or upload.object_key is None:
            continue
        original = store.read_bytes(upload.object_key)
        documents.append(xml_online.Document(result_id, booked, upload.file_name, original))
    content = xml_online.package(documents, chosen.settings, chosen.client_name, created)
    return content, [document.guid for document in documents]

"""SQL of the DATEV export: the company's DATEV settings, its invoice results with
their originals, and the record of exports."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Iterator
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from processors.base import ResultType
from storage.datev.settings import DatevSettings
from storage.datev_models import DatevExport, DatevExportResult
from storage.models import Company, Result, Upload


def datev_settings(session: Session, company_id: uuid.UUID) -> DatevSettings | None:
    data = session.scalar(select(Company.datev).where(Company.id == company_id))
    return DatevSettings.from_json(data) if data else None


def save_datev_settings(session: Session, company_id: uuid.UUID, settings: DatevSettings) -> None:
    company = session.get(Company, company_id)
    assert company is not None  # callers pass a signed-in user's or a key's company
    company.datev = settings.to_json()
    session.flush()


def invoice_results(session: Session, company_id: uuid.UUID) -> Iterator[Result]:
    """The company's live invoice results. The invoice date is inside the JSON data,
    so the period is chosen by the caller (storage/datev/export.py)."""
    statement = (
        select(Result)
        .where(
            Result.company_id == company_id,
            Result.type == ResultType.INVOICE.value,
            Result.deleted_at.is_(None),
        )
        .order_by(Result.created_at, Result.id)
        .execution_options(yield_per=500)
    )
    yield from session.scalars(statement)


def originals(session: Session, result_ids: Collection[uuid.UUID]) -> dict[uuid.UUID, Upload]:
    """For each result, the first upload that completed with it and still has its bytes."""
    if not result_ids:
        return {}
    statement = (
        select(Upload)
        .where(Upload.result_id.in_(list(result_ids)), Upload.object_key.is_not(None))
        .order_by(Upload.created_at.desc(), Upload.id.desc())
    )
    found: dict[uuid.UUID, Upload] = {}
    for upload in session.scalars(statement):
        assert upload.result_id is not None
        found[upload.result_id] = upload  # the earliest is written last
    return found


def last_exported(
    session: Session, company_id: uuid.UUID, result_ids: Collection[uuid.UUID]
) -> dict[uuid.UUID, datetime]:
    """When each of these results was last exported to DATEV (either format)."""
    if not result_ids:
        return {}
    statement = (
        select(DatevExportResult.result_id, func.max(DatevExport.created_at))
        .join(DatevExport, DatevExport.id == DatevExportResult.export_id)
        .where(
            DatevExport.company_id == company_id,
            DatevExportResult.result_id.in_(list(result_ids)),
        )
        .group_by(DatevExportResult.result_id)
    )
    return {row[0]: row[1] for row in session.execute(statement)}


def record_export(
    session: Session,
    company_id: uuid.UUID,
    *,
    user_id: uuid.UUID | None,
    api_key_id: uuid.UUID | None,
    export_format: str,
    period: tuple[date, date],
    included_held: bool,
    result_ids: Collection[uuid.UUID],
) -> DatevExport:
    export = DatevExport(
        id=uuid.uuid4(),
        company_id=company_id,
        user_id=user_id,
        api_key_id=api_key_id,
        format=export_format,
        period_from=period[0],
        period_to=period[1],
        included_held=included_held,
    )
    session.add(export)
    session.flush()
    session.add_all(DatevExportResult(export_id=export.id, result_id=rid) for rid in result_ids)
    session.flush()
    return export


def company_name(session: Session, company_id: uuid.UUID) -> str:
    return session.scalar(select(Company.name).where(Company.id == company_id)) or ""

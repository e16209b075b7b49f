"""GET /v1/exports/datev: the period's invoices for DATEV, as the EXTF Buchungsstapel
(CSV), the XML-Schnittstelle online package (ZIP), or the report of what an export
would hold (JSON, nothing recorded). docs/datev.md."""

from __future__ import annotations

import uuid
from datetime import date
from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response, Security

from api.body_limits import BodyKind, body_limit
from api.deps import CurrentKeyDep, ServicesDep, api_key_scheme
from api.errors import problem_responses
from storage.datev import export as datev
from storage.resources import WireModel, utc_z

router = APIRouter(prefix="/v1", tags=["exports"], dependencies=[Security(api_key_scheme)])


class DatevFormat(StrEnum):
    BUCHUNGSSTAPEL = "buchungsstapel"
    BELEGE = "belege"
    REPORT = "report"


class ExportEntryOut(WireModel):
    result_id: uuid.UUID
    invoice_number: str | None
    issue_date: date
    partner: str | None
    direction: str
    gross: str | None  # a decimal string, never a float
    status: datev.Status
    reasons: list[str]
    exported_before: str | None  # when the result was last exported, ISO 8601 UTC


class ExportReportOut(WireModel):
    period_from: date
    period_to: date
    included: int
    entries: list[ExportEntryOut]


def report_of(plan: datev.Plan) -> ExportReportOut:
    return ExportReportOut(
        period_from=plan.period[0],
        period_to=plan.period[1],
        included=len(plan.included),
        entries=[
            ExportEntryOut(
                result_id=entry.result_id,
                invoice_number=entry.number,
                issue_date=entry.issue_date,
                partner=entry.partner,
                direction=entry.direction,
                gross=None if entry.gross is None else f"{entry.gross:.2f}",
                status=entry.status,
                reasons=list(entry.reasons),
                exported_before=utc_z(entry.exported_before) if entry.exported_before else None,
            )
            for entry in plan.entries
        ],
    )


def download_headers(exported: datev.Export) -> dict[str, str]:
    entries = exported.plan.entries
    again = sum(1 for e in exported.plan.included if e.exported_before is not None)
    return {
        "Content-Disposition": exported.content_disposition,
        "Docintake-Export-Id": str(exported.export_id),
        "Docintake-Export-Included": str(len(exported.plan.included)),
        "Docintake-Export-Held": str(sum(e.status is datev.Status.HELD for e in entries)),
        "Docintake-Export-Left-Out": str(sum(e.status is datev.Status.LEFT_OUT for e in entries)),
        "Docintake-Export-Exported-Before": str(again),
    }


def _responses() -> dict[int | str, dict[str, Any]]:
    responses = problem_responses(401, 422, 429, 500, 503)
    not_set_up = {
        **problem_responses(409)[409],
        "description": "The company's DATEV settings are missing (`datev_not_set_up`).",
    }
    return {
        200: {
            "description": "The Buchungsstapel (CSV, Windows-1252), the package (ZIP), or the"
            " report (JSON). A file answer names its export in `Docintake-Export-Id`.",
            "content": {
                "text/csv": {"schema": {"type": "string"}},
                "application/zip": {"schema": {"type": "string", "format": "binary"}},
            },
        },
        409: not_set_up,
        **responses,
    }


@router.get(
    "/exports/datev",
    response_model=ExportReportOut,
    operation_id="exportDatev",
    responses=_responses(),
    summary="Export a period's invoices for DATEV",
)
@body_limit(BodyKind.NONE)
def export_datev(
    key: CurrentKeyDep,
    services: ServicesDep,
    period_from: Annotated[date, Query(alias="from", description="First invoice date.")],
    period_to: Annotated[date, Query(alias="to", description="Last invoice date.")],
    export_format: Annotated[DatevFormat, Query(alias="format")] = DatevFormat.BUCHUNGSSTAPEL,
    include_held: Annotated[
        bool,
        Query(
            alias="includeHeld",
            description="Also export invoices that need review or failed validation.",
        ),
    ] = False,
) -> Response:
    period = (period_from, period_to)
    if export_format is DatevFormat.REPORT:
        with services.db.read_session() as session:
            plan = datev.plan(session, key.company_id, period, include_held)
        return Response(
            report_of(plan).model_dump_json(by_alias=True), media_type="application/json"
        )
    with services.db.session() as session:
        exported = datev.export(
            session,
            services.store,
            key.company_id,
            period=period,
            export_format=datev.ExportFormat(export_format.value),
            include_held=include_held,
            api_key_id=key.id,
        )
        session.commit()
    return Response(
        exported.content, media_type=exported.media_type, headers=download_headers(exported)
    )

"""The inbox: a company's uploads, filtered and keyset-paged, newest first."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CurrentUser
from api.web.i18n import N_, Message
from api.web.labels import RESULT_TYPE_LABELS
from api.web.paging import decode_cursor, encode_cursor
from api.web.render import render
from api.web.result_views import result_path
from api.web.summary_views import Glance, glance
from api.web.time_zones import start_of_day
from processors.base import DocumentType, ResultType
from storage.repositories import batches as batch_repo
from storage.repositories.result_glances import result_glances
from storage.repositories.upload_views import InboxFilter, PageCursor, UploadView, inbox_page
from storage.search_text import search_terms
from storage.states import UploadStatus

router = APIRouter(include_in_schema=False)

PAGE_SIZE = 50
BATCH_CHOICES = 50  # the newest batches offered by name; an older one by its id in the URL
FILTER_PARAMS = ("q", "status", "type", "read", "batch", "from", "to")


@dataclass
class InboxQuery:
    """The filters as typed in (kept for the form) and as understood (for the query)."""

    raw: dict[str, str]
    filters: InboxFilter
    problems: list[Message] = field(default_factory=list)


def parse_filters(params: dict[str, str], time_zone: str | None = None) -> InboxQuery:
    """`from` and `to` are days of the company's calendar (its time zone)."""
    raw = {name: params.get(name, "").strip() for name in FILTER_PARAMS}
    problems: list[Message] = []
    unknown_status = N_("Unknown status '%(value)s' is ignored.")
    status = _choice(raw["status"], {s.value for s in UploadStatus}, unknown_status, problems)
    unknown_type = N_("Unknown document type '%(value)s' is ignored.")
    doc_type = _choice(raw["type"], {t.value for t in DocumentType}, unknown_type, problems)
    unknown_read = N_("Unknown kind of result '%(value)s' is ignored.")
    read_as = _choice(raw["read"], {t.value for t in ResultType}, unknown_read, problems)
    batch_id = _uuid(raw["batch"], problems)
    not_a_day = N_("From date '%(value)s' is not a date (YYYY-MM-DD); it is ignored.")
    created_from = _day(raw["from"], not_a_day, problems)
    not_a_day = N_("To date '%(value)s' is not a date (YYYY-MM-DD); it is ignored.")
    created_to = _day(raw["to"], not_a_day, problems)
    filters = InboxFilter(
        status=status,
        document_type=doc_type,
        batch_id=batch_id,
        result_type=read_as,
        created_from=start_of_day(created_from, time_zone) if created_from else None,
        created_before=start_of_day(created_to + timedelta(days=1), time_zone)
        if created_to
        else None,
        search=tuple(search_terms(raw["q"])),
    )
    return InboxQuery(raw, filters, problems)


def _choice(value: str, allowed: set[str], problem: str, problems: list[Message]) -> str | None:
    if value and value not in allowed:
        problems.append(Message(problem, {"value": value}))
        return None
    return value or None


def _uuid(value: str, problems: list[Message]) -> uuid.UUID | None:
    if not value:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        problems.append(
            Message(N_("'%(value)s' is not a batch ID; it is ignored."), {"value": value})
        )
        return None


def _day(value: str, problem: str, problems: list[Message]) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        problems.append(Message(problem, {"value": value}))
        return None


@dataclass(frozen=True)
class InboxPage:
    rows: list[UploadView]
    newer_url: str | None
    older_url: str | None


def _page_url(raw: dict[str, str], **cursor: str) -> str:
    params = {name: value for name, value in raw.items() if value}
    return "/app/uploads?" + urlencode({**params, **cursor})


def load_page(
    session: Session, company_id: uuid.UUID, query: InboxQuery, params: dict[str, str]
) -> InboxPage:
    older = decode_cursor(params.get("after"))
    newer = None if older else decode_cursor(params.get("before"))
    rows = inbox_page(
        session,
        company_id,
        query.filters,
        PAGE_SIZE + 1,
        older_than=PageCursor(*older) if older else None,
        newer_than=PageCursor(*newer) if newer else None,
    )
    if newer is not None:
        has_newer, has_older = len(rows) > PAGE_SIZE, True
        rows = rows[1:] if has_newer else rows
    else:
        has_newer, has_older = older is not None, len(rows) > PAGE_SIZE
        rows = rows[:PAGE_SIZE]
    if not rows:
        # Paged past the end (rows were deleted meanwhile): offer the first page.
        return InboxPage(rows, _page_url(query.raw) if (older or newer) else None, None)
    first, last = rows[0], rows[-1]
    return InboxPage(
        rows,
        _page_url(query.raw, before=encode_cursor(first.created_at, first.id))
        if has_newer
        else None,
        _page_url(query.raw, after=encode_cursor(last.created_at, last.id)) if has_older else None,
    )


@dataclass(frozen=True)
class ResultLink:
    url: str
    label: str  # what the upload was read as: an `auto` upload's type shows here


def result_links(rows: Sequence[UploadView]) -> dict[uuid.UUID, ResultLink]:
    """Where each completed row's result opens."""
    links = {}
    for row in rows:
        if row.status == "completed" and row.result_id and row.result_type:
            label = RESULT_TYPE_LABELS[ResultType(row.result_type)]
            links[row.result_id] = ResultLink(result_path(row.result_type, row.result_id), label)
    return links


def glances(
    session: Session, company_id: uuid.UUID, rows: Sequence[UploadView], master_data_set: bool
) -> dict[uuid.UUID, Glance]:
    """What each completed row's result says at a glance: one query for the page."""
    types = {row.result_id: row.result_type for row in rows if row.result_id and row.result_type}
    picked = result_glances(session, company_id, list(types))
    return {key: glance(types[key], values, master_data_set) for key, values in picked.items()}


@router.get("/app/uploads", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def inbox(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    params = dict(request.query_params)
    query = parse_filters(params, user.time_zone)
    with services.db.read_session() as session:
        page = load_page(session, user.company_id, query, params)
        batch_names = batch_repo.file_names(
            session, user.company_id, {row.batch_id for row in page.rows if row.batch_id}
        )
        glances_of_page = glances(session, user.company_id, page.rows, user.master_data_set)
        choices = batch_repo.batch_choices(
            session, user.company_id, BATCH_CHOICES, query.filters.batch_id
        )
    return render(
        request,
        "uploads.html",
        user,
        active="uploads",
        page=page,
        query=query,
        statuses=[s.value for s in UploadStatus],
        document_types=[t.value for t in DocumentType],
        read_as={t.value: label for t, label in RESULT_TYPE_LABELS.items()},
        result_links=result_links(page.rows),
        batch_names=batch_names,
        glances=glances_of_page,
        batch_choices=choices,
        first_page_url=_page_url(query.raw),
    )

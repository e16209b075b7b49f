"""Batches: the list, and one batch with its counts and uploads (refreshing while it runs)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CurrentUser
from api.web.inbox import glances, result_links
from api.web.paging import decode_cursor, encode_cursor, parse_id
from api.web.render import not_found_page, render
from storage.models import Batch
from storage.repositories import batches as batch_repo
from storage.repositories.upload_views import batch_views, status_counts
from storage.states import BatchStatus, UnpackState, derive_batch_status

router = APIRouter(include_in_schema=False)

PAGE_SIZE = 50
REFRESH_SECONDS = 3


@dataclass(frozen=True)
class BatchLine:
    batch: Batch
    status: BatchStatus
    counts: dict[str, int]


@router.get("/app/batches", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def batch_list(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    after = decode_cursor(request.query_params.get("after"))
    with services.db.read_session() as session:
        found = batch_repo.batches_page(session, user.company_id, PAGE_SIZE + 1, after)
        batches = found[:PAGE_SIZE]
        counts = batch_repo.status_counts_of(session, [batch.id for batch in batches])
    lines = [
        BatchLine(b, derive_batch_status(UnpackState(b.unpack_state), counts[b.id]), counts[b.id])
        for b in batches
    ]
    older_url = None
    if len(found) > PAGE_SIZE:
        last = batches[-1]
        older_url = "/app/batches?" + urlencode({"after": encode_cursor(last.created_at, last.id)})
    return render(
        request,
        "batches.html",
        user,
        active="batches",
        lines=lines,
        older_url=older_url,
        paged=after is not None,
    )


@router.get("/app/batches/{batch_id}", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def batch_page(
    batch_id: str, request: Request, user: CurrentUser, services: ServicesDep
) -> HTMLResponse:
    parsed = parse_id(batch_id)
    with services.db.read_session() as session:
        batch = batch_repo.get_batch(session, user.company_id, parsed) if parsed else None
        if batch is None:
            return not_found_page(request, user)
        rows = batch_views(session, batch.id)
        glances_of_batch = glances(session, user.company_id, rows, user.master_data_set)
    counts = status_counts(row.status for row in rows)
    status = derive_batch_status(UnpackState(batch.unpack_state), counts)
    return render(
        request,
        "batch.html",
        user,
        active="batches",
        batch=batch,
        status=status,
        counts=counts,
        rows=rows,
        result_links=result_links(rows),
        glances=glances_of_batch,
        refresh_seconds=REFRESH_SECONDS if status is BatchStatus.PROCESSING else None,
    )

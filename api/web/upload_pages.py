"""The upload page: an upload's state and history, and its buttons (retry a
`processing_failed` upload, delete a failed one, download what was sent)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser, CurrentUser, WebUser
from api.web.downloads import original_response
from api.web.i18n import N_
from api.web.paging import parse_id
from api.web.reclassify_pages import step_views
from api.web.render import error_page, not_found_page, render
from api.web.result_views import upload_view
from storage.models import Upload
from storage.repositories import reclassifications, web_results
from storage.repositories import uploads as upload_repo
from storage.repositories.web_results import NotDeletable, NotRetryable

router = APIRouter(prefix="/app", include_in_schema=False)


@router.get("/uploads/{upload_id}", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def upload_page(
    request: Request, upload_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    key = parse_id(upload_id)
    with services.db.read_session() as session:
        upload = upload_repo.get_upload(session, user.company_id, key) if key else None
        if upload is None:
            return not_found_page(request, user)
        history = upload_repo.history(session, upload.id)
        result = upload_repo.get_result(session, upload.result_id) if upload.result_id else None
        view = upload_view(upload, history, result)
        steps = reclassifications.of_uploads(session, [upload.id]).get(upload.id, [])
    return render(
        request,
        "results/upload.html",
        user,
        upload=view,
        reclassified=step_views(steps),
        active="uploads",
    )


@router.post("/uploads/{upload_id}/retry")
@body_limit(BodyKind.FORM)
def retry_upload(
    request: Request, upload_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    retry, title = web_results.retry_upload, N_("Not retried")
    return _upload_move(request, upload_id, user, services, retry, NotRetryable, title)


@router.post("/uploads/{upload_id}/delete")
@body_limit(BodyKind.FORM)
def delete_failed_upload(
    request: Request, upload_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    delete, title = web_results.delete_failed_upload, N_("Not deleted")
    return _upload_move(request, upload_id, user, services, delete, NotDeletable, title)


def _upload_move(
    request: Request,
    upload_id: str,
    user: WebUser,
    services: ServicesDep,
    move: Callable[[Session, uuid.UUID, uuid.UUID], Upload | None],
    refusal: type[NotRetryable | NotDeletable],
    refused_title: str,
) -> Response:
    """One of the upload page's buttons: the move on the company's upload, committed, then
    back to the page; a 409 page with the reason when the move refuses."""
    key = parse_id(upload_id)
    if key is None:
        return not_found_page(request, user)
    with services.db.session() as session:
        try:
            upload = move(session, user.company_id, key)
        except refusal as refused:
            return error_page(request, user, 409, refused_title, refused.detail)
        if upload is None:
            return not_found_page(request, user)
        session.commit()
    return RedirectResponse(f"/app/uploads/{key}", status_code=303)


@router.get("/uploads/{upload_id}/original")
@body_limit(BodyKind.NONE)
def download_upload(
    request: Request, upload_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    """An upload's stored file as it was sent (a failed one's too, to check or forward)."""
    key = parse_id(upload_id)
    with services.db.read_session() as session:
        upload = upload_repo.get_upload(session, user.company_id, key) if key else None
    response = original_response(services.store, [upload]) if upload else None
    return response if response is not None else not_found_page(request, user)

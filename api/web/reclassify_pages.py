"""Reclassifying a result (issue 43, part 6): the other document page offers to read the
document again as a supplier or customer invoice, the invoice page to file it as an other
document; both show the trail (who, when, from, to). The move and the trail are
storage/repositories/reclassifications.py; the upload is read again as a retry is, and the
answer goes to its page, which refreshes until it is read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser
from api.web.i18n import N_
from api.web.labels import DOCUMENT_TYPE_LABELS, RESULT_TYPE_LABELS
from api.web.limits import MAX_FORM_FIELDS
from api.web.paging import parse_id
from api.web.render import error_page, not_found_page
from processors.base import DocumentType, ResultType
from storage.models import Result
from storage.repositories import reclassifications
from storage.repositories.reclassifications import (
    TARGETS,
    NotReclassifiable,
    Reclassification,
)

router = APIRouter(prefix="/app", include_in_schema=False)

# The refusals of storage/repositories/reclassifications.py, for the catalogue (the error
# page shows them in the page's language; tests/web/test_reclassify.py checks the words).
REFUSALS = (
    N_("Only an other document can be read as an invoice, and an invoice as an other document."),
    N_("The invoice is approved: withdraw the approval to reclassify it."),
    N_("The same file was also sent as this document type: open that upload instead."),
    N_("The batch is still being read; retry once it has finished."),
)


@dataclass(frozen=True, slots=True)
class StepView:
    at: datetime
    by: str | None
    from_label: str  # msgids
    to_label: str


@dataclass(frozen=True, slots=True)
class ReclassifyView:
    url: str
    # (document type, label msgid) the result may be read as instead.
    targets: tuple[tuple[str, str], ...]
    steps: tuple[StepView, ...]  # newest first


def step_views(steps: list[Reclassification]) -> tuple[StepView, ...]:
    return tuple(
        StepView(
            step.at,
            step.by,
            RESULT_TYPE_LABELS.get(ResultType(step.from_type), step.from_type),
            DOCUMENT_TYPE_LABELS.get(DocumentType(step.to_type), step.to_type),
        )
        for step in reversed(steps)
    )


def reclassify_view(session: Session, result: Result) -> ReclassifyView:
    """The form and the trail of a result page."""
    steps = reclassifications.of_results(session, [result.id]).get(result.id, [])
    targets = tuple((str(t), DOCUMENT_TYPE_LABELS[t]) for t in TARGETS.get(result.type, ()))
    return ReclassifyView(f"/app/results/{result.id}/reclassify", targets, step_views(steps))


@router.post("/results/{result_id}/reclassify")
@body_limit(BodyKind.FORM)
async def reclassify_result(
    request: Request, result_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    """Read the result's uploads again as `to` (a document type); on to the first
    upload's page, which shows the new reading when it is done."""
    key = parse_id(result_id)
    to_type = (await request.form(max_fields=MAX_FORM_FIELDS)).get("to")
    if key is None:
        return not_found_page(request, user)
    if not isinstance(to_type, str) or to_type not in DocumentType.__members__.values():
        return error_page(request, user, 400, N_("Bad request"), N_("Unknown action."))
    with services.db.session() as session:
        try:
            uploads = reclassifications.reclassify(
                session, user.company_id, key, to_type, user.user_id
            )
        except NotReclassifiable as refused:
            return error_page(request, user, 409, N_("Not reclassified"), refused.detail)
        if uploads is None:
            return not_found_page(request, user)
        session.commit()
    target = f"/app/uploads/{uploads[0].id}" if uploads else "/app/uploads"
    return RedirectResponse(target, status_code=303)

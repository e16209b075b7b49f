"""Notes on an invoice (issue 43): an e-invoice's XML is the original and is not edited,
so the invoice page takes notes beside it (PDF invoices too), each with who and when.
The notes are storage/repositories/invoice_annotations.py."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser
from api.web.i18n import N_
from api.web.limits import MAX_FORM_FIELDS
from api.web.paging import parse_id
from api.web.render import error_page, not_found_page
from storage.approval_models import ANNOTATION_MAX_CHARS
from storage.models import Result
from storage.repositories import invoice_annotations, web_results
from storage.repositories.invoice_annotations import Annotation, EmptyNote, NoteTooLong

router = APIRouter(prefix="/app", include_in_schema=False)

EMPTY_NOTE = N_("A note needs text.")
LONG_NOTE = N_("A note has at most 2,000 characters.")
assert ANNOTATION_MAX_CHARS == 2_000  # the words above say so


@dataclass(frozen=True, slots=True)
class AnnotationsView:
    url: str  # where the form posts
    max_chars: int
    notes: tuple[Annotation, ...]  # newest first, as the page's other trails


def annotations_view(session: Session, result: Result) -> AnnotationsView:
    notes = invoice_annotations.annotations_of(session, [result.id]).get(result.id, [])
    return AnnotationsView(
        f"/app/invoices/{result.id}/annotations", ANNOTATION_MAX_CHARS, tuple(reversed(notes))
    )


@router.post("/invoices/{result_id}/annotations")
@body_limit(BodyKind.FORM)
async def annotate_invoice(
    request: Request, result_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    """Add a note (`text`) to the invoice; its data and its file stay as they are."""
    key = parse_id(result_id)
    text = (await request.form(max_fields=MAX_FORM_FIELDS)).get("text")
    if key is None:
        return not_found_page(request, user)
    if not isinstance(text, str):
        return error_page(request, user, 400, N_("Bad request"), N_("Unknown action."))
    with services.db.session() as session:
        result = web_results.live_result(session, user.company_id, key, lock=True)
        if result is None or result.type != "invoice":
            return not_found_page(request, user)
        try:
            invoice_annotations.add_annotation(session, result, text, user.user_id)
        except EmptyNote:
            return error_page(request, user, 400, N_("Not added"), EMPTY_NOTE)
        except NoteTooLong:
            return error_page(request, user, 400, N_("Not added"), LONG_NOTE)
        session.commit()
    return RedirectResponse(f"/app/invoices/{key}#annotations", status_code=303)

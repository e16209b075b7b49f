"""Result pages: the upload page, the four result pages, and the actions on them
(confirm bank transactions, delete a result, retry, download or delete a failed upload,
download the original). Everything is scoped to the signed-in user's company: another company's
ids answer the 404 page, like ids that do not exist."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.annotation_pages import annotations_view
from api.web.approval_views import approval_view
from api.web.auth import CsrfUser, CurrentUser, WebUser
from api.web.check_views import account_warning_views, tax_id_views, vat_confirmation_views
from api.web.content_views import content_check_view
from api.web.correction_views import corrections_view
from api.web.document_preview import PreviewKind, document_preview
from api.web.downloads import original_response, stored_upload
from api.web.evidence_views import evidence_view
from api.web.i18n import N_
from api.web.invoice_views import invoice_view
from api.web.limits import MAX_FORM_FIELDS
from api.web.paging import parse_id
from api.web.payment_views import invoice_payment_status, statement_matches
from api.web.reclassify_pages import reclassify_view
from api.web.render import error_page, not_found_page, render
from api.web.result_views import document_view, result_header
from api.web.statement_views import payment_file_view, statement_view
from api.web.summary_views import (
    document_summary,
    invoice_summary,
    payment_file_debtor,
    payment_file_summary,
    statement_summary,
)
from processors.json_fields import ResultShapeError
from processors.results import BankStatementResult, InvoiceResult, PaymentFile
from processors.results.other_document import other_document_from_dict
from processors.results.payment_file import PaymentKind
from storage.errors import ValidationFailed
from storage.models import Result, Upload
from storage.repositories import invoice_approvals, invoice_corrections, web_results
from storage.repositories import results as result_repo
from storage.repositories.invoice_corrections import InvoiceApproved, NotCorrectable
from storage.repositories.web_results import ResultLocked

router = APIRouter(prefix="/app", include_in_schema=False)

MAX_PAGE_NUMBER = 10_000
PAGE_IMAGE_CACHE = "private, max-age=86400"
"""A result's pages never change; a deleted result's image may stay in the browser a day."""
# The refusals of storage/repositories/web_results.py the pages show. Their details are
# English (the API shares them); listed here, they are in the catalog, and the error
# page shows them in the page's language. tests/web/test_translations.py checks that
# storage still raises each of them word for word.
STORAGE_REFUSALS = (
    N_("Only uploads that failed with processing_failed can be retried."),
    N_("The batch is still being read; retry once it has finished."),
    N_("The statement has confirmed transactions; confirmed transactions are locked."),
    N_("Only failed uploads can be deleted here."),
)

BAD_VALUE = N_(
    "The value does not fit the field: dates as DD.MM.YYYY, amounts like 1.234,56, a valid"
    " IBAN, a VAT id with its country code."
)
E_INVOICE_KEPT = N_("An e-invoice's XML is the original and is not corrected.")
WITHDRAW_FIRST = N_("The invoice is approved: withdraw the approval to correct a field.")


# --- result pages ----------------------------------------------------------------------


def _result_page(
    request: Request,
    user: WebUser,
    services: ServicesDep,
    raw_id: str,
    result_type: str,
    template: str,
    build: Callable[[Session, Result], dict[str, Any]],
) -> Response:
    key = parse_id(raw_id)
    with services.db.read_session() as session:
        result = web_results.live_result(session, user.company_id, key) if key else None
        if result is None or result.type != result_type:
            return not_found_page(request, user)
        header = result_header(result, web_results.uploads_of_result(session, result.id))
        try:
            context = build(session, result)
        except ResultShapeError as unreadable:
            # Still the page to download or delete it; never an error page.
            template, context = "results/unreadable.html", {"problem": str(unreadable)}
    return render(request, template, user, result=header, **context)


@router.get("/invoices/{result_id}", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def invoice_page(
    request: Request, result_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    def build(session: Session, result: Result) -> dict[str, Any]:
        duplicates = result_repo.possible_duplicates(session, result)
        steps = invoice_corrections.corrections_of(session, [result.id]).get(result.id, [])
        data = invoice_corrections.corrected_data(result.data, steps)
        read = InvoiceResult.from_dict(data)
        url = f"/app/invoices/{result.id}"
        evidence = evidence_view(read, url)
        preview = document_preview(read, url, f"/app/results/{result.id}/original")
        if evidence is not None or (preview and preview.kind is PreviewKind.PAGES):
            services.page_renderer.warm_up_soon()
        return {
            "invoice": invoice_view(read, duplicates, user.master_data_set),
            "summary": invoice_summary(read, len(duplicates), user.master_data_set),
            "evidence": evidence,
            "preview": preview,
            "tax_ids": tax_id_views(read),
            "vat_confirmations": vat_confirmation_views(session, result),
            "content_check": content_check_view(read),
            "payment": invoice_payment_status(session, result.id, read),
            "account_warnings": account_warning_views(session, result),
            "print_url": f"/app/invoices/{result.id}/print",
            "approval": approval_view(invoice_approvals.history(session, result.id)),
            "corrections": corrections_view(result.data, data, steps),
            "annotations": annotations_view(session, result),
            "reclassify": reclassify_view(session, result),
        }

    return _result_page(
        request, user, services, result_id, "invoice", "results/invoice.html", build
    )


@router.post("/invoices/{result_id}/approval")
@body_limit(BodyKind.FORM)
async def approve_invoice(
    request: Request, result_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    """Approve the invoice (`action=approve`) or withdraw its approval (`withdraw`)."""
    key = parse_id(result_id)
    action = (await request.form(max_fields=MAX_FORM_FIELDS)).get("action")
    if key is None:
        return not_found_page(request, user)
    if action not in ("approve", "withdraw"):
        return error_page(request, user, 400, N_("Bad request"), N_("Unknown action."))
    with services.db.session() as session:
        result = web_results.live_result(session, user.company_id, key, lock=True)
        if result is None or result.type != "invoice":
            return not_found_page(request, user)
        invoice_approvals.set_approval(session, result, action == "approve", user.user_id)
        session.commit()
    return RedirectResponse(f"/app/invoices/{key}#approval", status_code=303)


@router.post("/invoices/{result_id}/corrections")
@body_limit(BodyKind.FORM)
async def correct_invoice(
    request: Request, result_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    """Correct one field of a PDF invoice (`field`, `value`); the extraction is kept."""
    key = parse_id(result_id)
    form = await request.form(max_fields=MAX_FORM_FIELDS)
    field, value = form.get("field"), form.get("value")
    if key is None:
        return not_found_page(request, user)
    if not isinstance(field, str) or not isinstance(value, str):
        return error_page(request, user, 400, N_("Bad request"), N_("Unknown action."))
    with services.db.session() as session:
        result = web_results.live_result(session, user.company_id, key, lock=True)
        if result is None or result.type != "invoice":
            return not_found_page(request, user)
        try:
            invoice_corrections.correct_field(session, result, field, value, user.user_id)
        except ValidationFailed:
            return error_page(request, user, 400, N_("Not corrected"), BAD_VALUE)
        except InvoiceApproved:
            return error_page(request, user, 409, N_("Not corrected"), WITHDRAW_FIRST)
        except NotCorrectable:
            return error_page(request, user, 409, N_("Not corrected"), E_INVOICE_KEPT)
        session.commit()
    return RedirectResponse(f"/app/invoices/{key}#corrections", status_code=303)


@router.get("/invoices/{result_id}/print", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def invoice_print_page(
    request: Request, result_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    """The invoice as an accountant files it: one A4 document (static/print.css)."""

    def build(session: Session, result: Result) -> dict[str, Any]:
        steps = invoice_corrections.corrections_of(session, [result.id]).get(result.id, [])
        data = invoice_corrections.corrected_data(result.data, steps)
        return {
            "invoice": invoice_view(InvoiceResult.from_dict(data), (), user.master_data_set),
            "invoice_url": f"/app/invoices/{result.id}",
        }

    return _result_page(
        request, user, services, result_id, "invoice", "results/invoice_print.html", build
    )


@router.get("/invoices/{result_id}/pages/{number}.png")
@body_limit(BodyKind.NONE)
def invoice_page_image(
    request: Request, result_id: str, number: int, user: CurrentUser, services: ServicesDep
) -> Response:
    """A page of the invoice's PDF as an image, for its evidence boxes or a hybrid's
    preview (flows/page_render.py renders it in a reading process under kernel limits)."""
    stored = stored_original(services, user, result_id, "invoice")
    if stored is None or stored.object_key is None or not 1 <= number <= MAX_PAGE_NUMBER:
        return not_found_page(request, user)
    image = services.page_renderer.render(services.store.read_bytes(stored.object_key), number)
    if image is None:
        return not_found_page(request, user)
    return Response(image, media_type="image/png", headers={"Cache-Control": PAGE_IMAGE_CACHE})


@router.get("/documents/{result_id}", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def document_page(
    request: Request, result_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    def build(session: Session, result: Result) -> dict[str, Any]:
        view = document_view(other_document_from_dict(result.data))
        embedded = payment_file_view(view.payment_file) if view.payment_file else None
        return {
            "document": view,
            "payment_file": embedded,
            "summary": document_summary(view),
            "reclassify": reclassify_view(session, result),
        }

    return _result_page(
        request, user, services, result_id, "other_document", "results/document.html", build
    )


@router.get("/payment-files/{result_id}", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def payment_file_page(
    request: Request, result_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    def build(_: Session, result: Result) -> dict[str, Any]:
        read = PaymentFile.from_dict(result.data)
        view = payment_file_view(read)
        debtor = payment_file_debtor(view, read.kind is PaymentKind.DIRECT_DEBIT)
        return {"payment_file": view, "summary": payment_file_summary(view, debtor)}

    return _result_page(
        request, user, services, result_id, "payment_file", "results/payment_file.html", build
    )


@router.get("/bank-imports/{result_id}", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def bank_import_page(
    request: Request, result_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    shown = request.query_params.get("confirmed", "")
    confirmed_now = int(shown) if shown.isdigit() and len(shown) < 7 else None

    def build(session: Session, result: Result) -> dict[str, Any]:
        confirmations = web_results.confirmations(session, result.id)
        emails = web_results.user_emails(
            session, (c.confirmed_by for c in confirmations.values() if c.confirmed_by)
        )
        view = statement_view(BankStatementResult.from_dict(result.data), confirmations, emails)
        return {
            "statement": view,
            "summary": statement_summary(view),
            "confirmed_now": confirmed_now,
            "matches": statement_matches(session, result.id),
        }

    return _result_page(
        request, user, services, result_id, "bank_statement", "results/bank_import.html", build
    )


@router.post("/bank-imports/{result_id}/confirm")
@body_limit(BodyKind.FORM)
async def confirm_transactions(
    request: Request, result_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    key = parse_id(result_id)
    form = await request.form(max_fields=MAX_FORM_FIELDS)
    positions = _positions(form.getlist("one") or form.getlist("position"))
    if key is None:
        return not_found_page(request, user)
    if positions is None:
        return error_page(request, user, 400, N_("Bad request"), N_("Unknown transactions."))
    with services.db.session() as session:
        result = web_results.live_result(session, user.company_id, key, lock=True)
        if result is None or result.type != "bank_statement":
            return not_found_page(request, user)
        if form.get("action") == "all" and not form.getlist("one"):
            positions = list(range(web_results.transaction_count(result)))
        try:
            confirmed = web_results.confirm_transactions(session, result, positions, user.user_id)
        except ValidationFailed as invalid:
            return error_page(request, user, 400, N_("Bad request"), invalid.detail)
        session.commit()
    return RedirectResponse(
        f"/app/bank-imports/{key}?confirmed={len(confirmed)}#transactions", status_code=303
    )


def _positions(raw: list[Any]) -> list[int] | None:
    if not all(isinstance(value, str) and value.isdigit() for value in raw):
        return None
    return [int(value) for value in raw]


# --- delete and download ---------------------------------------------------------------


@router.post("/results/{result_id}/delete")
@body_limit(BodyKind.FORM)
def delete_result(
    request: Request, result_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    key = parse_id(result_id)
    if key is None:
        return not_found_page(request, user)
    with services.db.session() as session:
        try:
            uploads = web_results.delete_result(session, user.company_id, key)
        except ResultLocked as locked:
            return error_page(request, user, 409, N_("Not deleted"), locked.detail)
        if uploads is None:
            return not_found_page(request, user)
        session.commit()
    target = f"/app/uploads/{uploads[0].id}" if uploads else "/app/uploads"
    return RedirectResponse(target, status_code=303)


def stored_original(
    services: ServicesDep, user: WebUser, result_id: str, result_type: str | None = None
) -> Upload | None:
    """The upload whose stored bytes a live result of the user's company was read from
    (of `result_type` when given); None when there is none or its bytes are gone."""
    key = parse_id(result_id)
    with services.db.read_session() as session:
        result = web_results.live_result(session, user.company_id, key) if key else None
        if result is None or result_type not in (None, result.type):
            return None
        uploads = web_results.uploads_of_result(session, result.id)
    return stored_upload(services.store, uploads)


@router.get("/results/{result_id}/original")
@body_limit(BodyKind.NONE)
def download_original(
    request: Request, result_id: str, user: CurrentUser, services: ServicesDep
) -> Response:
    key = parse_id(result_id)
    with services.db.read_session() as session:
        result = web_results.live_result(session, user.company_id, key) if key else None
        uploads = web_results.uploads_of_result(session, result.id) if result else []
    response = original_response(services.store, uploads)
    return response if response is not None else not_found_page(request, user)

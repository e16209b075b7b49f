"""A content duplicate reuses a booked result only when the result answers its
documentType; results are booked once per content and result type (real databases)."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy.exc import IntegrityError

from processors.base import DocumentType, ResultType
from storage.db import Database
from storage.idempotency import VALID_RESULT_TYPES, may_reuse, reusable_result
from storage.models import Result, Upload, utcnow
from storage.repositories import uploads as upload_repo
from storage.repositories.results import (
    LiveResult,
    book_result,
    live_results_for_bookings,
    live_results_for_contents,
    new_result,
)
from storage.states import UploadStatus
from tests.conftest import Tenant

CONTENT = "c" * 64
AUTO, SUPPLIER, CUSTOMER = "auto", "supplier_invoice", "customer_invoice"
STATEMENT, OTHER = "bank_statement", "other_document"


def _live(result_type: str, *read_as: str) -> LiveResult:
    return LiveResult(uuid.uuid4(), result_type, frozenset(read_as))


@pytest.mark.parametrize(
    ("result", "requested", "reused"),
    [
        # the case: filed as an other document, then sent as a bank statement
        (_live("other_document", OTHER), STATEMENT, False),
        (_live("other_document", AUTO), STATEMENT, False),
        (_live("bank_statement", STATEMENT), STATEMENT, True),
        (_live("bank_statement", STATEMENT), OTHER, False),
        (_live("bank_statement", STATEMENT), AUTO, False),
        # an invoice is an invoice for every invoice type; never an other document
        (_live("invoice", AUTO), SUPPLIER, True),
        (_live("invoice", SUPPLIER), CUSTOMER, True),
        (_live("invoice", CUSTOMER), AUTO, True),
        (_live("invoice", AUTO), OTHER, False),
        (_live("invoice", AUTO), STATEMENT, False),
        # a payment file only answers auto (sent as an invoice it is an other document)
        (_live("payment_file", AUTO), AUTO, True),
        (_live("payment_file", AUTO), SUPPLIER, False),
        # "not an invoice" is a verdict of the read that reached it
        (_live("other_document", OTHER), AUTO, False),
        (_live("other_document", OTHER), SUPPLIER, False),
        (_live("other_document", AUTO), AUTO, True),
        (_live("other_document", AUTO), SUPPLIER, False),
        (_live("other_document", SUPPLIER), CUSTOMER, True),
        (_live("other_document", SUPPLIER), AUTO, False),
        (_live("other_document", OTHER, AUTO), AUTO, True),
        # anything filed as an other document answers a request to file it
        (_live("other_document", AUTO), OTHER, True),
        (_live("other_document", SUPPLIER), OTHER, True),
    ],
)
def test_may_reuse(result: LiveResult, requested: str, reused: bool) -> None:
    assert may_reuse(result, requested) is reused


def test_every_document_type_has_its_valid_result_types() -> None:
    assert set(VALID_RESULT_TYPES) == {str(t) for t in DocumentType}
    assert set().union(*VALID_RESULT_TYPES.values()) == {str(t) for t in ResultType}


def test_reusable_result_prefers_one_read_as_the_same_type() -> None:
    older = _live("other_document", SUPPLIER)
    newer = _live("other_document", CUSTOMER)
    assert reusable_result([older, newer], CUSTOMER) is newer
    assert reusable_result([older, newer], SUPPLIER) is older
    assert reusable_result([older, newer], STATEMENT) is None
    assert reusable_result([], AUTO) is None


def _upload(tenant: Tenant, document_type: str, result: Result) -> Upload:
    upload = Upload(
        id=uuid.uuid4(),
        company_id=tenant.company_id,
        file_name="statement.pdf",
        document_type=document_type,
        sha256=result.sha256,
        size_bytes=1,
        attempts=0,
        object_key=f"k/{uuid.uuid4()}",
        result_id=result.id,
    )
    return upload


def test_one_content_has_live_results_of_two_types(database: Database, tenant: Tenant) -> None:
    with database.session() as session:
        filed = book_result(session, tenant.company_id, CONTENT, "other_document", {"kind": "pdf"})
        statement = book_result(session, tenant.company_id, CONTENT, "bank_statement", {})
        uploads = [
            _upload(tenant, OTHER, filed),
            _upload(tenant, AUTO, filed),
            _upload(tenant, STATEMENT, statement),
        ]
        upload_repo.add_uploads(session, [(upload, UploadStatus.QUEUED) for upload in uploads])
        for upload in uploads:
            upload_repo.change_status(session, upload, UploadStatus.PROCESSING)
            upload_repo.change_status(session, upload, UploadStatus.COMPLETED)
        session.flush()

        found = live_results_for_contents(session, {(tenant.company_id, CONTENT)})

    assert found == {
        (tenant.company_id, CONTENT): [
            LiveResult(filed.id, "other_document", frozenset({OTHER, AUTO})),
            LiveResult(statement.id, "bank_statement", frozenset({STATEMENT})),
        ]
    }
    assert reusable_result(found[(tenant.company_id, CONTENT)], STATEMENT) == LiveResult(
        statement.id, "bank_statement", frozenset({STATEMENT})
    )


def test_the_same_type_is_booked_once(database: Database, tenant: Tenant) -> None:
    with database.session() as session:
        first = book_result(session, tenant.company_id, CONTENT, "bank_statement", {"n": 1})
        again = book_result(session, tenant.company_id, CONTENT, "bank_statement", {"n": 2})
        assert again.id == first.id
        with pytest.raises(IntegrityError), session.begin_nested():
            session.add(new_result(tenant.company_id, CONTENT, "bank_statement", {}))
            session.flush()
        bookings = live_results_for_bookings(
            session,
            {
                (tenant.company_id, CONTENT, "bank_statement"),
                (tenant.company_id, CONTENT, "other_document"),
            },
        )
    assert bookings == {
        (tenant.company_id, CONTENT, "bank_statement"): (first.id, "bank_statement")
    }


def test_a_deleted_result_is_not_offered_and_frees_its_type(
    database: Database, tenant: Tenant
) -> None:
    with database.session() as session:
        first = book_result(session, tenant.company_id, CONTENT, "bank_statement", {})
        first.deleted_at = utcnow()
        session.flush()
        assert live_results_for_contents(session, {(tenant.company_id, CONTENT)}) == {}
        second = book_result(session, tenant.company_id, CONTENT, "bank_statement", {})
        assert second.id != first.id

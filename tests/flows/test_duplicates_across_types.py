"""The same file sent again under another documentType, through the API and real Prefect
flows: it completes with the original's result only when that result answers the new
documentType; otherwise it is read again (storage/idempotency.py, `may_reuse`)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from flows.pipeline import process_uploads
from flows.work import WorkerEnv
from testkit.samples import blank_pdf, corpus_file
from tests.api.helpers import post_upload
from tests.conftest import Tenant


def _drain() -> int:
    return process_uploads(window="test", idle_seconds=0.3)


def _send(api: TestClient, company: Tenant, content: bytes, document_type: str, tag: str) -> str:
    response = post_upload(
        api, company.headers, content, f"{tag}.pdf", documentType=document_type, externalId=tag
    )
    assert response.status_code == 202, response.text
    assert "Idempotent-Replayed" not in response.headers
    return str(response.json()["id"])


def _result(api: TestClient, company: Tenant, upload_id: str) -> dict[str, Any]:
    body = api.get(f"/v1/uploads/{upload_id}", headers=company.headers).json()
    assert body["status"] == "completed", body
    return dict(body["result"])


def test_a_file_is_read_again_when_the_booked_result_does_not_answer_its_type(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    _, statement = corpus_file("bank_statement", ".pdf")
    _, invoice = corpus_file("accept", ".xml")
    _, payments = corpus_file("accept_sepa")
    letter = blank_pdf("letter filed first")
    first = {
        "statement": _send(api, company, statement, "other_document", "s1"),
        "invoice": _send(api, company, invoice, "auto", "i1"),
        "payments": _send(api, company, payments, "supplier_invoice", "p1"),
        "letter": _send(api, company, letter, "other_document", "l1"),
    }
    _drain()
    second = {
        "statement": _send(api, company, statement, "bank_statement", "s2"),
        "invoice": _send(api, company, invoice, "supplier_invoice", "i2"),
        "payments": _send(api, company, payments, "auto", "p2"),
        "letter": _send(api, company, letter, "auto", "l2"),
        "invoice filed": _send(api, company, invoice, "other_document", "i3"),
    }
    _drain()
    third = {"statement": _send(api, company, statement, "other_document", "s3")}
    _drain()

    before = {label: _result(api, company, upload) for label, upload in first.items()}
    after = {label: _result(api, company, upload) for label, upload in second.items()}
    assert before["statement"]["type"] == "other_document"
    # the case: read again as a statement, a second result beside the first
    assert after["statement"]["type"] == "bank_statement"
    assert after["statement"]["id"] != before["statement"]["id"]
    # an invoice answers every invoice type: booked once
    assert after["invoice"] == before["invoice"] and before["invoice"]["type"] == "invoice"
    # a SEPA file sent as an invoice is an other document; sent as auto, a payment file
    assert before["payments"]["type"] == "other_document"
    assert after["payments"]["type"] == "payment_file"
    # read again as auto, the letter is still an other document: the booking is reused
    assert after["letter"] == before["letter"] and before["letter"]["type"] == "other_document"
    # an invoice sent to be filed is filed
    assert after["invoice filed"]["type"] == "other_document"
    # filed again as an other document: the first filing answers, unread
    assert _result(api, company, third["statement"]) == before["statement"]


def test_same_file_sent_as_two_types_at_once_gets_a_result_of_each(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    _, statement = corpus_file("bank_statement", ".pdf")
    filed = _send(api, company, statement, "other_document", "a")
    read = _send(api, company, statement, "bank_statement", "b")
    filed_again = _send(api, company, statement, "other_document", "c")
    _drain()

    assert _result(api, company, filed)["type"] == "other_document"
    assert _result(api, company, read)["type"] == "bank_statement"
    assert _result(api, company, filed_again) == _result(api, company, filed)

"""Reclassifying (issue 43, part 6) through the real app and pipeline in both languages:
an other document read again as a supplier invoice (the form: POST with CSRF), its
trail (who, when, from, to) on the upload and result pages and in the results API, and
back to an other document; the refusals."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from api.web.i18n import translate
from api.web.reclassify_pages import REFUSALS
from storage.db import Database
from storage.models import Upload, User
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.web.results_helpers import (
    e_invoice,
    read_queued,
    result_id,
    result_path,
    send_and_read,
    stored_upload,
)
from tests.web.support import Account, session_csrf


def _speak(database: Database, account: Account, language: str) -> None:
    with database.session() as session:
        user = session.get(User, account.user_id)
        assert user is not None
        user.language = language
        session.commit()


def _reclassify(client: TestClient, database: Database, key: uuid.UUID, to: str) -> Any:
    data = {"csrf_token": session_csrf(client, database), "to": to}
    return client.post(f"/app/results/{key}/reclassify", data=data, follow_redirects=False)


def _trail(client: TestClient, path: str) -> list[list[str]]:
    page: Any = html.fromstring(client.get(path).text)
    rows = page.xpath('//table[@class="reclassifications"]/tbody/tr')
    return [[" ".join(td.text_content().split()) for td in row.xpath("./td")] for row in rows]


def _upload_of(database: Database, upload_id: str) -> Upload:
    with database.read_session() as session:
        upload = session.get(Upload, uuid.UUID(upload_id))
        assert upload is not None
        return upload


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_other_document_becomes_an_invoice_and_back(
    web_client: TestClient, account: Account, services: Services, database: Database, language: str
) -> None:
    def t(msgid: str) -> str:
        return translate(language, msgid)

    # A generated German invoice, sent as an other document: filed, not booked.
    content = german_invoice(SAMPLE_INVOICE)
    body = send_and_read(
        web_client,
        account.headers,
        services,
        "rechnung.pdf",
        content,
        documentType="other_document",
    )
    assert body["result"]["type"] == "other_document", body
    document = result_id(body)
    _speak(database, account, language)
    page: Any = html.fromstring(web_client.get(result_path(body)).text)
    form = page.xpath('//section[@class="reclassify"]//form')[0]
    assert form.get("action") == f"/app/results/{document}/reclassify"
    assert form.xpath('.//input[@name="to"]/@value') == ["supplier_invoice", "customer_invoice"]

    answer = _reclassify(web_client, database, document, "supplier_invoice")
    assert answer.status_code == 303 and answer.headers["location"] == f"/app/uploads/{body['id']}"
    upload = _upload_of(database, body["id"])
    assert (upload.status, upload.document_type, upload.result_id) == (
        "queued",
        "supplier_invoice",
        None,
    )
    assert web_client.get(result_path(body)).status_code == 404  # the document is gone
    read_queued(services)
    again = web_client.get(f"/v1/uploads/{body['id']}", headers=account.headers).json()
    trail = [t("Other document"), t("Supplier invoice")]
    assert _trail(web_client, f"/app/uploads/{body['id']}")[0][1:] == [account.email, *trail]
    assert again["status"] == "completed" and again["result"]["type"] == "invoice", again
    invoice = result_id(again)
    assert _trail(web_client, f"/app/invoices/{invoice}")[0][1:] == [account.email, *trail]
    api = web_client.get(f"/v1/results/{invoice}", headers=account.headers).json()
    (step,) = api["reclassifications"]
    assert (step["uploadId"], step["fromType"], step["toType"], step["by"]) == (
        body["id"],
        "other_document",
        "supplier_invoice",
        account.email,
    )
    assert step["at"].endswith("Z")

    # And back: an invoice filed as an other document, the trail growing.
    assert _reclassify(web_client, database, invoice, "other_document").status_code == 303
    read_queued(services)
    back = web_client.get(f"/v1/uploads/{body['id']}", headers=account.headers).json()
    assert back["result"]["type"] == "other_document"
    rows = _trail(web_client, result_path(back))
    assert [row[2:] for row in rows] == [[t("Invoice"), t("Other document")], trail]
    api = web_client.get(f"/v1/results/{result_id(back)}", headers=account.headers).json()
    assert [s["toType"] for s in api["reclassifications"]] == ["supplier_invoice", "other_document"]


def test_a_file_also_sent_as_the_new_type_is_not_reclassified(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    """The same file sent as an other document and as a supplier invoice: two uploads,
    and the first is not turned into a second supplier invoice upload of the file."""
    content = german_invoice(SAMPLE_INVOICE)
    send = web_client, account.headers, services, "rechnung.pdf", content
    filed = send_and_read(*send, documentType="other_document")
    booked = send_and_read(*send, documentType="supplier_invoice")
    assert booked["status"] == "completed" and booked["id"] != filed["id"]
    refused = _reclassify(web_client, database, result_id(filed), "supplier_invoice")
    assert refused.status_code == 409 and "open that upload instead" in refused.text
    upload = stored_upload(services, filed["id"])
    assert (upload.status, upload.document_type) == ("completed", "other_document")
    assert _trail(web_client, f"/app/uploads/{filed['id']}") == []


def test_what_cannot_be_reclassified_is_refused(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    body = send_and_read(web_client, account.headers, services, name, content)
    invoice = result_id(body)
    refused = _reclassify(web_client, database, invoice, "supplier_invoice")
    assert refused.status_code == 409 and "an invoice as an other document" in refused.text
    assert _reclassify(web_client, database, invoice, "no_such_type").status_code == 400
    assert _reclassify(web_client, database, uuid.uuid4(), "other_document").status_code == 404
    approve = {"csrf_token": session_csrf(web_client, database), "action": "approve"}
    web_client.post(f"/app/invoices/{invoice}/approval", data=approve, follow_redirects=False)
    refused = _reclassify(web_client, database, invoice, "other_document")
    assert refused.status_code == 409 and "withdraw the approval" in refused.text
    assert stored_upload(services, body["id"]).status == "completed"
    # The refusal in the page's language: storage's words are the catalogue's.
    _speak(database, account, "de")
    refused = _reclassify(web_client, database, invoice, "other_document")
    tree: Any = html.fromstring(refused.text)
    main = tree.xpath("//main")[0]
    assert translate("de", REFUSALS[1]) in main.text_content()
    without_token = web_client.post(
        f"/app/results/{invoice}/reclassify", data={"to": "other_document"}
    )
    assert without_token.status_code == 403

"""German everywhere, English everywhere (issue 43): every page an accountant reaches,
with real documents read by the pipeline's own steps, shows none of the other
language's words outside the allow-list (tests/web/language_words.py), in German and
in English: the inbox, the batches and a batch, every kind of result (an e-invoice with
findings, its print view, a bank statement, a payment file, another document, a
completed and a rejected upload), the settings and their pages (DATEV, API keys, e-mail
and IMAP, webhooks), the DATEV export and the error pages. The failed-upload page of
every failure code is test_failure_pages.py's."""

from __future__ import annotations

import io
import uuid
from typing import Any

from fastapi.testclient import TestClient
from lxml import etree
from pypdf import PdfReader

from api.deps import Services
from storage.repositories import users
from tests.web.language_words import ALLOWED, leaked, words
from tests.web.results_helpers import (
    bank_statement,
    e_invoice_with_warnings,
    invalid_e_invoice,
    payment_file,
    plain_pdf,
    result_path,
    send_and_read,
)
from tests.web.support import Account, seed_batch

SETTINGS_PAGES = (
    "/app/settings",
    "/app/settings/datev",
    "/app/settings/api-keys",
    "/app/settings/email",
    "/app/settings/webhooks",
    "/app/exports/datev",
)


def _document_words(name: str, content: bytes) -> set[str]:
    """The words of a document and its name: data, shown as the sender wrote them
    (a bank's booking texts, an invoice's payment terms and notes)."""
    if content.startswith(b"%PDF"):
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    else:
        text = " ".join(str(part) for part in etree.fromstring(content).itertext())
    return words(f"{name} {text}")


def _pages(
    client: TestClient, services: Services, account: Account, data: set[str]
) -> dict[str, str]:
    """Every page, by path; each result read from a real document, whose words go to
    `data`."""

    def read(document: tuple[str, bytes], **fields: str) -> dict[str, Any]:
        data.update(_document_words(*document))
        name, content = document
        return send_and_read(client, account.headers, services, name, content, **fields)

    invoice = read(e_invoice_with_warnings())
    rejected = read(invalid_e_invoice())
    assert rejected["status"] == "failed", rejected
    batch = seed_batch(
        services.db, account.company_id, ["completed", "failed", "queued"], file_name="2025-03.zip"
    )
    invoice_path = result_path(invoice)
    return {
        "inbox": "/app/uploads",
        "inbox filtered": "/app/uploads?status=failed&read=invoice",
        "batches": "/app/batches",
        "batch": f"/app/batches/{batch}",
        "invoice": invoice_path,
        "invoice print": f"{invoice_path}/print",
        "completed upload": f"/app/uploads/{invoice['id']}",
        "rejected e-invoice": f"/app/uploads/{rejected['id']}",
        "bank statement": result_path(read(bank_statement(), documentType="bank_statement")),
        "payment file": result_path(read(payment_file())),
        "document": result_path(read(plain_pdf())),
        **{path.removeprefix("/app/"): path for path in SETTINGS_PAGES},
        "not found": f"/app/invoices/{uuid.uuid4()}",
        "no such page": "/app/nothing-here",
    }


def test_every_page_speaks_only_its_language(
    web_client: TestClient, services: Services, account: Account
) -> None:
    data: set[str] = set()
    pages = _pages(web_client, services, account, data)
    leaks: dict[str, dict[str, list[str]]] = {}
    for language in ("de", "en"):
        with services.db.session() as session:
            users.set_language(session, account.user_id, language)
            session.commit()
        for name, path in pages.items():
            page = web_client.get(path)
            assert page.status_code in (200, 404), (path, page.status_code)
            assert f'<html lang="{language}"' in page.text, path
            found = leaked(page.text, language, ALLOWED | data)
            if found:
                leaks.setdefault(language, {})[name] = sorted(found)
    assert not leaks, "\n".join(
        f"{lang} {name}: {words}" for lang, d in leaks.items() for name, words in d.items()
    )

"""German everywhere, English everywhere (issue 43): every page an accountant reaches,
with real documents read by the pipeline's own steps, shows none of the other
language's words outside the allow-list (tests/web/language_words.py), in German and
in English: the inbox, the batches and a batch, every kind of result (an e-invoice with
findings, its print view, a bank statement, a payment file, another document, a
completed and a rejected upload), the settings and their pages (DATEV, API keys, e-mail
and IMAP, webhooks), the DATEV export, the error pages (404s, a refused form's 403) and
the login page. The failed-upload page of
every failure code is test_failure_pages.py's. Data (file names, a document's own texts)
is shown as sent: a page may show the words of its own document, a list the files'
names."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from storage.repositories import users
from tests.web.language_words import ALLOWED, document_words, leaked, words
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


@dataclass(frozen=True)
class Shown:
    """A page and the data words it may show: its own document's words (a result page)
    or the file names of the documents (lists)."""

    path: str
    data: frozenset[str] = frozenset()


def _pages(client: TestClient, services: Services, account: Account) -> dict[str, Shown]:
    """Every page; each result read from a real document."""
    file_names = {"2025-03.zip", "file0.pdf", "file1.pdf", "file2.pdf"}  # seed_batch's

    def read(document: tuple[str, bytes], **fields: str) -> tuple[dict[str, Any], frozenset[str]]:
        name, content = document
        file_names.add(name)
        body = send_and_read(client, account.headers, services, name, content, **fields)
        return body, document_words(name, content)

    invoice, invoice_words = read(e_invoice_with_warnings())
    rejected, rejected_words = read(invalid_e_invoice())
    assert rejected["status"] == "failed", rejected
    statement, statement_words = read(bank_statement(), documentType="bank_statement")
    payments, payments_words = read(payment_file())
    other, other_words = read(plain_pdf())
    batch = seed_batch(
        services.db, account.company_id, ["completed", "failed", "queued"], file_name="2025-03.zip"
    )
    names = frozenset(words(" ".join(file_names)))
    invoice_path = result_path(invoice)
    return {
        "inbox": Shown("/app/uploads", names),
        "inbox filtered": Shown("/app/uploads?status=failed&read=invoice", names),
        "batches": Shown("/app/batches", names),
        "batch": Shown(f"/app/batches/{batch}", names),
        "invoice": Shown(invoice_path, invoice_words),
        "invoice print": Shown(f"{invoice_path}/print", invoice_words),
        "completed upload": Shown(f"/app/uploads/{invoice['id']}", invoice_words),
        "rejected e-invoice": Shown(f"/app/uploads/{rejected['id']}", rejected_words),
        "bank statement": Shown(result_path(statement), statement_words),
        "payment file": Shown(result_path(payments), payments_words),
        "document": Shown(result_path(other), other_words),
        **{path.removeprefix("/app/"): Shown(path) for path in SETTINGS_PAGES},
        "not found": Shown(f"/app/invoices/{uuid.uuid4()}"),
        "no such page": Shown("/app/nothing-here"),
    }


def _assert_german_plurals(page: str) -> None:
    """Issue 43: "2 Warnungen", not "2 Warnung" (ngettext with the catalogue's plural)."""
    text = " ".join(" ".join(str(t) for t in html.fromstring(page).itertext()).split())
    counts = re.findall(r"(\d+) (Warnungen|Warnung)\b", text)
    assert counts, "the e-invoice with warnings shows no count of them"
    for number, word in counts:
        assert word == ("Warnung" if number == "1" else "Warnungen"), (number, word)


def test_every_page_speaks_only_its_language(
    web_client: TestClient, services: Services, account: Account
) -> None:
    pages = _pages(web_client, services, account)
    leaks: dict[str, dict[str, list[str]]] = {}
    for language in ("de", "en"):
        with services.db.session() as session:
            users.set_language(session, account.user_id, language)
            session.commit()
        for name, shown in pages.items():
            page = web_client.get(shown.path)
            assert page.status_code in (200, 404), (shown.path, page.status_code)
            assert f'<html lang="{language}"' in page.text, shown.path
            found = leaked(page.text, language, ALLOWED | shown.data)
            if name == "invoice" and language == "de":
                _assert_german_plurals(page.text)
            if found:
                leaks.setdefault(language, {})[name] = sorted(found)
        refused = web_client.post("/app/settings", data={"csrf_token": "forged"})
        assert refused.status_code == 403
        if found := leaked(refused.text, language):
            leaks.setdefault(language, {})["403 page"] = sorted(found)

    web_client.cookies.clear()  # signed out: the login page, in the language asked for
    for language in ("de", "en"):
        login = web_client.get(f"/app/login?lang={language}")
        assert login.status_code == 200 and f'<html lang="{language}"' in login.text
        if found := leaked(login.text, language):
            leaks.setdefault(language, {})["login"] = sorted(found)
    assert not leaks, "\n".join(
        f"{lang} {name}: {words}" for lang, d in leaks.items() for name, words in d.items()
    )

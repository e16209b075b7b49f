"""The pages of the web application as a browser shows them, for the accessibility
tests (test_browser_accessibility.py) and the screenshots of docs/webapp.md
(tests/web/webapp_screenshots.py): one company with a document of every kind, sent through
the real /v1 API and read by the pipeline's own steps; axe-core run in the page; the
page's horizontal overflow."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
from playwright.sync_api import Browser, BrowserContext, Page

from storage.repositories import companies, users
from tests.web.conftest import LiveServer
from tests.web.language_words import document_words, words
from tests.web.results_helpers import (
    bank_statement,
    e_invoice,
    invalid_e_invoice,
    payment_file,
    plain_pdf,
    read_queued,
)
from tests.web.support import Account, make_account

AXE_SCRIPT = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {"desktop": 1366, "phone": 390}
BROWSER_LOCALES = {"de": "de-DE", "en": "en-GB"}
# Serious and critical violations fail the tests; axe's own words, its rule ids and the
# first few elements are what the message shows.
BLOCKING = ("serious", "critical")
_RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ")),
  }));
}"""
_OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@dataclass(frozen=True)
class Seeded:
    """The company's pages by name (name -> path under the live server)."""

    account: Account
    pages: dict[str, str]
    invoice_number: str
    invoice_gross: str
    data: dict[str, frozenset[str]]
    """Per page, the words of data it may show (language_words.document_words): a
    result's own document, the lists' file names."""


def send(live: LiveServer, account: Account, document: tuple[str, bytes], **fields: str) -> str:
    name, content = document
    response = httpx.post(
        f"{live.url}/v1/uploads",
        headers=account.headers,
        files={"file": (name, content)},
        data=fields,
        timeout=60,
    )
    assert response.status_code == 202, response.text
    upload_id: str = response.json()["id"]
    return upload_id


def upload_state(live: LiveServer, account: Account, upload_id: str) -> dict[str, Any]:
    response = httpx.get(f"{live.url}/v1/uploads/{upload_id}", headers=account.headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _result_path(body: dict[str, Any]) -> str:
    assert body["status"] == "completed", body
    url: str = body["result"]["url"]
    return url[url.index("/app/") :]


def seed_pages(live: LiveServer) -> Seeded:
    """A German company (its users have not chosen a language) with an IBAN of its own,
    an e-invoice, a bank statement, a payment file, another document and a rejected
    e-invoice, all read."""
    account = make_account(live.database, "Müller Bürobedarf GmbH", locale="de", language=None)
    with live.database.session() as session:
        companies.update_profile(
            session,
            account.company_id,
            name="Müller Bürobedarf GmbH",
            vat_ids=["DE123456789"],
            tax_number=None,
            ibans=["DE89370400440532013000"],
            locale="de",
        )
        session.commit()
    documents = {
        "invoice": (e_invoice(), {}),
        "bank-statement": (bank_statement(), {"documentType": "bank_statement"}),
        "payment-file": (payment_file(), {}),
        "document": (plain_pdf(), {}),
        "failed-upload": (invalid_e_invoice(), {}),
    }
    sent = {name: send(live, account, doc, **fields) for name, (doc, fields) in documents.items()}
    read_queued(live.services)
    states = {name: upload_state(live, account, upload_id) for name, upload_id in sent.items()}
    assert states["failed-upload"]["status"] == "failed", states["failed-upload"]
    pages = {"inbox": "/app/uploads"}
    for name, body in states.items():
        pages[name] = (
            f"/app/uploads/{body['id']}" if name == "failed-upload" else _result_path(body)
        )
    pages["invoice-print"] = f"{pages['invoice']}/print"
    pages["settings"] = "/app/settings"
    invoice = httpx.get(
        f"{live.url}/v1/results/{pages['invoice'].rsplit('/', 1)[1]}",
        headers=account.headers,
    )
    assert invoice.status_code == 200, invoice.text
    data = invoice.json()
    invoice_data = data["data"]["invoice"]
    own = {name: document_words(*doc) for name, (doc, _) in documents.items()}
    names = frozenset(words(" ".join(doc[0] for doc, _ in documents.values())))
    allowed = {"inbox": names, "invoice-print": own["invoice"], **own}
    return Seeded(account, pages, invoice_data["number"], invoice_data["totals"]["gross"], allowed)


def set_language(live: LiveServer, account: Account, language: str) -> None:
    with live.database.session() as session:
        users.set_language(session, account.user_id, language)
        session.commit()


def signed_in_context(
    browser: Browser, live: LiveServer, account: Account, language: str, width: int
) -> BrowserContext:
    """A browser of the language's locale at `width` px, signed in through the form. The
    pages' Content-Security-Policy is bypassed so axe can be injected (the policy has
    its own test, test_browser_csp.py)."""
    context = browser.new_context(
        base_url=live.url,
        locale=BROWSER_LOCALES[language],
        viewport={"width": width, "height": 900},
        bypass_csp=True,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"/app/login?lang={language}")
    page.locator('input[name="email"]').fill(account.email)
    page.locator('input[name="password"]').fill(account.password)
    page.locator('form[action^="/app/login"] button').click()
    page.wait_for_url("**/app/uploads**")
    return context


def axe_violations(page: Page) -> list[str]:
    """The page's serious and critical accessibility violations, as axe-core finds them."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_SCRIPT))
    found: list[dict[str, Any]] = page.evaluate(_RUN_AXE)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
        for v in found
        if v["impact"] in BLOCKING
    ]


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (0: it fits)."""
    overflow: int = page.evaluate(_OVERFLOW)
    return overflow

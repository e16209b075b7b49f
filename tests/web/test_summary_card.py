"""The key facts at a glance (issue 43, part 1): the summary card every result page opens
with, in both languages, and the inbox's columns of what was read. Results are made by
the real API and pipeline from corpus files; the expected facts come from the stored
result, formatted as the page's language formats them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from api.web.formats import format_date, format_money, format_number
from api.web.i18n import translate
from storage.db import Database
from storage.repositories import companies
from tests.web.results_helpers import (
    bank_statement,
    e_invoice,
    payment_file,
    plain_pdf,
    result_id,
    result_path,
    send_and_read,
    stored_result,
)
from tests.web.support import Account, log_in, make_account, seed_upload
from tests.web.test_inbox import listed

LANGUAGES = ("de", "en")


@pytest.fixture(params=LANGUAGES)
def reader(
    request: pytest.FixtureRequest, client: TestClient, database: Database
) -> tuple[TestClient, Account, str]:
    """Signed in as a user who reads the pages in the parameter's language."""
    language = str(request.param)
    account = make_account(database, language=language)
    assert log_in(client, account.email).status_code == 303
    return client, account, language


def _read(
    client: TestClient, account: Account, services: Services, document: tuple[str, bytes], **f: str
) -> dict[str, Any]:
    name, content = document
    return send_and_read(client, account.headers, services, name, content, **f)


def _card(client: TestClient, path: str) -> tuple[Any, dict[str, str], str]:
    """The card (the first section after the heading), its facts and its verdict."""
    response = client.get(path)
    assert response.status_code == 200, response.text
    page: Any = html.fromstring(response.text)
    card: Any = page.xpath("//main//section")[0]
    assert card.get("aria-labelledby") == "summary", "the card opens the page"
    facts = {
        " ".join(dt.text_content().split()): " ".join(dt.getnext().text_content().split())
        for dt in card.xpath(".//dl/dt")
    }
    verdict = " ".join(
        card.xpath('.//p[@class="verdict"]/span[contains(@class, "flag")]')[0]
        .text_content()
        .split()
    )
    return card, facts, verdict


def _t(language: str, msgid: str) -> str:
    return translate(language, msgid)


def _grouped(iban: str) -> str:
    compact = iban.replace(" ", "").upper()
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def test_an_invoice_opens_with_its_key_facts_and_one_verdict(
    reader: tuple[TestClient, Account, str], services: Services, database: Database
) -> None:
    client, account, language = reader
    body = _read(client, account, services, e_invoice())
    data = stored_result(services, result_id(body)).data
    invoice = data["invoice"]

    card, facts, verdict = _card(client, result_path(body))
    assert facts[_t(language, "Direction")] == _t(language, "Supplier invoice (received)")
    assert facts[_t(language, "Supplier")] == invoice["seller"]["name"]
    assert facts[_t(language, "Number")] == invoice["number"]
    assert facts[_t(language, "Issue date")] == format_date(invoice["issueDate"], language)
    gross = format_money(invoice["totals"]["gross"], invoice["currency"], language)
    assert facts[_t(language, "Gross amount")] == gross
    due = invoice.get("dueDate")
    expected_due = format_date(due, language) if due else _t(language, "not on the invoice")
    assert facts[_t(language, "Due date")] == expected_due
    ibans = [m["payeeIban"] for m in invoice.get("paymentMeans", []) if m.get("payeeIban")]
    assert facts["IBAN"] == (_grouped(ibans[0]) if ibans else _t(language, "not on the invoice"))
    # The company's master data matches neither party: the direction needs a person.
    assert data["directionUncertain"] is True
    assert verdict == _t(language, "Needs review")
    assert "verdict-warn" in card.get("class")
    reason = "The direction is uncertain: no party matched the company's master data."
    assert _t(language, reason) in card.text_content()

    # The company is the buyer: the parties decide, the invoice is valid (green).
    with database.session() as session:
        company = companies.get_company(session, account.company_id)
        assert company is not None
        company.name = invoice["buyer"]["name"]
        session.commit()
    _, content = e_invoice()
    again = _read(client, account, services, ("again.xml", content + b"\n"))
    card, facts, verdict = _card(client, result_path(again))
    assert verdict == _t(language, "Valid") and "verdict-ok" in card.get("class")
    assert facts[_t(language, "Possible duplicates")] == "1"


def test_a_customer_invoice_names_the_customer(
    reader: tuple[TestClient, Account, str], services: Services, database: Database
) -> None:
    client, account, language = reader
    name, content = e_invoice()
    first = _read(client, account, services, (name, content))
    seller = stored_result(services, result_id(first)).data["invoice"]["seller"]["name"]
    with database.session() as session:
        company = companies.get_company(session, account.company_id)
        assert company is not None
        company.name = seller
        session.commit()
    issued = _read(client, account, services, ("issued.xml", content + b"\n"))
    buyer = stored_result(services, result_id(issued)).data["invoice"]["buyer"]["name"]

    _, facts, _ = _card(client, result_path(issued))
    assert facts[_t(language, "Direction")] == _t(language, "Customer invoice (issued)")
    assert facts[_t(language, "Customer")] == buyer


def test_a_statement_opens_with_account_period_balances_and_what_is_left(
    reader: tuple[TestClient, Account, str], services: Services
) -> None:
    client, account, language = reader
    body = _read(client, account, services, bank_statement(), documentType="bank_statement")
    data = stored_result(services, result_id(body)).data
    statement = data["statement"]

    _, facts, verdict = _card(client, result_path(body))
    assert facts[_t(language, "Account")] == _grouped(statement["accountIban"])
    period = (
        f"{format_date(statement['periodStart'], language)} \N{EN DASH} "
        f"{format_date(statement['periodEnd'], language)}"
    )
    assert facts[_t(language, "Period")] == period
    currency = statement["currency"]
    for label, key in (
        ("Opening balance", "openingBalance"),
        ("Closing balance", "closingBalance"),
    ):
        assert facts[_t(language, label)] == format_money(statement[key], currency, language)
    expected = {True: "Reconciled", False: "Not reconciled", None: "Not checked"}
    assert verdict == _t(language, expected[data["reconciled"]])
    total = len(data["transactions"])
    left = _t(language, "%(left)s of %(total)s transactions") % {"left": total, "total": total}
    assert facts[_t(language, "Left to confirm")] == left

    client.post(
        f"/app/bank-imports/{result_id(body)}/confirm",
        data={"action": "all", "csrf_token": _csrf(client, result_path(body))},
    )
    _, facts, _ = _card(client, result_path(body))
    everything = _t(language, "nothing: every transaction is confirmed")
    assert facts[_t(language, "Left to confirm")] == everything


def _csrf(client: TestClient, path: str) -> str:
    page: Any = html.fromstring(client.get(path).text)
    return str(page.xpath('string(//input[@name="csrf_token"]/@value)'))


def test_a_payment_file_opens_with_debtor_count_and_sum(
    reader: tuple[TestClient, Account, str], services: Services
) -> None:
    client, account, language = reader
    body = _read(client, account, services, payment_file())
    data = stored_result(services, result_id(body)).data
    payments = data["payments"]

    card, facts, verdict = _card(client, result_path(body))
    if data["kind"] == "credit_transfer":
        debtor = payments[0].get("own_name") or payments[0].get("ownName")
        assert facts[_t(language, "Debtor")] == (debtor or data.get("initiatingParty"))
    else:
        assert payments[0]["name"] in facts[_t(language, "Debtor")]
    assert facts[_t(language, "Payments")] == format_number(len(payments), language)
    assert facts[_t(language, "Sum")] == format_money(
        data["controlSum"], payments[0]["currency"], language
    )
    assert verdict == _t(language, "Totals match") and "verdict-ok" in card.get("class")


def test_another_document_says_what_it_is_and_why_it_is_not_an_invoice(
    reader: tuple[TestClient, Account, str], services: Services
) -> None:
    client, account, language = reader
    body = _read(client, account, services, plain_pdf())
    _, facts, verdict = _card(client, result_path(body))
    assert facts[_t(language, "What it is")] == _t(language, "PDF document")
    why = "No invoice was recognised in it (no e-invoice data, no invoice in its text)."
    assert facts[_t(language, "Why it is not an invoice")] == _t(language, why)
    assert verdict == _t(language, "Filed as a document")

    sepa = _read(client, account, services, payment_file(), documentType="supplier_invoice")
    _, facts, _ = _card(client, result_path(sepa))
    assert facts[_t(language, "What it is")] == _t(language, "SEPA payment file")
    sepa_why = "It is a SEPA payment file: it moves money, it does not bill."
    assert facts[_t(language, "Why it is not an invoice")] == _t(language, sepa_why)


def test_the_inbox_shows_what_was_read(
    reader: tuple[TestClient, Account, str], services: Services
) -> None:
    client, account, language = reader
    invoice_body = _read(client, account, services, e_invoice())
    statement_body = _read(
        client, account, services, bank_statement(), documentType="bank_statement"
    )
    invoice = stored_result(services, result_id(invoice_body)).data["invoice"]
    statement = stored_result(services, result_id(statement_body)).data

    page: Any = html.fromstring(client.get("/app/uploads").text)
    headers = [" ".join(th.text_content().split()) for th in page.xpath("//thead/tr/th")]
    for label in ("Supplier / customer", "Number", "Date", "Amount", "Verdict"):
        assert _t(language, label) in headers

    def row(upload_id: str) -> dict[str, str]:
        found: Any = page.xpath(f'//tbody/tr[th/a[@href="/app/uploads/{upload_id}"]]')[0]
        return {
            name: " ".join(found.xpath(f'string(./td[@class="{cls}"])').split())
            for name, cls in (
                ("party", "glance-party"),
                ("number", "glance-number"),
                ("date", "glance-date"),
                ("amount", "num glance-amount"),
                ("verdict", "glance-verdict"),
            )
        }

    shown = row(invoice_body["id"])
    assert shown["party"] == invoice["seller"]["name"]
    assert shown["number"] == invoice["number"]
    assert shown["date"] == format_date(invoice["issueDate"], language)
    assert shown["amount"] == format_money(
        invoice["totals"]["gross"], invoice["currency"], language
    )
    assert shown["verdict"] == _t(language, "Needs review")  # as on its card

    shown = row(statement_body["id"])
    st = statement["statement"]
    assert shown["party"] == _grouped(st["accountIban"])
    assert shown["amount"] == format_money(st["closingBalance"], st["currency"], language)
    expected = {True: "Reconciled", False: "Not reconciled", None: "Not checked"}
    assert shown["verdict"] == _t(language, expected[statement["reconciled"]])


def test_the_inbox_filters_by_what_a_document_was_read_as(
    web_client: TestClient, database: Database, account: Account
) -> None:
    company = account.company_id
    invoice = seed_upload(database, company, status="completed", result_type="invoice")
    statement = seed_upload(database, company, status="completed", result_type="bank_statement")
    document = seed_upload(database, company, status="completed", result_type="other_document")
    seed_upload(database, company, status="failed", document_type="supplier_invoice")

    assert listed(web_client.get("/app/uploads?read=invoice").text) == [invoice]
    assert listed(web_client.get("/app/uploads?read=bank_statement").text) == [statement]
    assert listed(web_client.get("/app/uploads?read=other_document").text) == [document]
    both = web_client.get("/app/uploads?read=invoice&type=auto").text
    assert listed(both) == [invoice]
    refused = web_client.get("/app/uploads?read=letter")
    assert refused.status_code == 200 and len(listed(refused.text)) == 4
    assert "Unknown kind of result &#39;letter&#39; is ignored." in refused.text
    # A result whose data says nothing is judged by nobody: no verdict in its row.
    page: Any = html.fromstring(web_client.get("/app/uploads?read=invoice").text)
    assert page.xpath('string(//td[@class="glance-verdict"])').strip() == ""


def test_long_strings_wrap_inside_the_inbox_cells(
    web_client: TestClient, database: Database, account: Account
) -> None:
    long_name = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0" * 4
    seed_upload(database, account.company_id, file_name=long_name + ".xml")
    page: Any = html.fromstring(web_client.get("/app/uploads").text)
    assert page.xpath('//table[contains(@class, "uploads")]')
    stylesheet = web_client.get("/app/static/app.css").text
    assert "main { overflow-wrap: anywhere; }" in stylesheet

"""The result pages, over results the real API and pipeline made from corpus files:
what each page shows, checked against the stored result and the source documents."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from lxml import etree, html

from api.deps import Services
from api.web.formats import format_size
from storage.db import Database
from storage.repositories import companies
from tests.web.results_helpers import (
    bank_statement,
    e_invoice,
    e_invoice_with_warnings,
    invalid_e_invoice,
    invalid_e_invoice_of_every_level,
    payment_file,
    plain_pdf,
    result_id,
    result_path,
    same_invoice_other_file,
    send_and_read,
    stored_result,
    stored_upload,
)
from tests.web.support import Account, log_in, make_user

UBL = {
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
}


def _page(client: TestClient, path: str) -> html.HtmlElement:
    response = client.get(path)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    return html.fromstring(response.text)


def _text(page: html.HtmlElement) -> str:
    return " ".join(page.text_content().split())


def _facts(page: html.HtmlElement, section_id: str) -> dict[str, str]:
    """The <dt>/<dd> pairs of the section headed by `section_id`."""
    section = page.xpath(f'//section[@aria-labelledby="{section_id}"]')[0]
    terms = section.xpath(".//dl/dt")
    return {
        " ".join(dt.text_content().split()): " ".join(dt.getnext().text_content().split())
        for dt in terms
    }


def _read(
    client: TestClient,
    account: Account,
    services: Services,
    document: tuple[str, bytes],
    **fields: str,
) -> dict[str, Any]:
    name, content = document
    return send_and_read(client, account.headers, services, name, content, **fields)


# --- invoices --------------------------------------------------------------------------


def test_invoice_page_shows_the_fields_read_from_the_e_invoice(
    web_client: TestClient, account: Account, services: Services
) -> None:
    name, content = e_invoice()
    body = _read(web_client, account, services, (name, content))
    page = _page(web_client, result_path(body))
    text = _text(page)
    xml = etree.fromstring(content)

    def xpath(path: str) -> str:
        return str(xml.xpath(f"string({path})", namespaces=UBL)).strip()

    number = xpath("/*/cbc:ID")
    assert page.xpath("//h1")[0].text_content().strip().endswith(number)
    overview = _facts(page, "overview")
    assert overview["Number"] == number
    assert overview["Currency"] == xpath("/*/cbc:DocumentCurrencyCode")
    issue = xpath("/*/cbc:IssueDate")  # the user reads English: 2015-01-09
    assert overview["Issue date"] == issue
    seller_name = xpath("//cac:AccountingSupplierParty//cac:PartyLegalEntity/cbc:RegistrationName")
    buyer_name = xpath("//cac:AccountingCustomerParty//cac:PartyLegalEntity/cbc:RegistrationName")
    seller = page.xpath('//section[@aria-labelledby="party-seller"]')[0].text_content()
    buyer = page.xpath('//section[@aria-labelledby="party-buyer"]')[0].text_content()
    assert seller_name in seller and buyer_name in buyer
    assert xpath("//cac:AccountingSupplierParty//cac:PartyTaxScheme/cbc:CompanyID") in seller
    for line_name in xml.xpath("//cac:InvoiceLine/cac:Item/cbc:Name/text()", namespaces=UBL):
        assert str(line_name).strip() in text
    rows = page.xpath('//section[@aria-labelledby="lines"]//tbody/tr')
    assert len(rows) == len(xml.xpath("//cac:InvoiceLine", namespaces=UBL))
    vat_rows = page.xpath('//section[@aria-labelledby="vat"]//tbody/tr')
    assert len(vat_rows) == len(xml.xpath("/*/cac:TaxTotal/cac:TaxSubtotal", namespaces=UBL))
    payable = xpath("/*/cac:LegalMonetaryTotal/cbc:PayableAmount")
    totals = page.xpath('//section[@aria-labelledby="totals"]')[0].text_content()
    assert _en_amount(payable) in totals
    iban = xpath("//cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID").replace(" ", "")
    if iban:
        assert " ".join(iban[i : i + 4] for i in range(0, len(iban), 4)) in text
    assert "Validation report" in text and "No findings" in text
    assert page.xpath(f'//a[@href="/app/results/{result_id(body)}/original"]')
    assert page.xpath(f'//form[@action="/app/results/{result_id(body)}/delete"]')


def _en_amount(value: str) -> str:
    """1234.5 as an English page prints it: 1,234.50 (German pages: test_languages.py)."""
    return f"{float(value):,.2f}"


def test_invoice_page_keeps_the_warnings_of_a_valid_e_invoice(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, e_invoice_with_warnings())
    stored = stored_result(services, result_id(body)).data["validation"]["findings"]
    warnings = [f for f in stored if f["level"] == "warning"]
    assert warnings

    page = _page(web_client, result_path(body))
    rows = page.xpath('//section[@aria-labelledby="validation"]//table[@class="findings"]/tbody/tr')
    shown = [(r[0].text_content().strip(), r[1].text_content().strip()) for r in rows]
    # Grouped by business term (issue 18): every warning shown, in its term's table.
    assert sorted(("warning", f["id"]) for f in warnings) == sorted(
        s for s in shown if s[0] == "warning"
    )
    assert warnings[0]["text"] in _text(page)


def test_direction_uncertain_and_mismatch_are_flagged(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    uncertain = _read(web_client, account, services, (name, content))
    page = _page(web_client, result_path(uncertain))
    direction = page.xpath('//section[@aria-labelledby="direction"]')[0].text_content()
    assert "Supplier invoice (received)" in direction and "uncertain" in direction

    buyer = stored_result(services, result_id(uncertain)).data["invoice"]["buyer"]["name"]
    with database.session() as session:
        company = companies.get_company(session, account.company_id)
        assert company is not None and buyer
        company.name = buyer  # the company is the buyer: the parties say supplier invoice
        session.commit()
    sent_as_customer = _read(
        web_client,
        account,
        services,
        (name, same_invoice_other_file(content)),
        documentType="customer_invoice",
    )
    page = _page(web_client, result_path(sent_as_customer))
    direction = page.xpath('//section[@aria-labelledby="direction"]')[0].text_content()
    assert "Customer invoice (issued)" in direction and "mismatch" in direction
    assert "uncertain" not in direction


def test_the_same_invoice_in_another_file_is_listed_as_a_possible_duplicate(
    web_client: TestClient, account: Account, services: Services
) -> None:
    name, content = e_invoice()
    first = _read(web_client, account, services, (name, content))
    second = _read(web_client, account, services, ("copy.xml", same_invoice_other_file(content)))
    assert result_id(first) != result_id(second)

    page = _page(web_client, result_path(second))
    links = page.xpath('//section[@aria-labelledby="duplicates"]//a/@href')
    assert links == [result_path(first)]
    unrelated = _read(web_client, account, services, e_invoice_with_warnings())
    assert not _page(web_client, result_path(unrelated)).xpath(
        '//section[@aria-labelledby="duplicates"]'
    )


def test_amounts_and_dates_follow_the_company_locale(
    client: TestClient, database: Database, services: Services
) -> None:
    from tests.web.support import make_account

    account = make_account(database, locale="en", language=None)
    assert log_in(client, account.email).status_code == 303
    name, content = e_invoice()
    body = _read(client, account, services, (name, content))
    data = stored_result(services, result_id(body)).data["invoice"]

    overview = _facts(_page(client, result_path(body)), "overview")
    assert overview["Issue date"] == data["issueDate"]  # en: 2015-01-09
    totals = _page(client, result_path(body)).xpath('//section[@aria-labelledby="totals"]')[0]
    gross = f"{float(data['totals']['gross']):,.2f}"
    assert gross in totals.text_content()


# --- other results ---------------------------------------------------------------------


def test_payment_file_page_lists_the_payments_and_checks_the_sums(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, payment_file())
    assert body["result"]["type"] == "payment_file"
    data = stored_result(services, result_id(body)).data
    page = _page(web_client, result_path(body))

    rows = page.xpath('//table[@class="payments"]/tbody/tr')
    assert len(rows) == data["numberOfTransactions"] == len(data["payments"])
    for row, payment in zip(rows, data["payments"], strict=True):
        assert payment["name"] in row.text_content()
        assert payment["iban"][:4] in row.text_content()
    checks = page.xpath('//table[@class="checks"]/tbody/tr')
    assert [c.xpath("./th")[0].text_content() for c in checks] == [
        "Number of transactions",
        "Control sum",
    ]
    assert all("matches" in c.text_content() for c in checks)
    assert data["messageId"] in _text(page)


def test_bank_import_page_shows_the_statement_and_its_transactions(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, bank_statement(), documentType="bank_statement")
    data = stored_result(services, result_id(body)).data
    page = _page(web_client, result_path(body))

    facts = _facts(page, "statement")
    iban = data["statement"]["accountIban"]
    assert facts["Account IBAN"].replace(" ", "") == iban
    assert facts["Reconciled"].startswith("yes") is (data["reconciled"] is True)
    assert _en_amount(data["statement"]["closingBalance"]).lstrip("-") in facts["Closing balance"]
    rows = page.xpath('//table[@class="transactions"]/tbody/tr')
    assert len(rows) == len(data["transactions"])
    assert all(r.xpath('.//input[@type="checkbox"][@name="position"]') for r in rows)
    assert page.xpath('//button[@name="action"][@value="all"]')


def test_document_page_shows_what_was_read_of_another_document(
    web_client: TestClient, account: Account, services: Services
) -> None:
    name, content = plain_pdf()
    body = _read(web_client, account, services, (name, content))
    assert body["result"]["type"] == "other_document"
    data = stored_result(services, result_id(body)).data
    facts = _facts(_page(web_client, result_path(body)), "document")

    assert facts["File name"] == name
    assert facts["File type"] == "PDF"
    assert facts["Pages"] == str(data["page_count"])
    assert facts["Size"] == format_size(len(content), "en")  # e.g. 7.1 KB


def test_a_payment_file_sent_as_an_invoice_is_a_document_with_its_payments(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, payment_file(), documentType="supplier_invoice")
    assert body["result"]["type"] == "other_document"
    page = _page(web_client, result_path(body))

    assert "SEPA payment file" in _text(page)
    assert page.xpath('//table[@class="payments"]/tbody/tr')


# --- the upload page -------------------------------------------------------------------


def test_upload_page_of_a_completed_upload_links_its_result(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, e_invoice(), externalId="ext-7")
    page = _page(web_client, f"/app/uploads/{body['id']}")

    assert page.xpath(f'//a[@href="{result_path(body)}"]')
    facts = _facts(page, "details")
    assert facts["External id"] == "ext-7"
    assert facts["Status"] == "Completed"
    history = page.xpath('//table[@class="history"]/tbody/tr')
    assert [r[2].text_content().strip() for r in history] == ["Queued", "Processing", "Completed"]
    assert not page.xpath('//form[contains(@action, "/retry")]')


def test_upload_page_of_an_invalid_e_invoice_lists_every_finding(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, invalid_e_invoice())
    assert body["error"]["code"] == "invalid_e_invoice"
    page = _page(web_client, f"/app/uploads/{body['id']}")
    text = _text(page)

    assert "Failed: Invalid e-invoice" in text
    details = page.xpath('//section[@aria-labelledby="error"]//details[@class="technical"]')[0]
    assert "invalid_e_invoice" in details.text_content()
    assert body["error"]["message"].split()[0] in details.text_content()
    rows = page.xpath('//section[@aria-labelledby="findings"]//tbody/tr')
    assert rows
    assert rows[0][0].text_content().strip() in ("fatal", "error")
    failing_rule = rows[0][1].text_content().strip()
    assert failing_rule in body["error"]["message"]
    assert not page.xpath('//form[contains(@action, "/retry")]')  # not processing_failed


def test_upload_page_of_a_failed_e_invoice_shows_every_stored_finding_of_every_level(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _read(web_client, account, services, invalid_e_invoice_of_every_level())
    assert body["error"]["code"] == "invalid_e_invoice"
    page = _page(web_client, f"/app/uploads/{body['id']}")
    rows = page.xpath('//section[@aria-labelledby="findings"]//tbody/tr')
    stored = stored_upload(services, body["id"]).error_details
    assert stored is not None
    shown = sorted(
        (
            row[0].text_content().strip(),
            row[1].text_content().strip(),
            " ".join(row[2].xpath('.//details/p[@lang="en"]')[0].text_content().split()),
            (row[3].xpath("./code/@title") or [""])[0],
            row[4].text_content().strip(),
        )
        for row in rows
    )
    expected = sorted(
        (f["level"], f["id"], " ".join(f["text"].split()), f["location"] or "", f["stage"] or "")
        for f in stored["findings"]
    )
    assert shown == expected
    levels = [row[0] for row in shown]
    assert {"fatal", "error", "warning", "information"} <= set(levels)
    # Grouped by business term (issue 18): one table per term, the tables ordered by their
    # worst finding, each table's findings worst first.
    order = ["fatal", "error", "warning", "information"]
    tables = page.xpath('//section[@aria-labelledby="findings"]//table[@class="findings"]')
    table_levels = [
        [order.index(row[0].text_content().strip()) for row in table.xpath("./tbody/tr")]
        for table in tables
    ]
    assert all(found == sorted(found) for found in table_levels)
    worst = [found[0] for found in table_levels]
    assert worst == sorted(worst)


def test_a_user_of_the_company_sees_another_users_upload(
    client: TestClient, account: Account, services: Services, database: Database
) -> None:
    body = _read(client, account, services, e_invoice())
    make_user(database, account.company_id, "colleague@example.com")
    assert log_in(client, "colleague@example.com").status_code == 303

    assert client.get(f"/app/uploads/{body['id']}").status_code == 200
    assert client.get(result_path(body)).status_code == 200

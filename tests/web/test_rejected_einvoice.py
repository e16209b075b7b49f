"""A rejected e-invoice shows what could be read (issue 43, part 4): an XRechnung made
invalid here (its buyer reference, BT-10, taken out: BR-DE-15 fails) is read by the real
API and pipeline; its failure keeps the parties, number, dates and amounts, and the failed
upload's page shows them next to the findings, in German and English."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from api.web.formats import format_date, format_money
from api.web.i18n import translate
from storage.db import Database
from tests.web.results_helpers import corpus_named, send_and_read, stored_upload
from tests.web.support import Account, log_in, make_account

XRECHNUNG = "itplr-kosit+validator-configuration-xrechnung/src/test/instances/ubl001.xml"
BUYER_REFERENCE = b"<cbc:BuyerReference>A test buyer reference</cbc:BuyerReference>"


def invalid_xrechnung() -> tuple[str, bytes]:
    """A valid XRechnung without its buyer reference: BR-DE-15 fails, the rest reads."""
    _, content = corpus_named(XRECHNUNG)
    assert BUYER_REFERENCE in content
    return "rechnung-ohne-leitweg.xml", content.replace(BUYER_REFERENCE, b"")


@pytest.fixture(params=("de", "en"))
def reader(
    request: pytest.FixtureRequest, client: TestClient, database: Database
) -> tuple[TestClient, Account, str]:
    language = str(request.param)
    account = make_account(database, language=language)
    assert log_in(client, account.email).status_code == 303
    return client, account, language


def test_a_rejected_e_invoice_shows_what_could_be_read(
    reader: tuple[TestClient, Account, str], services: Services
) -> None:
    client, account, language = reader
    name, content = invalid_xrechnung()
    body = send_and_read(client, account.headers, services, name, content)
    assert body["status"] == "failed" and body["error"]["code"] == "invalid_e_invoice"
    details = stored_upload(services, body["id"]).error_details or {}
    assert details["invoice"]["number"] == "12115118"
    assert any(f["id"] == "BR-DE-15" for f in details["findings"])

    page: Any = html.fromstring(client.get(f"/app/uploads/{body['id']}").text)
    section = page.xpath('//section[@aria-labelledby="rejected-read"]')[0]
    heading = section.xpath(".//h2")[0].text_content()
    assert heading == translate(language, "What could be read of the invoice")
    facts = {
        dt.text_content().strip(): " ".join(dt.getnext().text_content().split())
        for dt in section.xpath(".//dl/dt")
    }

    def t(msgid: str) -> str:
        return translate(language, msgid)

    assert facts[t("Seller")].startswith("De Koksmaat, Velsen-Noord")
    assert "NL8200.98.395.B.01" in facts[t("Seller")]
    assert facts[t("Buyer")] == "ODIN 59, HEEMSKERK"
    assert facts[t("Invoice number")] == "12115118"
    assert facts[t("Issue date")] == format_date("2015-01-09", language)
    assert facts[t("Gross")] == format_money("250.33", "EUR", language)
    assert facts[t("Net total")] == format_money("229.60", "EUR", language)
    # Next to the findings, which still say why it was rejected.
    findings = page.xpath('//section[@aria-labelledby="findings"]')[0].text_content()
    assert "BR-DE-15" in findings


def test_a_failure_without_read_facts_shows_none(
    reader: tuple[TestClient, Account, str], services: Services
) -> None:
    """XML in an invoice namespace whose root is no invoice: nothing could be read."""
    client, account, _ = reader
    content = b'<Foo xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'
    body = send_and_read(client, account.headers, services, "foo.xml", content)
    assert body["status"] == "failed" and body["error"]["code"] == "invalid_e_invoice"
    assert "invoice" not in (stored_upload(services, body["id"]).error_details or {})
    page = client.get(f"/app/uploads/{body['id']}").text
    assert 'aria-labelledby="rejected-read"' not in page

"""Correcting a PDF invoice's fields in the web application, through the real app in
both languages: the extraction is kept, every change is recorded (who, when, old, new),
the page shows the corrected value marked and the history, and the results API carries
the corrected values with the original in the trail. An e-invoice is not corrected."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from storage.db import Database
from storage.models import Result, User
from tests.web.evidence_support import seed_invoice_with_evidence
from tests.web.results_helpers import e_invoice, result_id, send_and_read
from tests.web.support import Account, session_csrf

WORDS = {
    "en": ("corrected", "Invoice number from RE-2024-17 to RE-2024-71"),
    "de": ("korrigiert", "Rechnungsnummer von RE-2024-17 zu RE-2024-71"),
}


def _speak(database: Database, account: Account, language: str) -> None:
    with database.session() as session:
        user = session.get(User, account.user_id)
        assert user is not None
        user.language = language
        session.commit()


def _section(client: TestClient, path: str) -> Any:
    found = html.fromstring(client.get(path).text).xpath('//section[@class="corrections"]')
    assert isinstance(found, list) and len(found) == 1
    return found[0]


def _correct(client: TestClient, database: Database, path: str, field: str, value: str) -> Any:
    data = {"csrf_token": session_csrf(client, database), "field": field, "value": value}
    return client.post(f"{path}/corrections", data=data, follow_redirects=False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_pdf_invoices_fields_are_corrected_with_a_trail(
    web_client: TestClient, account: Account, services: Services, database: Database, language: str
) -> None:
    key = seed_invoice_with_evidence(database, services.store, account.company_id, False)
    with database.read_session() as session:
        extracted = session.get_one(Result, key).data
    _speak(database, account, language)
    path = f"/app/invoices/{key}"
    mark, history_line = WORDS[language]

    answer = _correct(web_client, database, path, "number", "RE-2024-71")
    assert answer.status_code == 303 and answer.headers["location"] == f"{path}#corrections"
    assert _correct(web_client, database, path, "gross", "1.500,00").status_code == 303
    assert _correct(web_client, database, path, "gross", "1500.00").status_code == 303

    section = _section(web_client, path)
    number = section.xpath('.//tr[@id="corrected-number"]')[0]
    assert mark in number.text_content() and "RE-2024-71" in number.text_content()
    assert number.xpath("./td")[1].text_content().strip() == "RE-2024-17"  # as read
    history = [li.text_content() for li in section.xpath(".//details//li")]
    assert len(history) == 2  # 1.500,00 and 1500.00 are one value: the third records nothing
    assert history_line in history[-1] and account.email in history[-1]
    assert "RE-2024-71" in web_client.get(path).text.split("<h1>", 1)[1].split("</h1>")[0]

    body = web_client.get(f"/v1/results/{key}", headers=account.headers).json()
    assert body["data"]["invoice"]["number"] == "RE-2024-71"
    assert body["data"]["invoice"]["totals"]["gross"] == "1500.00"
    first = body["corrections"][0]
    assert (first["field"], first["old"], first["new"]) == ("number", "RE-2024-17", "RE-2024-71")
    assert first["by"] == account.email and first["at"].endswith("Z")
    with database.read_session() as session:
        assert session.get_one(Result, key).data == extracted  # the extraction is kept


def test_a_value_that_does_not_fit_is_refused(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    key = seed_invoice_with_evidence(database, services.store, account.company_id, False)
    path = f"/app/invoices/{key}"
    for field, value in [("iban", "DE00 1234"), ("issue_date", "31.02.2024"), ("net", "viel")]:
        assert _correct(web_client, database, path, field, value).status_code == 400
    assert _correct(web_client, database, path, "colour", "blue").status_code == 400
    forged = web_client.post(f"{path}/corrections", data={"field": "number", "value": "X"})
    assert forged.status_code == 403
    assert not _section(web_client, path).xpath(".//details//li")


def test_an_e_invoice_is_not_corrected(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    key = result_id(send_and_read(web_client, account.headers, services, name, content))
    path = f"/app/invoices/{key}"
    assert not _section(web_client, path).xpath(".//form")
    assert _correct(web_client, database, path, "number", "X-1").status_code == 409


def test_an_approved_invoice_is_not_corrected_until_the_approval_is_withdrawn(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    key = seed_invoice_with_evidence(database, services.store, account.company_id, False)
    path = f"/app/invoices/{key}"
    token = session_csrf(web_client, database)
    web_client.post(f"{path}/approval", data={"csrf_token": token, "action": "approve"})
    assert not _section(web_client, path).xpath(".//form")
    assert _correct(web_client, database, path, "number", "R-9").status_code == 409
    web_client.post(f"{path}/approval", data={"csrf_token": token, "action": "withdraw"})
    assert _correct(web_client, database, path, "number", "R-9").status_code == 303

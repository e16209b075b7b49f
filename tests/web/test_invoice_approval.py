"""Approving an invoice in the web application, through the real app in both
languages: the button (POST with CSRF), who and when on the page, the trail of a
withdrawal, and the approval in the results API's JSON."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from storage.db import Database
from storage.models import User
from tests.web.results_helpers import e_invoice, result_id, send_and_read
from tests.web.support import Account, session_csrf

LABELS = {
    "en": ("Approve the invoice", "Withdraw the approval", "approval withdrawn"),
    "de": ("Rechnung freigeben", "Freigabe zurücknehmen", "Freigabe zurückgenommen"),
}


def _speak(database: Database, account: Account, language: str) -> None:
    with database.session() as session:
        user = session.get(User, account.user_id)
        assert user is not None
        user.language = language
        session.commit()


def _approval(client: TestClient, path: str) -> Any:
    found = html.fromstring(client.get(path).text).xpath('//section[@class="approval"]')
    assert isinstance(found, list) and len(found) == 1
    return found[0]


def _send(client: TestClient, database: Database, path: str, action: str) -> Any:
    data = {"csrf_token": session_csrf(client, database), "action": action}
    return client.post(f"{path}/approval", data=data, follow_redirects=False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_invoice_is_approved_and_the_approval_withdrawn(
    web_client: TestClient, account: Account, services: Services, database: Database, language: str
) -> None:
    name, content = e_invoice()
    key = result_id(send_and_read(web_client, account.headers, services, name, content))
    _speak(database, account, language)
    path = f"/app/invoices/{key}"
    approve, withdraw, withdrawn = LABELS[language]
    assert _approval(web_client, path).xpath('.//button[@value="approve"]')[0].text == approve
    assert web_client.get(f"/v1/results/{key}", headers=account.headers).json()["approval"] is None

    answer = _send(web_client, database, path, "approve")
    assert answer.status_code == 303 and answer.headers["location"] == f"{path}#approval"
    section = _approval(web_client, path)
    assert section.xpath('.//button[@value="withdraw"]')[0].text == withdraw
    assert account.email in section.xpath('.//p[@class="approved"]')[0].text_content()
    approval = web_client.get(f"/v1/results/{key}", headers=account.headers).json()["approval"]
    assert approval["by"] == account.email and approval["at"].endswith("Z")

    assert _send(web_client, database, path, "withdraw").status_code == 303
    section = _approval(web_client, path)
    assert section.xpath('.//button[@value="approve"]')
    history = [li.text_content() for li in section.xpath(".//details//li")]
    assert len(history) == 2 and withdrawn in history[0]  # newest first, both kept
    assert web_client.get(f"/v1/results/{key}", headers=account.headers).json()["approval"] is None


def test_approving_needs_the_csrf_token_and_a_known_action(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    key = result_id(send_and_read(web_client, account.headers, services, name, content))
    path = f"/app/invoices/{key}"
    forged = web_client.post(f"{path}/approval", data={"action": "approve"})
    assert forged.status_code == 403
    assert _send(web_client, database, path, "publish").status_code == 400
    assert _approval(web_client, path).xpath('.//button[@value="approve"]')


def test_another_companys_invoice_is_not_found(
    web_client: TestClient,
    account: Account,
    other_account: Account,
    services: Services,
    database: Database,
) -> None:
    name, content = e_invoice()
    key = result_id(send_and_read(web_client, other_account.headers, services, name, content))
    assert _send(web_client, database, f"/app/invoices/{key}", "approve").status_code == 404

"""Supplier bank account changes end to end (issue 42, part 3): generated invoices go in
through the /v1 API and the pipeline's own steps; the second invoice of a supplier
naming another IBAN carries a warning on its page, which the accountant confirms or
dismisses, recorded with who and when. On both backends."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from api.deps import Services
from storage.bank_account_models import AccountWarningRow
from storage.db import Database
from storage.repositories import bank_accounts, users
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.web.results_helpers import result_id, send_and_read
from tests.web.support import Account, session_csrf
from tests.web.test_page_audit import audit

SUPPLIER_VAT_ID = "DE136695976"
FIRST_IBAN = "DE89370400440532013000"
SECOND_IBAN = "DE02120300000000202051"
DUTCH_IBAN = "NL91ABNA0417164300"


def _invoice(
    client: TestClient, account: Account, services: Services, number: str, iban: str
) -> uuid.UUID:
    spec = replace(SAMPLE_INVOICE, number=number, iban=iban, seller_vat_id=SUPPLIER_VAT_ID)
    body: dict[str, Any] = send_and_read(
        client,
        account.headers,
        services,
        f"{number}.pdf",
        german_invoice(spec),
        documentType="supplier_invoice",
    )
    return result_id(body)


def _warnings(database: Database, key: uuid.UUID) -> list[AccountWarningRow]:
    with database.read_session() as session:
        return bank_accounts.warnings_of(session, key)


def test_a_second_invoice_with_another_iban_is_warned_and_confirmed(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    first = _invoice(web_client, account, services, "RE-1", FIRST_IBAN)
    same = _invoice(web_client, account, services, "RE-2", FIRST_IBAN)
    changed = _invoice(web_client, account, services, "RE-3", SECOND_IBAN)
    assert _warnings(database, first) == [] and _warnings(database, same) == []
    (warning,) = _warnings(database, changed)
    assert (warning.reason, warning.iban, warning.known_ibans) == (
        "new_iban",
        SECOND_IBAN,
        [FIRST_IBAN],
    )

    page = web_client.get(f"/app/invoices/{changed}")
    assert page.status_code == 200
    assert "New bank account" in page.text and "DE02 1203 0000 0000 2020 51" in page.text
    assert 'value="confirmed"' in page.text
    assert audit(page.text, session_csrf(web_client, database)) == []

    answer = web_client.post(
        f"/app/invoices/{changed}/account-warnings/{warning.id}",
        data={"decision": "confirmed", "csrf_token": session_csrf(web_client, database)},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    (decided,) = _warnings(database, changed)
    assert (decided.decision, decided.decided_by) == ("confirmed", account.user_id)
    assert decided.decided_at is not None
    shown = web_client.get(f"/app/invoices/{changed}").text
    assert f"by {account.email}" in shown and 'value="confirmed"' not in shown
    answered = web_client.get(f"/v1/results/{changed}", headers=account.headers).json()
    (carried,) = answered["accountWarnings"]
    assert (carried["reason"], carried["iban"], carried["decision"]) == (
        "new_iban",
        SECOND_IBAN,
        "confirmed",
    )
    assert carried["knownIbans"] == [FIRST_IBAN] and carried["decidedAt"].endswith("Z")


def test_the_first_decision_stands_and_a_dismissal_is_recorded(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    _invoice(web_client, account, services, "RE-1", FIRST_IBAN)
    changed = _invoice(web_client, account, services, "RE-2", SECOND_IBAN)
    (warning,) = _warnings(database, changed)
    csrf = session_csrf(web_client, database)
    url = f"/app/invoices/{changed}/account-warnings/{warning.id}"
    for decision in ("dismissed", "confirmed"):
        answer = web_client.post(url, data={"decision": decision, "csrf_token": csrf})
        assert answer.status_code == 200  # followed to the invoice page
    (decided,) = _warnings(database, changed)
    assert (decided.decision, decided.decided_by) == ("dismissed", account.user_id)
    bad = web_client.post(url, data={"decision": "maybe", "csrf_token": csrf})
    assert bad.status_code == 400


def test_an_iban_of_another_country_than_the_suppliers_is_warned_on_the_first_invoice(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    key = _invoice(web_client, account, services, "RE-1", DUTCH_IBAN)
    (warning,) = _warnings(database, key)
    assert (warning.reason, warning.supplier_country) == ("foreign_iban", "DE")
    page = web_client.get(f"/app/invoices/{key}").text
    assert re.search(r"held in NL, but the supplier is in DE", page)


def test_another_companys_warning_is_not_found(
    web_client: TestClient,
    account: Account,
    other_account: Account,
    services: Services,
    database: Database,
) -> None:
    _invoice(web_client, other_account, services, "RE-1", FIRST_IBAN)
    theirs = _invoice(web_client, other_account, services, "RE-2", SECOND_IBAN)
    mine = _invoice(web_client, account, services, "RE-3", SECOND_IBAN)
    assert _warnings(database, mine) == []  # the other company's accounts do not count
    (warning,) = _warnings(database, theirs)
    answer = web_client.post(
        f"/app/invoices/{theirs}/account-warnings/{warning.id}",
        data={"decision": "confirmed", "csrf_token": session_csrf(web_client, database)},
    )
    assert answer.status_code == 404
    assert _warnings(database, theirs)[0].decision is None


def test_a_wrong_check_digit_of_the_sellers_vat_id_is_shown_on_the_invoice_page(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    spec = replace(SAMPLE_INVOICE, seller_vat_id="DE136695975")
    body = send_and_read(web_client, account.headers, services, "wrong.pdf", german_invoice(spec))
    page = web_client.get(f"/app/invoices/{result_id(body)}").text
    assert "wrong check digit" in page and "is not valid" in page
    with database.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    german = web_client.get(f"/app/invoices/{result_id(body)}").text
    assert "falsche Prüfziffer" in german and "ist ungültig" in german

"""E-mail intake in the web application: the settings page with the company's address
and its rotation; e-mail batches in the batch list."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from storage.db import Database
from storage.models import Batch, utcnow
from storage.repositories import mail_addresses
from tests.web.support import Account, seed_batch, session_csrf

ADDRESS = re.compile(r'<output id="intake-address" class="key">([a-z2-7]{24})@mail\.localhost<')


def _address(web_client: TestClient) -> str:
    page = web_client.get("/app/settings/email")
    assert page.status_code == 200
    found = ADDRESS.search(page.text)
    assert found is not None, page.text
    return found.group(1)


def _company_of(database: Database, token: str) -> object:
    with database.read_session() as session:
        return mail_addresses.company_of_token(session, token, utcnow())


def test_the_page_shows_the_company_s_address_and_its_suffixes(
    web_client: TestClient, database: Database, account: Account
) -> None:
    token = _address(web_client)

    assert _address(web_client) == token  # made once, then shown again
    assert _company_of(database, token) == account.company_id
    page = web_client.get("/app/settings/email").text
    assert f"{token}+supplier@mail.localhost" in page
    assert f"{token}+statement@mail.localhost" in page


def test_rotating_makes_a_new_address_and_the_old_one_works_for_a_week(
    web_client: TestClient, database: Database, account: Account
) -> None:
    old = _address(web_client)

    rotated = web_client.post(
        "/app/settings/email/rotate",
        data={"csrf_token": session_csrf(web_client, database)},
        follow_redirects=False,
    )

    assert rotated.status_code == 303
    new = _address(web_client)
    assert new != old
    assert _company_of(database, new) == _company_of(database, old) == account.company_id
    assert "keeps working until" in web_client.get("/app/settings/email").text


def test_rotating_needs_the_csrf_token(web_client: TestClient) -> None:
    old = _address(web_client)
    assert web_client.post("/app/settings/email/rotate").status_code == 403
    assert _address(web_client) == old


def test_the_batch_list_shows_an_e_mail_batch_s_subject_and_sender(
    web_client: TestClient, database: Database, account: Account
) -> None:
    batch_id = seed_batch(database, account.company_id, ["completed"], file_name="message.eml")
    with database.session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        batch.source_type, batch.mail_subject = "email", "Rechnung <März>"
        batch.mail_from = "Lieferant <r@lieferant.example>"
        session.commit()

    page = web_client.get("/app/batches").text

    assert "Rechnung &lt;März&gt;</a>" in page
    assert "E-mail from Lieferant &lt;r@lieferant.example&gt;" in page

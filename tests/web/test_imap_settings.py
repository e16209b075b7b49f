"""The IMAP settings page (docs/email.md): saved with the password sealed, a blank
password keeps the stored one, "Test connection" logs in to a real Dovecot; the DMARC
setting of e-mail intake."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from storage.db import Database
from storage.imap_models import ImapMailbox
from storage.models import Company
from storage.repositories import imap_mailboxes
from storage.settings import Settings
from tests.support.dovecot import Dovecot, start_dovecot
from tests.web.support import Account, session_csrf

PAGE = "/app/settings/email/imap"


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    server = start_dovecot()
    yield server
    server.stop()


def _form(dovecot: Dovecot, user: str, password: str, csrf: str) -> dict[str, str]:
    return {
        "csrf_token": csrf,
        "host": "127.0.0.1",
        "port": str(dovecot.port),
        "security": "starttls",
        "username": user,
        "password": password,
        "folder": "INBOX",
        "after_import": "mark_read",
        "move_to": "",
        "document_type": "supplier_invoice",
        "enabled": "on",
    }


@pytest.fixture
def trusting(settings: Settings, dovecot: Dovecot) -> None:
    settings.imap_ca_file = str(dovecot.ca_file)


def test_saving_seals_the_password_and_a_blank_one_keeps_it(
    web_client: TestClient,
    database: Database,
    account: Account,
    settings: Settings,
    dovecot: Dovecot,
) -> None:
    user, password = dovecot.new_user()
    form = _form(dovecot, user, password, session_csrf(web_client, database))

    saved = web_client.post(PAGE, data=form, follow_redirects=False)
    again = web_client.post(PAGE, data={**form, "password": ""}, follow_redirects=False)

    assert (saved.status_code, again.status_code) == (303, 303)
    with database.read_session() as session:
        mailbox = session.get(ImapMailbox, account.company_id)
        assert mailbox is not None and password not in mailbox.sealed_password
        stored = imap_mailboxes.settings_of(mailbox, imap_mailboxes.password_box(settings))
    assert (stored.password, stored.document_type) == (password, "supplier_invoice")
    page = web_client.get(PAGE).text
    assert f'value="{user}"' in page and password not in page


def test_a_form_with_errors_saves_nothing(
    web_client: TestClient, database: Database, account: Account, dovecot: Dovecot
) -> None:
    form = _form(dovecot, "", "", session_csrf(web_client, database))

    answer = web_client.post(PAGE, data={**form, "port": "0", "after_import": "move"})

    assert answer.status_code == 422
    assert (
        "Enter the mailbox" in answer.text
        and "Enter the folder messages are moved to" in answer.text
    )
    with database.read_session() as session:
        assert session.get(ImapMailbox, account.company_id) is None


def test_test_connection_logs_in_to_the_server(
    web_client: TestClient, database: Database, dovecot: Dovecot, trusting: None
) -> None:
    user, password = dovecot.new_user()
    form = _form(dovecot, user, password, session_csrf(web_client, database))

    good = web_client.post(f"{PAGE}/test", data=form)
    wrong = web_client.post(f"{PAGE}/test", data={**form, "password": "wrong"})

    assert good.status_code == 200 and "Connected. The folder holds 0 messages." in good.text
    assert "The connection failed" in wrong.text and "refused the login" in wrong.text


def test_test_connection_checks_the_certificate(
    web_client: TestClient, database: Database, dovecot: Dovecot
) -> None:
    user, password = dovecot.new_user()
    form = _form(dovecot, user, password, session_csrf(web_client, database))

    answer = web_client.post(f"{PAGE}/test", data=form)

    assert "The connection failed" in answer.text and "CERTIFICATE_VERIFY_FAILED" in answer.text


def test_the_imap_routes_need_the_csrf_token(web_client: TestClient, dovecot: Dovecot) -> None:
    form = _form(dovecot, "u", "p", "")
    assert web_client.post(PAGE, data=form).status_code == 403
    assert web_client.post(f"{PAGE}/test", data=form).status_code == 403
    assert web_client.post("/app/settings/email/dmarc", data={}).status_code == 403


def test_the_dmarc_setting_is_saved(
    web_client: TestClient, database: Database, account: Account
) -> None:
    csrf = session_csrf(web_client, database)

    on = web_client.post(
        "/app/settings/email/dmarc",
        data={"csrf_token": csrf, "refuse_dmarc_fail": "on"},
        follow_redirects=False,
    )

    assert on.status_code == 303
    with database.read_session() as session:
        company = session.get(Company, account.company_id)
        assert company is not None and company.refuse_dmarc_fail
    assert (
        'id="refuse_dmarc_fail" name="refuse_dmarc_fail" aria-describedby="dmarc-hint" checked'
        in (web_client.get("/app/settings/email").text)
    )

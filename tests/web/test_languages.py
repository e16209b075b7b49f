"""Which language a page is in, and the switch: the user's choice (stored with the user,
set by a CSRF-protected form), else the company's locale; before signing in `?lang=`,
else the browser's Accept-Language, else German. Messages built in Python (filters,
form validation, login errors) come in that language too."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.web.i18n import negotiate
from storage.db import Database
from storage.models import User
from tests.web.support import Account, csrf_in, log_in, make_account


def _lang(page: str) -> str:
    return str(html.fromstring(page).xpath("string(/html/@lang)"))


def _h1(page: str) -> str:
    return str(html.fromstring(page).xpath("string(//h1)")).strip()


def _chosen(database: Database, account: Account) -> str | None:
    with database.read_session() as session:
        user = session.get(User, account.user_id)
        assert user is not None
        return user.language


@pytest.fixture
def german_client(client: TestClient, database: Database) -> tuple[TestClient, Account]:
    """Signed in as a user of a German company who has not chosen a language."""
    account = make_account(database, locale="de", language=None)
    client.headers["Accept-Language"] = "en"  # the company decides, not the browser
    assert log_in(client, account.email).status_code == 303
    return client, account


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "de"),
        ("", "de"),
        ("en-GB,en;q=0.9", "en"),
        ("fr-FR, en;q=0.5, de;q=0.8", "de"),
        ("de;q=0, en;q=0.1", "en"),
        ("fr, es", "de"),
        ("en;q=x, de", "de"),
    ],
)
def test_the_browsers_language_is_negotiated(header: str | None, language: str) -> None:
    assert negotiate(header) == language


def test_a_german_company_reads_german_until_the_user_switches(
    german_client: tuple[TestClient, Account], database: Database
) -> None:
    client, account = german_client
    page = client.get("/app/uploads")
    assert _lang(page.text) == "de" and _h1(page.text) == "Eingang"
    assert page.headers["content-language"] == "de"

    switched = client.post(
        "/app/language",
        data={"language": "en", "next": "/app/batches", "csrf_token": csrf_in(page.text)},
        follow_redirects=False,
    )
    assert switched.status_code == 303 and switched.headers["location"] == "/app/batches"
    assert _chosen(database, account) == "en"
    page = client.get("/app/batches")
    assert _lang(page.text) == "en" and _h1(page.text) == "Batches"


def test_an_unknown_language_clears_the_choice(
    web_client: TestClient, account: Account, database: Database
) -> None:
    token = csrf_in(web_client.get("/app/uploads").text)
    data = {"language": "fr", "next": "/app/uploads", "csrf_token": token}
    assert web_client.post("/app/language", data=data).status_code == 200
    assert _chosen(database, account) is None
    assert _h1(web_client.get("/app/uploads").text) == "Eingang"  # the company's locale


def test_the_switch_needs_the_forms_token_and_stays_on_this_site(
    web_client: TestClient, account: Account, database: Database
) -> None:
    refused = web_client.post("/app/language", data={"language": "de", "csrf_token": "forged"})
    assert refused.status_code == 403 and _chosen(database, account) == "en"
    token = csrf_in(web_client.get("/app/uploads").text)
    data = {"language": "de", "next": "https://elsewhere.example/", "csrf_token": token}
    moved = web_client.post("/app/language", data=data, follow_redirects=False)
    assert moved.headers["location"] == "/app/uploads"


def test_every_page_has_the_switch(web_client: TestClient) -> None:
    page = html.fromstring(web_client.get("/app/settings/api-keys").text)
    form = page.xpath('//form[@action="/app/language"]')[0]
    assert form.xpath('.//input[@name="next"]/@value') == ["/app/settings/api-keys"]
    assert form.xpath('.//button[@name="language"]/@value') == ["de", "en"]
    assert form.xpath('.//button[@aria-pressed="true"]/@value') == ["en"]


def test_before_signing_in_the_browser_or_the_link_decides(client: TestClient) -> None:
    assert _h1(client.get("/app/login").text) == "Log in"  # tests' client asks for en
    german = client.get("/app/login", headers={"Accept-Language": "de-DE,de"})
    assert _h1(german.text) == "Anmelden"
    chosen = client.get("/app/login?lang=de&next=/app/batches")
    assert _lang(chosen.text) == "de"
    links = html.fromstring(chosen.text).xpath('//nav[@class="language-switch"]//a/@href')
    assert "/app/login?next=%2Fapp%2Fbatches&lang=en" in links


def test_messages_built_in_python_come_in_the_pages_language(
    german_client: tuple[TestClient, Account],
) -> None:
    client, _ = german_client
    inbox = client.get("/app/uploads?status=bogus&from=gestern")
    assert "Unbekannter Status „bogus“ wird ignoriert." in inbox.text
    assert "Von-Datum „gestern“ ist kein Datum (JJJJ-MM-TT)" in inbox.text
    token = csrf_in(client.get("/app/settings").text)
    form = {"name": "", "vat_ids": "X1", "ibans": "DE00", "locale": "de", "csrf_token": token}
    refused = client.post("/app/settings", data=form)
    assert refused.status_code == 422
    assert "Geben Sie den Firmennamen ein." in refused.text
    assert "Keine USt-IdNr. (falsches Format für das Land): X1" in refused.text
    missing = client.get("/app/uploads/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and _h1(missing.text) == "Nicht gefunden"


def test_a_refused_login_answers_in_the_language_of_the_form(client: TestClient) -> None:
    form = client.get("/app/login?lang=de")
    data = {"email": "nobody@example.com", "password": "x", "csrf_token": csrf_in(form.text)}
    refused = client.post("/app/login?lang=de", data=data)
    assert refused.status_code == 401
    assert "E-Mail oder Passwort ist falsch." in refused.text

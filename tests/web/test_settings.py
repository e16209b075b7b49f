"""Company settings and API keys: saving master data, creating and revoking keys, CSRF."""

from __future__ import annotations

import re
import uuid
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.web.master_data import iban_checksum_ok, parse_master_data
from storage.db import Database
from storage.models import Company
from storage.repositories import api_keys, companies
from tests.web.support import Account, session_csrf

MISSING_UPLOAD = f"/v1/uploads/{uuid.uuid4()}"
VALID_FORM = {
    "name": "Acme Handels GmbH",
    "vat_ids": "de 136 695 976\nATU13585627",
    "tax_number": "143/234/56789",
    "ibans": "DE89 3704 0044 0532 0130 00",
    "locale": "en",
}


def _company(database: Database, account: Account) -> Company:
    with database.read_session() as session:
        company = companies.get_company(session, account.company_id)
        assert company is not None
        return company


def test_settings_page_shows_the_master_data(web_client: TestClient) -> None:
    page = web_client.get("/app/settings")
    assert page.status_code == 200
    assert 'value="Acme GmbH"' in page.text and "DE123456789" in page.text
    assert "incoming or outgoing" in page.text and "Workers" not in page.text
    assert '<label for="vat_ids">VAT IDs</label>' in page.text


def test_saving_normalises_and_stores_the_master_data(
    web_client: TestClient, database: Database, account: Account
) -> None:
    form = {**VALID_FORM, "csrf_token": session_csrf(web_client, database)}
    response = web_client.post("/app/settings", data=form, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/app/settings?saved=1"
    company = _company(database, account)
    assert company.name == "Acme Handels GmbH"
    assert company.vat_ids == ["DE136695976", "ATU13585627"]
    assert company.tax_number == "143/234/56789"
    assert company.ibans == ["DE89370400440532013000"]
    assert company.locale == "en"
    saved = web_client.get("/app/settings?saved=1").text
    assert "Saved." in saved and "in at most 10 seconds" in saved


def test_invalid_master_data_is_explained_and_nothing_is_saved(
    web_client: TestClient, database: Database, account: Account
) -> None:
    form = {
        **VALID_FORM,
        "name": " ",
        "ibans": "DE89 3704 0044 0532 0130 01",
        "vat_ids": "123",
        "locale": "fr",
        "csrf_token": session_csrf(web_client, database),
    }
    response = web_client.post("/app/settings", data=form)
    assert response.status_code == 422
    assert "Nothing was saved" in response.text
    assert "DE89370400440532013001" in response.text  # the IBAN with a wrong check digit
    assert 'aria-invalid="true"' in response.text
    assert _company(database, account).name == "Acme GmbH"


@pytest.mark.parametrize(
    ("iban", "valid"),
    [
        ("DE89370400440532013000", True),
        ("GB82WEST12345698765432", True),
        ("DE89370400440532013001", False),
    ],
)
def test_iban_check_digits(iban: str, valid: bool) -> None:
    assert iban_checksum_ok(iban) is valid


def test_entries_are_split_on_lines_and_commas_without_repeats() -> None:
    data = parse_master_data("A", "DE136695976, de136695976;ATU13585627", "", "", "de")
    assert data.vat_ids == ["DE136695976", "ATU13585627"] and not data.errors


@pytest.mark.parametrize(
    ("vat_ids", "refusal"),
    [
        ("DE123456789", "Not a valid VAT ID (check digit): DE123456789"),
        ("DE136695976, ATU12345678", "Not a valid VAT ID (check digit): ATU12345678"),
        ("DE13669597", "Not a VAT ID (wrong format for its country): DE13669597"),
        ("123", "Not a VAT ID (wrong format for its country): 123"),
    ],
)
def test_invalid_vat_ids_are_refused_with_the_reason(vat_ids: str, refusal: str) -> None:
    data = parse_master_data("A", vat_ids, "", "", "de")
    assert str(data.errors["vat_ids"]) == refusal


def test_a_vat_id_from_outside_the_eu_is_kept_by_its_shape() -> None:
    data = parse_master_data("A", "CHE123456788", "", "", "de")
    assert data.vat_ids == ["CHE123456788"] and not data.errors


@pytest.mark.parametrize(("tax_number", "valid"), [("181/815/08155", True), ("12345", False)])
def test_a_german_companys_tax_number_fits_a_lands_format(tax_number: str, valid: bool) -> None:
    data = parse_master_data("A", "DE136695976", tax_number, "", "de")
    assert ("tax_number" not in data.errors) is valid
    abroad = parse_master_data("A", "ATU13585627", tax_number, "", "de")
    assert "tax_number" not in abroad.errors


@pytest.mark.parametrize("token", [None, "", "forged-token"])
@pytest.mark.parametrize(
    "path", ["/app/settings", "/app/settings/api-keys", "/app/logout", "KEY_REVOKE"]
)
def test_posts_without_the_session_csrf_token_are_forbidden(
    web_client: TestClient, database: Database, account: Account, path: str, token: str | None
) -> None:
    with database.read_session() as session:
        key_id = api_keys.list_api_keys(session, account.company_id)[0].id
    target = f"/app/settings/api-keys/{key_id}/revoke" if path == "KEY_REVOKE" else path
    form = dict(VALID_FORM) if token is None else {**VALID_FORM, "csrf_token": token}
    response = web_client.post(target, data=form, follow_redirects=False)
    assert response.status_code == 403
    assert "text/html" in response.headers["content-type"]
    assert _company(database, account).name == "Acme GmbH"
    assert web_client.get(MISSING_UPLOAD, headers=account.headers).status_code == 404


def test_api_keys_are_listed_by_prefix_only(web_client: TestClient, account: Account) -> None:
    page = web_client.get("/app/settings/api-keys").text
    assert account.api_key[:12] + "…" in page
    assert account.api_key not in page
    assert "never" in page


def test_a_created_key_is_shown_once_and_works(
    web_client: TestClient, database: Database, account: Account
) -> None:
    csrf = session_csrf(web_client, database)
    created = web_client.post("/app/settings/api-keys", data={"name": "ERP", "csrf_token": csrf})
    assert created.status_code == 201
    assert created.headers["cache-control"] == "no-store"
    key = re.search(r'<output id="new-key" class="key">(dik_[^<]+)</output>', created.text)
    assert key, created.text
    plaintext = key.group(1)
    headers = {"Authorization": f"Bearer {plaintext}"}
    assert web_client.get(MISSING_UPLOAD, headers=headers).status_code == 404
    again = web_client.get("/app/settings/api-keys").text
    assert plaintext not in again and plaintext[:12] + "…" in again and "ERP" in again


def test_a_revoked_key_is_refused_by_the_api_at_once(
    web_client: TestClient, database: Database, account: Account
) -> None:
    assert web_client.get(MISSING_UPLOAD, headers=account.headers).status_code == 404
    with database.read_session() as session:
        key_id = api_keys.list_api_keys(session, account.company_id)[0].id
    csrf = session_csrf(web_client, database)
    response = web_client.post(
        f"/app/settings/api-keys/{key_id}/revoke",
        data={"csrf_token": csrf},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert web_client.get(MISSING_UPLOAD, headers=account.headers).status_code == 401
    page = web_client.get(response.headers["location"]).text
    assert "is revoked" in page and "Revoked " in page
    twice = web_client.post(
        f"/app/settings/api-keys/{key_id}/revoke",
        data={"csrf_token": csrf},
        follow_redirects=False,
    )
    assert twice.status_code == 303


def test_another_company_s_key_cannot_be_revoked(
    web_client: TestClient, database: Database, other_account: Account
) -> None:
    with database.read_session() as session:
        their_key = api_keys.list_api_keys(session, other_account.company_id)[0].id
    csrf = session_csrf(web_client, database)
    for key_id in (their_key, uuid.uuid4(), "not-a-uuid"):
        response = web_client.post(
            f"/app/settings/api-keys/{key_id}/revoke", data={"csrf_token": csrf}
        )
        assert response.status_code == 404
    assert web_client.get(MISSING_UPLOAD, headers=other_account.headers).status_code == 404
    assert other_account.api_key[:12] not in web_client.get("/app/settings/api-keys").text


def test_settings_need_a_session(client: TestClient) -> None:
    for path in ("/app/settings", "/app/settings/api-keys"):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == f"/app/login?next={path.replace('/', '%2F')}"
    posted = client.post("/app/settings/api-keys", data={"csrf_token": "x"}, follow_redirects=False)
    assert posted.status_code == 303
    assert posted.headers["location"] == "/app/login"


def test_update_profile_replaces_the_master_data_of_that_company_only(
    database: Database, account: Account, other_account: Account
) -> None:
    with database.session() as session:
        updated = companies.update_profile(
            session,
            account.company_id,
            name="Neu GmbH",
            vat_ids=[],
            tax_number=None,
            ibans=["DE89370400440532013000"],
            locale="en",
        )
        missing = companies.update_profile(
            session,
            uuid.uuid4(),
            name="Nobody",
            vat_ids=[],
            tax_number=None,
            ibans=[],
            locale="de",
        )
        session.commit()
    assert updated is not None and missing is None
    company = _company(database, account)
    assert (company.name, company.vat_ids, company.ibans, company.locale) == (
        "Neu GmbH",
        [],
        ["DE89370400440532013000"],
        "en",
    )
    assert _company(database, other_account).name == "Other AG"


def test_api_keys_show_when_each_was_created_and_last_used(
    web_client: TestClient, database: Database, account: Account
) -> None:
    with database.read_session() as session:
        key = api_keys.list_api_keys(session, account.company_id)[0]

    def row_of_key() -> list[str]:
        page = html.fromstring(web_client.get("/app/settings/api-keys").text)
        rows = page.xpath(f'//tbody/tr[th/code[starts-with(., "{key.prefix}")]]')
        assert len(rows) == 1
        return [" ".join(cell.text_content().split()) for cell in rows[0]]

    # The user reads English; times are in the company's zone, Europe/Berlin by default.
    created = key.created_at.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%d %H:%M")
    assert row_of_key()[2:4] == [created, "never"]
    assert web_client.get(MISSING_UPLOAD, headers=account.headers).status_code == 404
    with database.read_session() as session:
        used = api_keys.list_api_keys(session, account.company_id)[0].last_used_at
    assert used is not None
    berlin = used.astimezone(ZoneInfo("Europe/Berlin"))
    assert row_of_key()[2:4] == [created, berlin.strftime("%Y-%m-%d %H:%M")]

"""The DATEV pages: the settings form (validated, SKR03/SKR04 defaults), and the export
page of a period with its downloads, recorded for the signed-in user."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from api.deps import Services
from storage.datev.settings import Chart
from storage.datev_models import DatevExport
from storage.db import Database
from storage.repositories import datev_exports
from tests.storage.datev.stack import read_invoices, set_up_datev
from tests.web.support import Account, log_in, make_account, session_csrf

SETTINGS_FORM = {
    "consultant_number": "29098",
    "client_number": "55003",
    "account_length": "4",
    "fiscal_year_start_month": "1",
    "chart": "04",
    "use_chart_defaults": "on",
}


def post_settings(client: TestClient, database: Database, **changes: str) -> object:
    data = {**SETTINGS_FORM, **changes, "csrf_token": session_csrf(client, database)}
    return client.post("/app/settings/datev", data=data, follow_redirects=False)


def test_settings_are_saved_with_the_chart_s_default_accounts(
    web_client: TestClient, database: Database, account: Account
) -> None:
    page = web_client.get("/app/settings/datev")
    assert page.status_code == 200 and 'name="consultant_number"' in page.text
    answer = post_settings(web_client, database)
    assert answer.status_code == 303  # type: ignore[attr-defined]
    with database.read_session() as session:
        saved = datev_exports.datev_settings(session, account.company_id)
    assert saved is not None and saved.chart is Chart.SKR04
    assert (saved.consultant_number, saved.client_number) == (29098, 55003)
    assert dict(saved.accounts.revenue) == {"19": 4400, "7": 4300, "0": 4100}
    assert 'value="5400"' in web_client.get("/app/settings/datev").text


def test_own_accounts_are_checked_against_the_account_length(
    web_client: TestClient, database: Database, account: Account
) -> None:
    own = {
        "use_chart_defaults": "",
        "customer": "12000",
        "supplier": "72000",
        "revenue_19": "8400",
        "revenue_7": "8300",
        "revenue_0": "8100",
        "expense_19": "3400",
        "expense_7": "3300",
        "expense_0": "34000",  # five digits with an account length of 4
    }
    refused = web_client.post(
        "/app/settings/datev",
        data={**SETTINGS_FORM, **own, "csrf_token": session_csrf(web_client, database)},
    )
    assert refused.status_code == 422
    assert "at most the account length" in refused.text
    accepted = post_settings(web_client, database, **{**own, "expense_0": "3200"})
    assert accepted.status_code == 303  # type: ignore[attr-defined]
    with database.read_session() as session:
        saved = datev_exports.datev_settings(session, account.company_id)
    assert saved is not None and saved.accounts.customer == 12000
    assert saved.accounts.automatic is False  # the box was not ticked


def test_bad_numbers_are_shown_and_nothing_is_saved(
    web_client: TestClient, database: Database, account: Account
) -> None:
    answer = web_client.post(
        "/app/settings/datev",
        data={
            **SETTINGS_FORM,
            "consultant_number": "999",
            "account_length": "3",
            "chart": "05",
            "csrf_token": session_csrf(web_client, database),
        },
    )
    assert answer.status_code == 422
    for message in ("1001 to 9999999", "4 to 8 digits", "SKR 03 or SKR 04"):
        assert message in answer.text
    with database.read_session() as session:
        assert datev_exports.datev_settings(session, account.company_id) is None


def test_without_settings_the_export_page_asks_for_them(web_client: TestClient) -> None:
    page = web_client.get("/app/exports/datev")
    assert page.status_code == 200
    assert 'href="/app/settings/datev"' in page.text and "Download" not in page.text


def test_the_export_page_lists_the_period_and_downloads_are_recorded(
    web_client: TestClient, services: Services, database: Database, account: Account
) -> None:
    set_up_datev(services, account.company_id)
    sent = read_invoices(web_client, services, account.headers)
    period = {"from": "2016-04-01", "to": "2016-04-30"}
    page = web_client.get("/app/exports/datev", params=period)
    assert page.status_code == 200
    assert "2 of 3 invoices go into the export" in page.text
    assert "Held back" in page.text and "needs review" in page.text
    assert "<strong>exported " not in page.text
    download = web_client.post(
        "/app/exports/datev",
        data={
            **period,
            "format": "buchungsstapel",
            "csrf_token": session_csrf(web_client, database),
        },
    )
    assert download.status_code == 200
    assert download.content.startswith(b'"EXTF";700;21;"Buchungsstapel";13;')
    assert "attachment" in download.headers["content-disposition"]
    with database.read_session() as session:
        record = session.get(DatevExport, uuid.UUID(download.headers["Docintake-Export-Id"]))
    assert record is not None and record.user_id == account.user_id
    again = web_client.get("/app/exports/datev", params=period)
    assert again.text.count("<strong>exported ") == 2
    held = sent["cii-bt-20-cardinality-check.xml"][0]
    assert f"/app/invoices/{held}" in again.text


def test_downloads_need_the_csrf_token(
    web_client: TestClient, services: Services, account: Account
) -> None:
    set_up_datev(services, account.company_id)
    answer = web_client.post(
        "/app/exports/datev", data={"from": "2016-04-01", "to": "2016-04-30", "format": "belege"}
    )
    assert answer.status_code == 403


def test_a_period_across_fiscal_years_is_explained(
    web_client: TestClient, services: Services, account: Account
) -> None:
    set_up_datev(services, account.company_id)
    page = web_client.get("/app/exports/datev", params={"from": "2016-12-01", "to": "2017-01-31"})
    assert page.status_code == 422 and "one fiscal year" in page.text


def test_the_pages_speak_german_to_a_german_company(
    client: TestClient, services: Services, database: Database
) -> None:
    german = make_account(database, "Muster GmbH", locale="de", language=None)
    set_up_datev(services, german.company_id)
    assert log_in(client, german.email).status_code == 303
    page = client.get("/app/exports/datev", params={"from": "2016-04-01", "to": "2016-04-30"})
    assert "<h1>DATEV-Export</h1>" in page.text
    assert "Keine Rechnungen mit Rechnungsdatum in diesem Zeitraum." in page.text
    settings = client.get("/app/settings/datev")
    assert "Beraternummer" in settings.text and "Erlöse 19 %" in settings.text

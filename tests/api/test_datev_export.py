"""GET /v1/exports/datev end to end on both backends: e-invoices go in through the API,
the pipeline reads them, and the export answers the Buchungsstapel, the package with
the originals, or the report; scoped to the key's company and recorded."""

from __future__ import annotations

import io
import uuid
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from storage.datev_models import DatevExport
from tests.conftest import Tenant
from tests.storage.datev.stack import read_invoices, set_up_datev

APRIL_2016 = {"from": "2016-04-01", "to": "2016-04-30"}


def export(client: TestClient, tenant: Tenant, export_format: str, **params: str) -> Any:
    query = {**APRIL_2016, "format": export_format, **params}
    return client.get("/v1/exports/datev", params=query, headers=tenant.headers)


def test_the_report_holds_back_what_needs_review(
    client: TestClient, services: Services, tenant: Tenant
) -> None:
    set_up_datev(services, tenant.company_id)
    sent = read_invoices(client, services, tenant.headers)
    answer = export(client, tenant, "report")
    assert answer.status_code == 200, answer.text
    report = answer.json()
    status = {uuid.UUID(e["resultId"]): (e["status"], e["reasons"]) for e in report["entries"]}
    held = sent["cii-bt-20-cardinality-check.xml"][0]
    assert status[held] == ("held", ["needs_review"])
    assert report["included"] == 2 and len(status) == 3
    assert all(isinstance(e["gross"], str) for e in report["entries"])
    with services.db.read_session() as session:
        assert session.query(DatevExport).count() == 0  # a report records nothing
    included = export(client, tenant, "report", includeHeld="true").json()
    assert included["included"] == 3
    may = export(client, tenant, "report", **{"from": "2016-05-01", "to": "2016-05-31"})
    assert may.json()["entries"] == []  # invoices of 4 April are outside


def test_the_buchungsstapel_is_answered_and_recorded_and_a_repeat_is_marked(
    client: TestClient, services: Services, tenant: Tenant
) -> None:
    set_up_datev(services, tenant.company_id)
    read_invoices(client, services, tenant.headers)
    answer = export(client, tenant, "buchungsstapel")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/csv; charset=windows-1252"
    assert "EXTF_Buchungsstapel_20160401_20160430.csv" in answer.headers["content-disposition"]
    lines = answer.content.split(b"\r\n")
    assert lines[0].startswith(b'"EXTF";700;21;"Buchungsstapel";13;')
    assert b";29098;55003;20160101;4;20160401;20160430;" in lines[0]
    bookings = lines[2:-1]
    assert bookings and all(line.split(b";")[9] == b"0404" for line in bookings)
    assert all(
        line.split(b";")[1] == b'"S"' and line.split(b";")[6] == b"10000" for line in bookings
    )
    assert answer.headers["Docintake-Export-Included"] == "2"
    assert answer.headers["Docintake-Export-Held"] == "1"
    assert answer.headers["Docintake-Export-Exported-Before"] == "0"
    again = export(client, tenant, "buchungsstapel")
    assert again.headers["Docintake-Export-Exported-Before"] == "2"
    entries = export(client, tenant, "report").json()["entries"]
    assert sum(e["exportedBefore"] is not None for e in entries) == 2
    with services.db.read_session() as session:
        record = session.get(DatevExport, uuid.UUID(answer.headers["Docintake-Export-Id"]))
        assert record is not None and record.api_key_id is not None
        assert record.company_id == tenant.company_id and record.format == "buchungsstapel"


def test_the_package_holds_the_originals_and_their_ledger_data(
    client: TestClient, services: Services, tenant: Tenant
) -> None:
    set_up_datev(services, tenant.company_id)
    sent = read_invoices(client, services, tenant.headers)
    answer = export(client, tenant, "belege")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    names = archive.namelist()
    assert names[0] == "document.xml" and len(names) == 5
    for name in ("cii-br-53-test-1.xml", "cii-br-65-test.xml"):
        key, content = sent[name]
        assert archive.read(f"{key.hex}.xml") == content
        assert f'guid="{key}"'.encode() in archive.read("document.xml")
        assert b"<accountsReceivableLedger>" in archive.read(f"{key.hex}_ledger.xml")


def test_the_export_is_scoped_to_the_key_s_company(
    client: TestClient, services: Services, tenant: Tenant, other_tenant: Tenant
) -> None:
    set_up_datev(services, tenant.company_id)
    read_invoices(client, services, tenant.headers)
    assert export(client, other_tenant, "report").status_code == 409  # not set up
    set_up_datev(services, other_tenant.company_id)
    report = export(client, other_tenant, "report").json()
    assert report["entries"] == [] and report["included"] == 0
    empty = export(client, other_tenant, "buchungsstapel")
    assert empty.status_code == 200 and len(empty.content.split(b"\r\n")) == 3


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"from": "2016-04-30", "to": "2016-04-01"}, 422),
        ({"from": "2016-12-01", "to": "2017-01-31"}, 422),  # two fiscal years
        ({"from": "2016-04-01", "to": "not a date"}, 422),
        ({"from": "2016-04-01", "to": "2016-04-30", "format": "pdf"}, 422),
    ],
)
def test_bad_periods_and_formats_are_refused(
    client: TestClient, services: Services, tenant: Tenant, params: dict[str, str], status: int
) -> None:
    set_up_datev(services, tenant.company_id)
    answer = client.get("/v1/exports/datev", params=params, headers=tenant.headers)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"


def test_without_a_key_nothing_is_exported(client: TestClient) -> None:
    answer = client.get("/v1/exports/datev", params=APRIL_2016)
    assert answer.status_code == 401

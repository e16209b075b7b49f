"""The status report on known data, and `docintake report` as a user runs it."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from api.report import parse_since
from storage.db import Database, make_engine
from storage.migrate import upgrade
from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.repositories import companies
from storage.settings import Settings
from storage.tables.export import export_changed
from storage.tables.report import StatusReport, build_report, to_markdown
from tests.conftest import Tenant
from tests.storage.tables_data import T0, add_batch, add_upload, tables_store

NOW = T0 + timedelta(days=1)
REQUEUED = (("queued", 0), ("processing", 1), ("queued", 3), ("processing", 10), ("completed", 12))


@pytest.fixture
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    return tables_store(backend, request, tmp_path)


def _seed(database: Database, company_id: uuid.UUID) -> dict[str, uuid.UUID]:
    """Four supplier invoices read in 2, 4, 6 and 8 s (processing 1, 2, 3, 4 s), a bank
    statement requeued once, a refused file, one still queued, and one too old."""
    ids = {}
    with database.session() as session:
        add_batch(session, company_id)
        for n in range(1, 5):
            path = (("queued", 0), ("processing", n), ("completed", 2 * n))
            upload = add_upload(
                session,
                company_id,
                created_at=T0 + timedelta(minutes=n),
                path=path,
                document_type="supplier_invoice",
                file_name=f"invoice-{n}.pdf",
            )
            ids[f"invoice-{n}"] = upload.id
        ids["statement"] = add_upload(
            session,
            company_id,
            path=REQUEUED,
            document_type="bank_statement",
            file_name="statement.pdf",
            result_type="bank_statement",
        ).id
        ids["refused"] = add_upload(
            session, company_id, path=(("failed", 0),), error_code="unsupported_file_type"
        ).id
        ids["waiting"] = add_upload(session, company_id, path=(("queued", 0),)).id
        ids["old"] = add_upload(session, company_id, created_at=T0 - timedelta(days=8)).id
        session.commit()
    return ids


@pytest.fixture
def report(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> tuple[StatusReport, dict[str, uuid.UUID]]:
    ids = _seed(database, tenant.company_id)
    export_changed(database, store, settings)
    built = build_report(store, settings.public_base_url, timedelta(days=7), now=NOW, slowest=3)
    return built, ids


def test_volumes_outcomes_and_failure_codes(
    report: tuple[StatusReport, dict[str, uuid.UUID]],
) -> None:
    built, _ = report

    assert built.section("Volumes").rows() == [(T0.date(), 7, 1, 0.0)]
    assert built.section("Outcomes").rows() == [
        ("completed", 5, 71.4),
        ("failed", 1, 14.3),
        ("queued", 1, 14.3),
    ]
    assert built.section("Results by type").rows() == [
        ("invoice", 4, 80.0),
        ("bank_statement", 1, 20.0),
    ]
    assert built.section("Failure codes").rows() == [("unsupported_file_type", 1, 100.0)]


def test_processing_times_per_document_type(
    report: tuple[StatusReport, dict[str, uuid.UUID]],
) -> None:
    built, _ = report

    # Linear quantiles of 2, 4, 6, 8 s: p50 5.0, p95 7.7; of 1, 2, 3, 4 s: 2.5 and 3.85.
    # The statement counts from its last arrival in queued (3 s) and processing (10 s).
    assert built.section("Processing time by document type (seconds)").rows() == [
        ("auto", 1, None, None, None, None),
        ("bank_statement", 1, 9.0, 9.0, 2.0, 2.0),
        ("supplier_invoice", 4, 5.0, 7.7, 2.5, 3.85),
    ]


def test_slowest_files_link_to_the_web_application(
    report: tuple[StatusReport, dict[str, uuid.UUID]], settings: Settings
) -> None:
    built, ids = report

    slowest = built.section("Slowest files (seconds)")

    assert slowest.select("file_name", "queued_seconds", "processing_seconds").rows() == [
        ("statement.pdf", 9.0, 2.0),
        ("invoice-4.pdf", 8.0, 4.0),
        ("invoice-3.pdf", 6.0, 3.0),
    ]
    base = settings.public_base_url
    assert slowest["upload"][0] == f"{base}/app/uploads/{ids['statement']}"
    assert str(slowest["result"][0]).startswith(f"{base}/app/bank-imports/")
    markdown = to_markdown(built)
    assert f"[open]({base}/app/uploads/{ids['invoice-4']})" in markdown
    assert "| supplier_invoice | 4 | 5.00 | 7.70 | 2.50 | 3.85 |" in markdown
    assert "## Failure codes" in markdown


def test_one_company_only(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    _seed(database, tenant.company_id)
    with database.session() as session:
        other = companies.create_company(session, "Other AG")
        add_upload(session, other.id)
        session.commit()
    export_changed(database, store, settings)

    def uploads(company_id: uuid.UUID | None) -> int:
        built = build_report(store, "http://x", timedelta(days=7), now=NOW, company_id=company_id)
        return int(built.section("Volumes")["uploads"].sum())

    assert (uploads(None), uploads(tenant.company_id), uploads(other.id)) == (8, 7, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7d", timedelta(days=7)), ("24h", timedelta(hours=24)), ("90m", timedelta(minutes=90))],
)
def test_since_durations(text: str, expected: timedelta) -> None:
    assert parse_since(text) == expected


@pytest.mark.parametrize("text", ["7", "d", "0d", "-1d", "7y"])
def test_since_refuses_other_text(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        parse_since(text)


def _docintake(var_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCINTAKE_VAR_DIR": str(var_dir), "COLUMNS": "200"}
    for name in ("DOCINTAKE_DATABASE_URL", "DOCINTAKE_S3_ENDPOINT"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parent.parent.parent,
    )


def test_docintake_report_exports_and_prints(tmp_path: Path) -> None:
    database = Database(make_engine(f"sqlite:///{tmp_path / 'docintake.db'}"))
    upgrade(database.engine)
    with database.session() as session:
        company = companies.create_company(session, "Acme GmbH")
        add_upload(
            session, company.id, created_at=utcnow() - timedelta(hours=2), file_name="late.pdf"
        )
        session.commit()
    database.engine.dispose()

    markdown = _docintake(tmp_path, "report", "--since", "1d", "--markdown", "--refresh")
    terminal = _docintake(tmp_path, "report", "--since", "1d")

    assert markdown.returncode == 0, markdown.stderr
    assert "| completed | 1 | 100.00 |" in markdown.stdout
    assert "late.pdf" in markdown.stdout
    assert terminal.returncode == 0, terminal.stderr
    assert "Slowest files (seconds)" in terminal.stdout and "late.pdf" in terminal.stdout

"""The uploads table's `hybrid_mismatches`: a hybrid PDF's fields whose embedded XML and
visible text disagree (processors/einvoice/hybrid_check.py), read from the result's data
on both backends, so data teams can count how common mismatches are."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from storage.db import Database
from storage.models import Result
from storage.objectstore import ObjectStore
from storage.settings import Settings
from storage.tables.export import export_changed
from storage.tables.read import scan_table
from storage.tables.schemas import UPLOADS
from tests.conftest import Tenant
from tests.storage.tables_data import add_upload, tables_store

FAILED = (("queued", 0), ("processing", 1), ("failed", 4))


@pytest.fixture
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    return tables_store(backend, request, tmp_path)


def _hybrid(mismatches: list[str]) -> dict[str, Any]:
    return {"invoice": {}, "hybridCheck": {"fields": [], "mismatches": mismatches}}


def test_hybrid_mismatches_are_listed_per_upload(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    data = {
        "flagged": _hybrid(["gross_total", "amount_due"]),
        "agrees": _hybrid([]),
        "plain": {"invoice": {}},
    }
    names: dict[uuid.UUID, str] = {}
    with database.session() as session:
        for name, result_data in data.items():
            upload = add_upload(session, tenant.company_id, file_name=f"{name}.pdf")
            session.get_one(Result, upload.result_id).data = result_data
            names[upload.id] = name
        failed = add_upload(session, tenant.company_id, path=FAILED, error_code="processing_failed")
        names[failed.id] = "failed"
        session.commit()

    export_changed(database, store, settings)

    frame = scan_table(store, UPLOADS).collect()
    assert frame.schema["hybrid_mismatches"] == pl.List(pl.String())
    found = {
        names[uuid.UUID(row["upload_id"])]: row["hybrid_mismatches"] for row in frame.to_dicts()
    }
    assert found == {
        "flagged": ["gross_total", "amount_due"],
        "agrees": [],
        "plain": None,
        "failed": None,
    }
    share = frame.select(pl.col("hybrid_mismatches").list.len().gt(0).mean()).item()
    assert share == pytest.approx(1 / 2)  # of the two hybrids, one disagrees

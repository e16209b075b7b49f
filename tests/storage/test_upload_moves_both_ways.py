"""Every named move run both ways, on one ORM object and as a group (Core UPDATE), from the
same row: the rows, the history rows and the webhook outbox rows must come out the same
(both backends, rolled back per test)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from processors.base import FailureCode
from storage.db import Database
from storage.models import Result, StatusChange, Upload
from storage.repositories import uploads as upload_repo
from storage.repositories import webhooks as webhook_repo
from storage.repositories.upload_groups import PerRow, move_group
from storage.secret_box import SecretBox
from storage.states import UploadStatus
from storage.upload_moves import MAX_CRASHES, MAX_ERROR_MESSAGE, MAX_TAKES, MOVES
from storage.webhook_models import WebhookDelivery
from tests.conftest import Tenant
from tests.storage.test_upload_moves import CASES, DETAILS, INVALID, NEW_EXPIRY, Case
from tests.storage.test_upload_moves import MOVES as CALLS

OLD_EXPIRY = datetime(2024, 1, 3, tzinfo=UTC)
UPDATED = datetime(2024, 1, 2, tzinfo=UTC)
# The arguments each move is called with in tests/storage/test_upload_moves.py.
ARGS: dict[str, dict[str, Any]] = {
    "take": {"owner": "new-worker", "expires_at": NEW_EXPIRY},
    "fail": {"code": FailureCode.INVALID_E_INVOICE, "message": "bad", "details": DETAILS},
    "charge_crash": {"reason": "killed"},
    "reclassify": {"document_type": "supplier_invoice"},
}
COLUMNS = [c for c in Upload.__table__.columns if c.name not in ("id", "updated_at", "sha256")]
BOX = SecretBox("test-key", b"test")


def _results(db: Database, company_id: uuid.UUID) -> tuple[uuid.UUID, uuid.UUID]:
    with db.session() as session:
        old, new = (
            Result(company_id=company_id, type="invoice", sha256=uuid.uuid4().hex * 2, data={})
            for _ in range(2)
        )
        session.add_all([old, new])
        session.commit()
        return old.id, new.id


def _row(
    db: Database, company_id: uuid.UUID, start: UploadStatus, old: uuid.UUID, **over: Any
) -> uuid.UUID:
    columns: dict[str, Any] = {
        "status": start,
        "result_id": old,
        "error_code": "old_code",
        "error_message": "old message",
        "error_details": {"old": True},
        "attempts": 3,
        "crashes": 1,
        "lease_owner": "old-worker",
        "lease_expires_at": OLD_EXPIRY,
        "object_key": "uploads/stored",
        "created_at": UPDATED,
        "updated_at": UPDATED,
    }
    upload_id = uuid.uuid4()
    with db.session() as session:
        session.add(
            Upload(
                id=upload_id,
                company_id=company_id,
                file_name="a.xml",
                document_type="auto",
                sha256=upload_id.hex * 2,
                size_bytes=1,
                **(columns | over),
            )
        )
        session.commit()
    return upload_id


def _read(db: Database, upload_id: uuid.UUID) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    with db.read_session() as session:
        row = session.execute(
            select(
                *COLUMNS,
                Upload.error_details.is_(None).label("details_sql_null"),  # not JSON null
                Upload.updated_at,
            ).where(Upload.id == upload_id)
        ).one()
        history = session.execute(
            select(
                StatusChange.from_status,
                StatusChange.to_status,
                StatusChange.event,
                StatusChange.at,
            )
            .where(StatusChange.upload_id == upload_id)
            .order_by(StatusChange.id)
        ).all()
    values = dict(row._mapping)
    updated = values.pop("updated_at")
    assert all(at == updated for *_, at in history), (history, updated)
    return values, [tuple(change[:3]) for change in history]


def _by_orm(db: Database, upload_id: uuid.UUID, move: str, args: dict[str, Any]) -> bool:
    with db.session() as session:
        upload = session.get(Upload, upload_id)
        assert upload is not None
        try:
            change = CALLS[move](upload) if not args else getattr(upload, move)(**args)
        except Exception:
            return False
        upload_repo.record_move(session, upload, change)
        session.commit()
    return True


def _by_group(db: Database, upload_ids: list[uuid.UUID], move: str, args: dict[str, Any]) -> int:
    with db.session() as session:
        moved = move_group(session, MOVES[move], upload_ids, **args)
        session.commit()
    return len(moved)


def _both_ways(
    database: Database, tenant: Tenant, move: str, start: UploadStatus, row: dict[str, Any]
) -> None:
    old, new = _results(database, tenant.company_id)
    args = ARGS.get(move, {}) | ({"result_id": new} if move == "complete" else {})
    one, group = (_row(database, tenant.company_id, start, old, **row) for _ in range(2))

    moved = _by_orm(database, one, move, args)
    assert _by_group(database, [group], move, args) == int(moved)

    (one_row, one_history), (group_row, group_history) = (
        _read(database, one),
        _read(database, group),
    )
    assert group_row == one_row
    assert group_history == one_history
    assert len(one_history) == int(moved)


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case.move}-{case.start}-{case.row}")
def test_every_move_writes_the_same_rows_both_ways(
    database: Database, tenant: Tenant, case: Case
) -> None:
    _both_ways(database, tenant, case.move, case.start, case.row)


@pytest.mark.parametrize(("move", "start"), [(m, s) for m, s in INVALID if s is not None])
def test_a_move_from_another_state_changes_nothing_either_way(
    database: Database, tenant: Tenant, move: str, start: UploadStatus
) -> None:
    _both_ways(database, tenant, move, start, {"attempts": MAX_TAKES, "crashes": MAX_CRASHES - 1})


def test_a_group_with_a_value_per_row_writes_each_row_as_one_object_would(
    database: Database, tenant: Tenant
) -> None:
    old, _ = _results(database, tenant.company_id)
    rows = [_row(database, tenant.company_id, UploadStatus.PROCESSING, old) for _ in range(6)]
    ones = [_row(database, tenant.company_id, UploadStatus.PROCESSING, old) for _ in range(6)]
    messages = ["short", "x" * (MAX_ERROR_MESSAGE + 5), "", "ü" * 10, "a", "b"]
    details = [None, {"n": 1}, None, {"rule": ["BR-01"]}, {}, None]
    for index, (one, message, detail) in enumerate(zip(ones, messages, details, strict=True)):
        code = FailureCode.INVALID_E_INVOICE if index % 2 else FailureCode.PROCESSING_FAILED
        _by_orm(database, one, "fail", {"code": code, "message": message, "details": detail})
    codes = {
        row: FailureCode.INVALID_E_INVOICE if index % 2 else FailureCode.PROCESSING_FAILED
        for index, row in enumerate(rows)
    }
    args = {
        "code": PerRow(codes),
        "message": PerRow(dict(zip(rows, messages, strict=True))),
        "details": PerRow(dict(zip(rows, details, strict=True))),
    }
    assert _by_group(database, rows, "fail", args) == len(rows)
    for one, row in zip(ones, rows, strict=True):
        assert _read(database, row) == _read(database, one)


def _deliveries(db: Database, upload_id: uuid.UUID) -> list[tuple[str, dict[str, Any]]]:
    with db.read_session() as session:
        found = session.scalars(
            select(WebhookDelivery).where(WebhookDelivery.subject_id == upload_id)
        )
        return [(d.event_type, _without_time(d.payload, upload_id)) for d in found]


def _without_time(payload: dict[str, Any], upload_id: uuid.UUID) -> dict[str, Any]:
    data = {k: v for k, v in payload["data"].items() if k != "id"}
    assert payload["data"]["id"] == str(upload_id)
    return {"type": payload["type"], "data": data}


@pytest.mark.parametrize("move", ["complete", "fail", "mark_deleted", "requeue_or_give_up"])
def test_the_outbox_rows_are_the_same_both_ways(
    database: Database, tenant: Tenant, move: str
) -> None:
    with database.session() as session:
        webhook_repo.create_endpoint(
            session,
            tenant.company_id,
            "http://127.0.0.1:9/hook",
            ["upload.completed", "upload.failed", "upload.deleted"],
            BOX,
        )
        session.commit()
    start = UploadStatus.COMPLETED if move == "mark_deleted" else UploadStatus.PROCESSING
    old, new = _results(database, tenant.company_id)
    args = ARGS.get(move, {}) | ({"result_id": new} if move == "complete" else {})
    one, group = (
        _row(database, tenant.company_id, start, old, attempts=MAX_TAKES) for _ in range(2)
    )
    assert _by_orm(database, one, move, args)
    assert _by_group(database, [group], move, args) == 1

    deliveries = _deliveries(database, one)
    assert deliveries and _deliveries(database, group) == deliveries

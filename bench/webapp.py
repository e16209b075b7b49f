"""Web application pages at 100,000 uploads in one company: p50/p95 server time of the
inbox (first page, filtered, deep), the batch list and a batch page, and the settings
pages, through the real ASGI app on SQLite and on Postgres. Target: p95 < 100 ms."""

from __future__ import annotations

import random
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, select, text

from api.deps import Services
from api.web.paging import encode_cursor
from bench.pages import measure_pages, run_on_engines
from storage.db import Database
from storage.models import Batch, Result, Upload
from storage.objectstore import LocalDirStore
from storage.repositories import api_keys, companies, users, web_sessions
from storage.settings import Environment, Settings

UPLOADS = 100_000
BATCHES = 200  # of 100 uploads each; the other 80,000 are single uploads
BATCH_SIZE = 100
DAYS = 365
CHUNK = 5_000

STATUSES = ["completed"] * 70 + ["failed"] * 15 + ["queued"] * 5 + ["processing"] * 5
STATUSES += ["deleted"] * 5
TYPES = ["auto"] * 50 + ["supplier_invoice"] * 25 + ["customer_invoice"] * 10
TYPES += ["bank_statement"] * 10 + ["other_document"] * 5
RESULT_TYPES = {"bank_statement": "bank_statement", "other_document": "other_document"}


def _seed(engine: Engine, company_id: uuid.UUID, rng: random.Random) -> uuid.UUID:
    """100,000 uploads over a year (70% completed with a result), 200 batches of 100;
    returns the oldest batch's id (the far end of the company's uploads)."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    batch_ids = [uuid.uuid4() for _ in range(BATCHES)]
    batch_times = sorted(start + timedelta(days=rng.uniform(0, DAYS)) for _ in batch_ids)
    with engine.begin() as connection:
        connection.execute(
            insert(Batch),
            [
                {
                    "id": batch_id,
                    "company_id": company_id,
                    "document_type": "auto",
                    "file_name": f"batch-{index:03d}.zip",
                    "sha256": batch_id.hex * 2,
                    "size_bytes": 5_000_000,
                    "object_key": f"batches/{batch_id}.zip",
                    "unpack_state": "done",
                    "created_at": created,
                    "updated_at": created,
                }
                for index, (batch_id, created) in enumerate(
                    zip(batch_ids, batch_times, strict=True)
                )
            ],
        )
    for offset in range(0, UPLOADS, CHUNK):
        results, uploads = [], []
        for index in range(offset, offset + CHUNK):
            uploads.append(_upload(index, company_id, batch_ids, batch_times, start, rng))
            if uploads[-1]["status"] in ("completed", "deleted"):
                result = _result(company_id, uploads[-1])
                results.append(result)
                uploads[-1]["result_id"] = result["id"]
        with engine.begin() as connection:
            connection.execute(insert(Result), results)
            connection.execute(insert(Upload), uploads)
    return batch_ids[0]


def _upload(
    index: int,
    company_id: uuid.UUID,
    batch_ids: list[uuid.UUID],
    batch_times: list[datetime],
    start: datetime,
    rng: random.Random,
) -> dict[str, Any]:
    upload_id = uuid.uuid4()
    in_batch = index < BATCHES * BATCH_SIZE
    batch = index // BATCH_SIZE if in_batch else None
    created = (
        batch_times[batch] + timedelta(milliseconds=index % BATCH_SIZE)
        if batch is not None
        else start + timedelta(seconds=rng.uniform(0, DAYS * 86400))
    )
    status = rng.choice(STATUSES)
    return {
        "id": upload_id,
        "company_id": company_id,
        "batch_id": batch_ids[batch] if batch is not None else None,
        "position": index % BATCH_SIZE if batch is not None else None,
        "external_id": None if batch is not None else f"ext-{index}",
        "file_name": f"document-{index:06d}.pdf",
        "document_type": rng.choice(TYPES),
        "status": status,
        "sha256": upload_id.hex * 2,
        "size_bytes": 120_000,
        "object_key": f"uploads/{upload_id}",
        "result_id": None,
        "error_code": "unreadable_document" if status == "failed" else None,
        "error_message": "The document could not be read." if status == "failed" else None,
        "attempts": 1,
        "created_at": created,
        "updated_at": created,
    }


def _result(company_id: uuid.UUID, upload: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": uuid.uuid4(),
        "company_id": company_id,
        "type": RESULT_TYPES.get(upload["document_type"], "invoice"),
        "sha256": upload["sha256"],
        "data": {},
        "created_at": upload["created_at"],
        "deleted_at": upload["created_at"] if upload["status"] == "deleted" else None,
    }


def _deep_cursor(engine: Engine, company_id: uuid.UUID, position: int) -> str:
    statement = (
        select(Upload.created_at, Upload.id)
        .where(Upload.company_id == company_id)
        .order_by(Upload.created_at.desc(), Upload.id.desc())
        .offset(position)
        .limit(1)
    )
    with Database(engine).read_session() as session:
        created_at, upload_id = session.execute(statement).one()
    return encode_cursor(created_at, upload_id)


def _pages(engine: Engine, company_id: uuid.UUID, batch_id: uuid.UUID) -> dict[str, str]:
    deep = _deep_cursor(engine, company_id, 90_000)
    return {
        "inbox_first_page": "/app/uploads",
        "inbox_status_failed": "/app/uploads?status=failed",
        "inbox_type_bank_statement_one_month": (
            "/app/uploads?type=bank_statement&from=2025-06-01&to=2025-06-30"
        ),
        "inbox_failed_bank_statements": "/app/uploads?status=failed&type=bank_statement",
        "inbox_failed_in_one_week": "/app/uploads?status=failed&from=2025-03-01&to=2025-03-07",
        "inbox_oldest_batch_filter": f"/app/uploads?batch={batch_id}",
        "inbox_deep_page_90000": f"/app/uploads?after={deep}",
        "inbox_deep_page_failed": f"/app/uploads?status=failed&after={deep}",
        "batch_list": "/app/batches",
        "oldest_batch_page_100_uploads": f"/app/batches/{batch_id}",
        "settings": "/app/settings",
        "api_keys": "/app/settings/api-keys",
    }


def _bench_database(engine: Engine, work: Path) -> dict[str, Any]:
    rng = random.Random(20260301)
    database = Database(engine)
    with database.session() as session:
        company = companies.create_company(session, "Bench GmbH", vat_ids=["DE123456789"])
        api_keys.create_api_key(session, company.id, name="bench")
        user = users.create_user(session, company.id, "bench@example.com", "bench password")
        web = web_sessions.start_session(session, user.id, timedelta(hours=1))
        session.commit()
    began = time.perf_counter()
    batch_id = _seed(engine, company.id, rng)
    seeded = time.perf_counter() - began
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("ANALYZE"))
    settings = Settings(environment=Environment.TEST, var_dir=work / "var")
    services = Services(settings=settings, db=database, store=LocalDirStore(work / "objects"))
    pages = _pages(engine, company.id, batch_id)
    return {
        "uploads": UPLOADS,
        "seed_seconds": round(seeded, 1),
        **measure_pages(services, web.token, pages),
    }


def run() -> dict[str, Any]:
    return run_on_engines("docintake-webapp-", _bench_database)


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))

"""Eight identical requests racing each other create one upload, on both databases."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import httpx2 as httpx
import pytest
from sqlalchemy import Engine, func, select

from api.app import create_app
from api.deps import Services
from storage.db import Database
from storage.models import Batch, StatusChange, Upload
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.api.helpers import make_zip, pdf_bytes
from tests.conftest import make_tenant
from tests.support.live import serve

RACERS = 8


def _race(
    url: str, path: str, headers: dict[str, str], content: bytes, fields: dict[str, str]
) -> list[httpx.Response]:
    barrier = Barrier(RACERS)

    def send(_: int) -> httpx.Response:
        with httpx.Client(timeout=60) as http:
            barrier.wait()
            return http.post(
                url + path, headers=headers, files={"file": ("f.pdf", content)}, data=fields
            )

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(send, range(RACERS)))


@pytest.mark.parametrize("fields", [{"externalId": "race-1"}, {}], ids=["externalId", "content"])
def test_racing_identical_uploads_create_one(
    fresh_engine: Engine, settings: Settings, store: ObjectStore, fields: dict[str, str]
) -> None:
    database = Database(fresh_engine)
    tenant = make_tenant(database)
    app = create_app(Services(settings=settings, db=database, store=store))

    with serve(app) as url:
        responses = _race(url, "/v1/uploads", tenant.headers, pdf_bytes("race"), fields)

    assert [r.status_code for r in responses] == [202] * RACERS
    assert len({r.json()["id"] for r in responses}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == RACERS - 1
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Upload)) == 1
        assert session.scalar(select(func.count()).select_from(StatusChange)) == 1
    assert len(store.list_keys("uploads/")) == 1


def test_racing_identical_batches_create_one(
    fresh_engine: Engine, settings: Settings, store: ObjectStore
) -> None:
    database = Database(fresh_engine)
    tenant = make_tenant(database)
    app = create_app(Services(settings=settings, db=database, store=store))
    archive = make_zip({"a.pdf": pdf_bytes("a"), "b.pdf": pdf_bytes("b")})

    with serve(app) as url:
        responses = _race(url, "/v1/uploads/batches", tenant.headers, archive, {"externalId": "rb"})

    assert [r.status_code for r in responses] == [202] * RACERS
    assert len({r.json()["id"] for r in responses}) == 1
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Batch)) == 1
    assert len(store.list_keys("batches/")) == 1

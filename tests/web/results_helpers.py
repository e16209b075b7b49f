"""Results made the way the service makes them, for the result pages' tests: files go
in through the real /v1 API, and the pipeline's own steps (flows.work: claim, read in
the real process pool, book through the repositories) read them. No hand-written data.
"""

from __future__ import annotations

import atexit
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import cache
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from flows.executor import DocumentExecutor
from flows.jobs import JobEnd
from flows.work import WorkerEnv, claim, run_job
from storage.models import Result, Upload
from testkit.samples import CORPUS, corpus_file
from tests.api.helpers import post_upload

READ_TIME_LIMIT = 30.0


@cache
def reading_pool() -> DocumentExecutor:
    """One reading process for the whole test session."""
    pool = DocumentExecutor(processes=1, time_limit=READ_TIME_LIMIT, compile_rules=False)
    pool.warm_up()
    atexit.register(pool.shutdown)
    return pool


def worker_env(services: Services, owner: str = "results-test-worker") -> WorkerEnv:
    return WorkerEnv(
        settings=services.settings,
        db=services.db,
        store=services.store,
        executor=reading_pool(),
        owner=owner,
        lease=timedelta(seconds=60),
    )


def read_queued(services: Services, batch_id: uuid.UUID | None = None) -> list[JobEnd]:
    """What one pass of a worker does: claim the queued uploads and read each one."""
    env = worker_env(services)
    return [run_job(env, job) for job in claim(env, limit=100, batch_id=batch_id)]


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """The per-document time limit of the reading pool, lowered for a while: a document
    that takes longer fails `processing_failed`, as in production."""
    pool = reading_pool()
    before, pool.time_limit = pool.time_limit, seconds
    try:
        yield
    finally:
        pool.time_limit = before


def send_and_read(
    client: TestClient,
    headers: dict[str, str],
    services: Services,
    name: str,
    content: bytes,
    **fields: str,
) -> dict[str, Any]:
    """Upload through the API, let the pipeline read it, answer GET /v1/uploads/{id}."""
    response = post_upload(client, headers, content, name, **fields)
    assert response.status_code == 202, response.text
    upload_id = response.json()["id"]
    read_queued(services)
    answer = client.get(f"/v1/uploads/{upload_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def result_path(body: dict[str, Any]) -> str:
    """The path of the result URL the API answered with."""
    assert body["status"] == "completed", body
    url: str = body["result"]["url"]
    return url[url.index("/app/") :]


def result_id(body: dict[str, Any]) -> uuid.UUID:
    return uuid.UUID(result_path(body).rsplit("/", 1)[1])


def stored_result(services: Services, key: uuid.UUID) -> Result:
    with services.db.read_session() as session:
        result = session.get(Result, key)
        assert result is not None
        return result


def stored_upload(services: Services, key: uuid.UUID | str) -> Upload:
    with services.db.read_session() as session:
        upload = session.get(Upload, uuid.UUID(str(key)))
        assert upload is not None
        return upload


# --- documents -------------------------------------------------------------------------


def corpus_named(path: str) -> tuple[str, bytes]:
    """A file of the shared corpus by its path in the corpus."""
    file = CORPUS / path
    if not file.is_file():
        pytest.skip(f"{path} is not in the shared corpus")
    return file.name, file.read_bytes()


def e_invoice() -> tuple[str, bytes]:
    """A valid EN 16931 UBL invoice with 20 lines and no findings."""
    return corpus_named("ConnectingEurope+eInvoicing-EN16931/ubl/examples/ubl-tc434-example1.xml")


def e_invoice_with_warnings() -> tuple[str, bytes]:
    """A valid CII invoice whose validation reports warnings (kept, not failing)."""
    return corpus_named("ConnectingEurope+eInvoicing-EN16931/cii/examples/CII_example5.xml")


def slow_e_invoice() -> tuple[str, bytes]:
    """A valid e-invoice of 3 MiB (an attachment inside) that takes 0.1-1 s to read
    here: under a limit of a fraction of that it fails `processing_failed`.
    (PDFs do not serve: their text extraction swallows the time limit's exception.)"""
    return corpus_named(
        "ConnectingEurope+eInvoicing-EN16931/ubl/examples/"
        "FT G2G_TD01 con Allegato, Bonifico e Split Payment.xml"
    )


SLOW_LIMIT_SECONDS = 0.02


def allow_large_files(services: Services) -> None:
    """The test settings keep files to 1 MiB; the slow invoice is larger."""
    services.settings.max_file_bytes = 16 * 1024 * 1024
    services.settings.max_archive_bytes = 16 * 1024 * 1024


def same_invoice_other_file(content: bytes) -> bytes:
    """The same invoice as another file (one more line break): another checksum, the
    same seller, number and amount, so a possible duplicate."""
    return content + b"\n"


def invalid_e_invoice() -> tuple[str, bytes]:
    return corpus_file("invalid_e_invoice", ".xml")


def invalid_e_invoice_of_every_level() -> tuple[str, bytes]:
    """An XRechnung that fails validation with a fatal, an error, a warning and an
    information finding (KoSIT's own test instance)."""
    return corpus_named(
        "itplr-kosit+validator-configuration-xrechnung/src/test/instances/ubl005.xml"
    )


def bank_statement() -> tuple[str, bytes]:
    return corpus_file("bank_statement", ".pdf")


def payment_file() -> tuple[str, bytes]:
    return corpus_file("accept_sepa", ".xml")


def plain_pdf() -> tuple[str, bytes]:
    return corpus_file("plain_pdf", ".pdf")

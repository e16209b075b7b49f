"""Result pages at 100,000 uploads in one company: p50/p95 server time of the upload
page, the four result pages and the original's download, through the real ASGI app on
SQLite and on Postgres. Target: p95 < 100 ms.

The 100,000 uploads are bench/webapp.py's; on top of them the results shown are real:
corpus files read by the processors in this process and booked through the
repositories, an invoice with 20 possible duplicates, a statement with confirmed
transactions, and a failed e-invoice with all its findings.

    python -m bench.result_pages
"""

from __future__ import annotations

import hashlib
import random
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from api.deps import Services
from bench.pages import measure_pages, run_on_engines
from bench.webapp import UPLOADS, _seed
from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.pipeline import read_document
from storage.db import Database
from storage.models import Result, Upload
from storage.objectstore import LocalDirStore, ObjectStore
from storage.repositories import api_keys, companies, users, web_results, web_sessions
from storage.repositories import results as result_repo
from storage.repositories import uploads as upload_repo
from storage.repositories import work as work_repo
from storage.settings import Environment, Settings
from storage.states import UploadStatus

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CEN = "ConnectingEurope+eInvoicing-EN16931"
DOCUMENTS = {
    "invoice": (f"{CEN}/ubl/examples/ubl-tc434-example1.xml", "auto"),
    "invoice_warnings": (f"{CEN}/cii/examples/CII_example5.xml", "auto"),
    "statement": ("bankpdf/stan-Girokonto_5434805604_Kontoauszug_20220104.pdf", "bank_statement"),
    "payment_file": ("php-sepa-xml+php-sepa-xml/tests/fixtures/xml/pain.001.001.03.xml", "auto"),
    "document": ("pretix+python-drafthorse/tests/samples/Empty.pdf", "auto"),
    "invalid": (f"{CEN}/cii/examples/XRechnung-O.xml", "auto"),
}
DUPLICATES = 20


def _book(
    database: Database, store: ObjectStore, company_id: uuid.UUID, path: str, document_type: str
) -> Upload:
    """One upload read as the pipeline reads it: stored, queued, processing, then
    completed with its result or failed with its error and details."""
    content = (CORPUS / path).read_bytes()
    upload_id = uuid.uuid4()
    key = f"uploads/{upload_id}"
    writer = store.open_writer(key)
    writer.write(content)
    writer.commit()
    context = ProcessingContext(
        DocumentType(document_type), Path(path).name, CompanyProfile("Bench GmbH")
    )
    with database.session() as session:
        upload = Upload(
            id=upload_id,
            company_id=company_id,
            file_name=Path(path).name,
            document_type=document_type,
            sha256=hashlib.sha256(content).hexdigest(),
            size_bytes=len(content),
            object_key=key,
            attempts=0,
        )
        upload_repo.add_upload(session, upload, UploadStatus.QUEUED)
        upload_repo.change_status(session, upload, UploadStatus.PROCESSING)
        try:
            outcome = read_document(content, context)
        except ProcessingError as error:
            work_repo.fail_upload(session, upload, error.code, error.message, error.details)
        else:
            result = result_repo.book_result(
                session, company_id, upload.sha256, outcome.result_type, dict(outcome.data)
            )
            work_repo.complete_upload(session, upload, result.id)
        session.commit()
        return upload


def _duplicates(database: Database, company_id: uuid.UUID, result_id: uuid.UUID) -> None:
    """The same invoice booked again from other files (other checksums)."""
    with database.session() as session:
        original = session.get(Result, result_id)
        assert original is not None
        for copy in range(DUPLICATES):
            result_repo.book_result(
                session, company_id, f"{copy:064d}", "invoice", dict(original.data)
            )
        session.commit()


def _pages(
    database: Database, store: ObjectStore, company_id: uuid.UUID, user_id: uuid.UUID
) -> dict[str, str]:
    booked = {name: _book(database, store, company_id, *doc) for name, doc in DOCUMENTS.items()}
    invoice = booked["invoice"].result_id
    statement = booked["statement"].result_id
    assert invoice and statement and booked["invalid"].status == "failed"
    _duplicates(database, company_id, invoice)
    with database.session() as session:
        result = web_results.live_result(session, company_id, statement)
        assert result is not None
        web_results.confirm_transactions(session, result, [0, 1], user_id)
        session.commit()
    return {
        "upload_completed": f"/app/uploads/{booked['invoice'].id}",
        "upload_failed_with_findings": f"/app/uploads/{booked['invalid'].id}",
        "invoice_20_lines_20_duplicates": f"/app/invoices/{invoice}",
        "invoice_with_warnings": f"/app/invoices/{booked['invoice_warnings'].result_id}",
        "bank_import_confirmed": f"/app/bank-imports/{statement}",
        "payment_file": f"/app/payment-files/{booked['payment_file'].result_id}",
        "document": f"/app/documents/{booked['document'].result_id}",
        "original_download": f"/app/results/{invoice}/original",
    }


def _bench_database(engine: Engine, work: Path) -> dict[str, Any]:
    database = Database(engine)
    store = LocalDirStore(work / f"objects-{engine.dialect.name}")
    with database.session() as session:
        company = companies.create_company(session, "Bench GmbH", vat_ids=["DE123456789"])
        api_keys.create_api_key(session, company.id, name="bench")
        user = users.create_user(
            session, company.id, f"bench-{engine.dialect.name}@example.com", "bench password"
        )
        web = web_sessions.start_session(session, user.id, timedelta(hours=1))
        session.commit()
    _seed(engine, company.id, random.Random(20260301))
    pages = _pages(database, store, company.id, user.id)
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("ANALYZE"))
    settings = Settings(environment=Environment.TEST, var_dir=work / "var")
    services = Services(settings=settings, db=database, store=store)
    return {"uploads": UPLOADS, **measure_pages(services, web.token, pages)}


def run() -> dict[str, Any]:
    return run_on_engines("docintake-result-pages-", _bench_database)


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))

"""E-mail intake end to end (docs/email.md): a real SMTP conversation with smtplib with
`docintake mail`'s server, on both backends; the message's batch unpacked and read by
the real pipeline and answered by the API."""

from __future__ import annotations

import io
import smtplib
import socket
import threading
import uuid
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import SMTP

import polars as pl
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from api.mail_server import controller
from docintake_client import verify_webhook
from flows.webhook_sender import WebhookSender
from flows.work import WorkerEnv
from storage.models import Batch, utcnow
from storage.repositories import mail_addresses
from storage.settings import Settings
from storage.tables.export import export_changed
from storage.tables.schemas import BATCHES
from testkit.samples import blank_pdf, corpus_file
from testkit.webhook_receiver import new_receiver, receiving
from tests.conftest import Tenant
from tests.flows.test_webhook_sender import delivered, wait_for
from tests.support.pipeline import run_claimed_batch

MESSAGE_LIMIT = 256 * 1024


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp(env: WorkerEnv) -> Iterator[Settings]:
    """`docintake mail`'s server on a free port, over the test's database and store."""
    settings = env.settings.model_copy(
        update={"mail_port": _free_port(), "max_message_bytes": MESSAGE_LIMIT}
    )
    server = controller(settings, env.db, env.store)
    server.start()
    yield settings
    server.stop()


@pytest.fixture
def address(env: WorkerEnv, company: Tenant, smtp: Settings) -> str:
    with env.db.session() as session:
        token = mail_addresses.current_token(
            session, company.company_id, mail_addresses.token_box(smtp)
        )
        session.commit()
    return mail_addresses.intake_address(token, smtp)


def _invoice_mail(to: str) -> EmailMessage:
    xml_name, xml = corpus_file("accept", ".xml")
    message = EmailMessage()
    message["From"] = "Lieferant GmbH <rechnung@lieferant.example>"
    message["To"] = to
    message["Subject"] = "Rechnung 2026-0042"
    message["Message-ID"] = "<42@lieferant.example>"
    message["Authentication-Results"] = "mx.example; dmarc=pass header.from=lieferant.example"
    message.set_content("Anbei unsere Rechnung.")
    message.add_attachment(
        blank_pdf("letter"), maintype="application", subtype="pdf", filename="anschreiben.pdf"
    )
    message.add_attachment(xml, maintype="application", subtype="xml", filename=xml_name)
    return message


def _send(settings: Settings, to: str, message: EmailMessage | bytes) -> None:
    raw = message if isinstance(message, bytes) else message.as_bytes(policy=SMTP)
    with smtplib.SMTP(settings.mail_host, settings.mail_port, timeout=30) as client:
        client.sendmail("bounce@lieferant.example", [to], raw)


def _batches(env: WorkerEnv) -> int:
    with env.db.read_session() as session:
        return int(session.scalar(select(func.count()).select_from(Batch)) or 0)


def test_a_mailed_invoice_becomes_a_batch_whose_uploads_complete(
    api: TestClient, company: Tenant, env: WorkerEnv, smtp: Settings, address: str
) -> None:
    raw = _invoice_mail(address).as_bytes(policy=SMTP)
    _send(smtp, address, b"Received: from mx1 by mx.example; id 1\r\n" + raw)
    # Delivered again (the sending MTA did not hear our answer): the same batch.
    _send(smtp, address, b"Received: from mx2 by mx.example; id 2\r\n" + raw)

    assert _batches(env) == 1
    batch_id, counts = run_claimed_batch(env)

    assert counts == {"completed": 2}
    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert body["status"] == "completed" and body["documentType"] == "auto"
    source = body["source"]
    assert source["receivedAt"].endswith("Z")
    assert {key: value for key, value in source.items() if key != "receivedAt"} == {
        "type": "email",
        "from": "Lieferant GmbH <rechnung@lieferant.example>",
        "subject": "Rechnung 2026-0042",
        "messageId": "<42@lieferant.example>",
    }
    names = {upload["fileName"] for upload in body["uploads"]}
    assert names == {"anschreiben.pdf", corpus_file("accept", ".xml")[0]}
    with env.db.read_session() as session:
        batch = session.get(Batch, uuid.UUID(batch_id))
        assert batch is not None and batch.authentication_results is not None
        assert "dmarc=pass" in batch.authentication_results
        assert not env.store.exists(batch.object_key)  # the raw message, once unpacked
    export_changed(env.db, env.store, env.settings)  # the scheduled export (docs/tables.md)
    (key,) = env.store.list_keys(f"tables/batches/v{BATCHES.version}/")
    row = pl.read_parquet(io.BytesIO(env.store.read_bytes(key))).row(0, named=True)
    assert (row["source_type"], row["mail_subject"]) == ("email", "Rechnung 2026-0042")


def test_the_address_suffix_names_the_document_type(
    api: TestClient, company: Tenant, env: WorkerEnv, smtp: Settings, address: str
) -> None:
    token, domain = address.split("@")
    supplier = f"{token}+supplier@{domain}"
    _send(smtp, supplier, _invoice_mail(supplier))

    batch_id, _ = run_claimed_batch(env)

    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert body["documentType"] == "supplier_invoice"


def test_a_message_without_attachments_is_a_completed_batch_without_uploads(
    api: TestClient, company: Tenant, env: WorkerEnv, smtp: Settings, address: str
) -> None:
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.com", "Nur Text"
    message.set_content("Keine Rechnung dabei.")
    _send(smtp, address, message)

    batch_id, counts = run_claimed_batch(env)

    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert counts == {} and body["status"] == "completed" and body["counts"]["total"] == 0
    assert body["source"]["subject"] == "Nur Text"


def test_unknown_and_retired_addresses_are_refused_at_rcpt(
    env: WorkerEnv, company: Tenant, smtp: Settings, address: str
) -> None:
    token, domain = address.split("@")
    refused = [
        f"{'a' * 24}@{domain}",
        f"{token}@other.example",
        f"{token}+nonsense@{domain}",
    ]
    with smtplib.SMTP(smtp.mail_host, smtp.mail_port, timeout=30) as client:
        client.ehlo()
        client.mail("sender@example.com")
        for recipient in refused:
            assert client.rcpt(recipient)[0] == 550
        assert client.rcpt(address)[0] == 250
        client.rset()
        with env.db.session() as session:
            mail_addresses.revoke_tokens(session, company.company_id, utcnow())
            session.commit()
        client.mail("sender@example.com")
        assert client.rcpt(address)[0] == 550
    assert _batches(env) == 0


def test_a_message_over_the_limit_is_refused_with_552(
    env: WorkerEnv, smtp: Settings, address: str
) -> None:
    message = _invoice_mail(address)
    message.add_attachment(
        bytes(MESSAGE_LIMIT), maintype="application", subtype="pdf", filename="big.pdf"
    )
    raw = message.as_bytes(policy=SMTP)
    with smtplib.SMTP(smtp.mail_host, smtp.mail_port, timeout=30) as client:
        client.ehlo()
        assert client.has_extn("size") and int(client.esmtp_features["size"]) == MESSAGE_LIMIT
        assert client.mail("s@example.com", [f"SIZE={len(raw)}"])[0] == 552  # declared
        client.rset()
        assert client.mail("s@example.com")[0] == 250  # undeclared: refused in DATA
        assert client.rcpt(address)[0] == 250
        assert client.data(raw)[0] == 552
    assert _batches(env) == 0


def test_a_rotated_token_keeps_working_for_seven_days(
    env: WorkerEnv, company: Tenant, smtp: Settings, address: str
) -> None:
    with env.db.session() as session:
        new = mail_addresses.rotate_token(
            session, company.company_id, mail_addresses.token_box(smtp)
        )
        session.commit()
    with smtplib.SMTP(smtp.mail_host, smtp.mail_port, timeout=30) as client:
        client.ehlo()
        client.mail("sender@example.com")
        assert client.rcpt(address)[0] == 250
        assert client.rcpt(mail_addresses.intake_address(new, smtp))[0] == 250


def test_an_e_mail_batch_s_webhook_event_carries_its_source(
    api: TestClient, company: Tenant, env: WorkerEnv, smtp: Settings, address: str
) -> None:
    receiver = new_receiver(204)
    created = api.post(
        "/v1/webhook-endpoints",
        headers=company.headers,
        json={"url": receiver.url, "events": ["batch.completed"]},
    ).json()
    _send(smtp, address, _invoice_mail(address))
    batch_id, _ = run_claimed_batch(env)

    sender = WebhookSender(env.db, env.settings)
    thread = threading.Thread(target=sender.run, daemon=True)
    with receiving(receiver):
        thread.start()
        wait_for(delivered(env.db, 1), 60)
        sender.stop.set()
        thread.join(timeout=30)

    (request,) = receiver.requests()
    event = verify_webhook(created["secret"], request.headers, request.body)
    now = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert event["data"] == now and event["data"]["source"]["type"] == "email"

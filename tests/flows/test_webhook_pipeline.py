"""Webhooks end to end through the real pipeline (real Prefect flows and reading
processes): an endpoint registered over the API hears of every upload the pipeline
finishes and of the batch, each event carrying the resource as GET returns it."""

from __future__ import annotations

import json
import threading

from fastapi.testclient import TestClient

from docintake_client import verify_webhook
from flows.pipeline import process_batch, process_uploads
from flows.webhook_sender import WebhookSender
from flows.work import WorkerEnv
from storage.repositories import work as work_repo
from testkit.samples import blank_pdf, corpus_file
from testkit.webhook_receiver import new_receiver, receiving
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant
from tests.flows.test_webhook_sender import delivered, wait_for


def test_the_pipeline_s_outcomes_reach_a_registered_endpoint(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    receiver = new_receiver(204)
    events = ["upload.completed", "upload.failed", "batch.completed"]
    created = api.post(
        "/v1/webhook-endpoints",
        headers=company.headers,
        json={"url": receiver.url, "events": events},
    ).json()
    invoice_name, invoice = corpus_file("accept", ".xml")
    single = post_upload(api, company.headers, invoice, invoice_name).json()
    refused = post_upload(api, company.headers, corpus_file("unsupported_file_type")[1]).json()
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    batch = post_batch(api, company.headers, archive).json()

    process_uploads(window="test", idle_seconds=0.3)
    with env.db.session() as session:
        claimed = work_repo.claim_batch(session, env.owner, env.lease)
        assert claimed is not None
        session.commit()
    process_batch(str(batch["id"]))

    sender = WebhookSender(env.db, env.settings)
    thread = threading.Thread(target=sender.run, daemon=True)
    with receiving(receiver):
        thread.start()
        wait_for(delivered(env.db, 5), 60)
        sender.stop.set()
        thread.join(timeout=30)

    received = {}
    for request in receiver.requests():
        event = verify_webhook(created["secret"], request.headers, request.body)
        received[(event["type"], event["data"]["id"])] = event["data"]
    batch_now = api.get(f"/v1/uploads/batches/{batch['id']}", headers=company.headers).json()
    expected = {
        ("upload.completed", single["id"]): f"/v1/uploads/{single['id']}",
        ("upload.failed", refused["id"]): f"/v1/uploads/{refused['id']}",
        ("batch.completed", batch["id"]): f"/v1/uploads/batches/{batch['id']}",
        **{
            ("upload.completed", upload["id"]): f"/v1/uploads/{upload['id']}"
            for upload in batch_now["uploads"]
        },
    }
    assert set(received) == set(expected)
    for key, path in expected.items():
        now = api.get(path, headers=company.headers).json()
        assert json.dumps(received[key], sort_keys=True) == json.dumps(now, sort_keys=True), key

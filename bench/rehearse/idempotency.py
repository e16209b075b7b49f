"""Two API hosts taking uploads of one company at once: the same request sent to both
at the same moment (a barrier releases the pair) must still make one upload.

Cases, each ROUNDS times with new content:
- same_external_id: the same file and externalId to both hosts: one id, one original;
- same_content: the same file, no externalId: one id;
- batch_same_external_id: the same archive and externalId as a batch: one batch;
- conflicting_external_id: one externalId, a different file on each host: one 202 and
  one 409 `external_id_conflict`, one upload.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
from sqlalchemy import Engine, text

from bench.pipeline import zip_files
from testkit.samples import blank_pdf

ROUNDS = 20
Answer = tuple[int, str | None, bool, str | None]  # status, id, replayed, error code


def _post(
    client: httpx.Client,
    path: str,
    name: str,
    data: bytes,
    external_id: str | None,
    barrier: threading.Barrier,
) -> Answer:
    form = {"externalId": external_id} if external_id else {}
    barrier.wait()
    answer = client.post(path, files={"file": (name, data)}, data=form)
    body = answer.json()
    code = body.get("code") if answer.status_code >= 400 else None
    replayed = answer.headers.get("Idempotent-Replayed") == "true"
    return answer.status_code, body.get("id"), replayed, code


def _pair(
    clients: list[httpx.Client], path: str, files: list[tuple[str, bytes]], external_id: str | None
) -> list[Answer]:
    barrier = threading.Barrier(2)
    with ThreadPoolExecutor(2) as pool:
        futures = [
            pool.submit(_post, client, path, name, data, external_id, barrier)
            for client, (name, data) in zip(clients, files, strict=True)
        ]
        return [future.result() for future in futures]


def _count(engine: Engine, table: str, external_id: str) -> int:
    query = text(f"SELECT count(*) FROM {table} WHERE external_id = :external_id")
    with engine.connect() as connection:
        return int(connection.execute(query, {"external_id": external_id}).scalar_one())


def _case(clients: list[httpx.Client], engine: Engine, kind: str, round_: int) -> dict[str, Any]:
    tag = uuid.uuid4().hex
    pdf = blank_pdf(f"rehearsal {kind} {round_} {tag}")
    external_id = None if kind == "same_content" else f"rehearsal-{tag}"
    if kind == "batch_same_external_id":
        archive = zip_files([(f"{tag}.pdf", pdf)])
        answers = _pair(clients, "/v1/uploads/batches", [("a.zip", archive)] * 2, external_id)
    elif kind == "conflicting_external_id":
        other = blank_pdf(f"rehearsal other {tag}")
        answers = _pair(clients, "/v1/uploads", [("a.pdf", pdf), ("b.pdf", other)], external_id)
    else:
        answers = _pair(clients, "/v1/uploads", [("a.pdf", pdf)] * 2, external_id)
    table = "batches" if kind.startswith("batch") else "uploads"
    stored = _count(engine, table, external_id) if external_id else None
    return {"answers": answers, "stored": stored}


def _holds(kind: str, outcome: dict[str, Any]) -> bool:
    answers: list[Answer] = outcome["answers"]
    statuses = sorted(status for status, *_ in answers)
    if kind == "conflicting_external_id":
        codes = {code for *_, code in answers}
        return statuses == [202, 409] and "external_id_conflict" in codes and outcome["stored"] == 1
    one_id = len({answer_id for _, answer_id, _, _ in answers}) == 1
    one_original = sum(1 for _, _, replayed, _ in answers if not replayed) == 1
    stored_once = outcome["stored"] in (None, 1)
    return statuses == [202, 202] and one_id and one_original and stored_once


def check(api_urls: list[str], key: str, engine: Engine, rounds: int = ROUNDS) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"}
    clients = [httpx.Client(base_url=url, headers=headers, timeout=60) for url in api_urls]
    cases: dict[str, Any] = {}
    try:
        for kind in (
            "same_external_id",
            "same_content",
            "batch_same_external_id",
            "conflicting_external_id",
        ):
            outcomes = [_case(clients, engine, kind, round_) for round_ in range(rounds)]
            broken = [outcome for outcome in outcomes if not _holds(kind, outcome)]
            cases[kind] = {
                "pairs": rounds,
                "held": rounds - len(broken),
                "statuses": dict(Counter(str(s) for o in outcomes for s, *_ in o["answers"])),
                "broken_examples": broken[:3],
            }
    finally:
        for client in clients:
            client.close()
    return {
        "api_hosts": api_urls,
        "cases": cases,
        "holds": all(case["held"] == case["pairs"] for case in cases.values()),
    }

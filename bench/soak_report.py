"""The soak's verdict, from the database and the load clients' logs: accepted against
terminal, lost, processing_failed caused by faults, booked twice, and 5xx answers."""

from __future__ import annotations

import statistics
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select

from bench.soak_load import read_logs
from storage.models import Batch, Result, Upload
from storage.states import ACTIVE_STATUSES, UnpackState

ACTIVE = [str(status) for status in ACTIVE_STATUSES]
EXAMPLES = 10


@dataclass
class ClientRecord:
    """What the clients' logs say: accepted ids by kind, hostile ids, every answer."""

    singles: set[str] = field(default_factory=set)
    batches: set[str] = field(default_factory=set)
    hostile: dict[str, str] = field(default_factory=dict)  # id -> file name
    answers: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def read(cls, folder: Path) -> ClientRecord:
        record = cls()
        for row in read_logs(folder):
            record.answers.append(row)
            if row["status"] != 202 or not row.get("id"):
                continue
            (record.singles if row["kind"] == "single" else record.batches).add(row["id"])
            if row.get("tag") == "hostile":
                record.hostile[row["id"]] = row["file"]
        return record


def _chunks(ids: Iterable[str], size: int = 500) -> Iterator[list[uuid.UUID]]:
    values = [uuid.UUID(value) for value in ids]
    for start in range(0, len(values), size):
        yield values[start : start + size]


@dataclass
class _Row:
    id: str
    batch_id: str | None
    status: str
    error_code: str | None
    error_message: str | None
    file_name: str


def _uploads(engine: Engine, singles: set[str], batches: set[str]) -> list[_Row]:
    columns = (
        Upload.id, Upload.batch_id, Upload.status, Upload.error_code, Upload.error_message,
        Upload.file_name,
    )  # fmt: skip
    rows: list[Any] = []
    with engine.connect() as connection:
        for chunk in _chunks(singles):
            rows += connection.execute(select(*columns).where(Upload.id.in_(chunk))).all()
        for chunk in _chunks(batches):
            rows += connection.execute(select(*columns).where(Upload.batch_id.in_(chunk))).all()
    return [
        _Row(str(id_), str(batch) if batch else None, status, code, message, name)
        for id_, batch, status, code, message, name in rows
    ]


def _unpack_states(engine: Engine, batches: set[str]) -> dict[str, str]:
    states: dict[str, str] = {}
    with engine.connect() as connection:
        for chunk in _chunks(batches):
            query = select(Batch.id, Batch.unpack_state).where(Batch.id.in_(chunk))
            states |= {str(id_): state for id_, state in connection.execute(query)}
    return states


def unfinished(engine: Engine, record: ClientRecord) -> int:
    """Accepted singles and batches not yet terminal (missing ones count)."""
    rows = _uploads(engine, record.singles, record.batches)
    single_done = {row.id for row in rows if row.batch_id is None and row.status not in ACTIVE}
    states = _unpack_states(engine, record.batches)
    busy = {row.batch_id for row in rows if row.batch_id and row.status in ACTIVE}
    batch_done = {
        batch
        for batch, state in states.items()
        if state != UnpackState.PENDING and batch not in busy
    }
    return len(record.singles - single_done) + len(record.batches - batch_done)


def settle(engine: Engine, record: ClientRecord, stall: float, limit: float) -> dict[str, Any]:
    """Wait until every accepted upload and batch is terminal, while the pipeline makes
    progress: stop once nothing became terminal for `stall` seconds (stuck), or after
    `limit` seconds in all. What was left every 10 s shows a slow pipeline (falling)
    or a stuck one (flat)."""
    started = last_progress = time.monotonic()
    left = unfinished(engine, record)
    trace = [left]
    while left and time.monotonic() - last_progress < stall and time.monotonic() - started < limit:
        time.sleep(2)
        now_left = unfinished(engine, record)
        if now_left < left:
            last_progress = time.monotonic()
        left = now_left
        if time.monotonic() - started >= 10 * len(trace):
            trace.append(left)
    waited = time.monotonic() - started
    return {
        "seconds": round(waited, 1),
        "stall_limit_s": stall,
        "limit_s": limit,
        "left": left,
        "ended_by": "done" if not left else ("limit" if waited >= limit else "stall"),
        "left_every_10_s": trace,
    }


def _booked_twice(engine: Engine) -> list[dict[str, Any]]:
    live = (
        select(Result.company_id, Result.sha256, func.count())
        .where(Result.deleted_at.is_(None))
        .group_by(Result.company_id, Result.sha256)
        .having(func.count() > 1)
    )
    shared = (
        select(Upload.company_id, Upload.sha256, func.count(Upload.result_id.distinct()))
        .where(Upload.status == "completed")
        .group_by(Upload.company_id, Upload.sha256)
        .having(func.count(Upload.result_id.distinct()) > 1)
    )
    with engine.connect() as connection:
        found = [
            {"company": str(c), "sha256": s, "live_results": n}
            for c, s, n in connection.execute(live)
        ]
        found += [
            {"company": str(c), "sha256": s, "completed_with_results": n}
            for c, s, n in connection.execute(shared)
        ]
    return found


def _http(answers: list[dict[str, Any]], load_seconds: float) -> dict[str, Any]:
    by_status = Counter(str(row["status"]) for row in answers)
    bad = [
        row for row in answers
        if row["status"] >= 500 and not (row["status"] == 503 and row.get("retry_after"))
    ]  # fmt: skip
    polls = [row for row in answers if row["kind"] == "poll" and row["status"]]
    seconds = sorted(row["seconds"] for row in polls)
    return {
        "requests": len(answers),
        "by_status": dict(sorted(by_status.items())),
        "5xx_other_than_503_with_retry_after": len(bad),
        "5xx_examples": [_short(row) for row in bad[:EXAMPLES]],
        "503_with_retry_after": sum(
            1 for row in answers if row["status"] == 503 and row.get("retry_after")
        ),
        "transport_errors": by_status.get("0", 0),
        "poll_requests": len(polls),
        "poll_rate_per_s": round(len(polls) / load_seconds, 1),
        "poll_p50_ms": round(1000 * statistics.median(seconds), 1) if seconds else None,
        "poll_p99_ms": round(1000 * seconds[int(0.99 * (len(seconds) - 1))], 1)
        if seconds
        else None,
    }


def _short(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row.get(key) for key in ("t", "kind", "file", "status", "retry_after")}


def _describe(row: _Row) -> dict[str, Any]:
    return {
        "upload": row.id,
        "batch": row.batch_id,
        "file": row.file_name,
        "status": row.status,
        "error_code": row.error_code,
        "message": (row.error_message or "")[:200],
    }


def verdict(engine: Engine, record: ClientRecord, load_seconds: float) -> dict[str, Any]:
    rows = _uploads(engine, record.singles, record.batches)
    states = _unpack_states(engine, record.batches)
    found_singles = {row.id for row in rows if row.batch_id is None}
    active = [row for row in rows if row.status in ACTIVE]
    busy_batches = {row.batch_id for row in active if row.batch_id}
    open_batches = {
        batch
        for batch in record.batches
        if states.get(batch, UnpackState.PENDING) == UnpackState.PENDING or batch in busy_batches
    }
    hostile = set(record.hostile)
    failed = [row for row in rows if row.error_code == "processing_failed"]
    by_fault = [row for row in failed if row.id not in hostile and row.batch_id not in hostile]
    in_batches = [row for row in rows if row.batch_id]
    lost = [_describe(row) for row in active] + [
        {"upload": missing, "status": "not found"} for missing in record.singles - found_singles
    ]
    lost += [{"batch": batch, "unpack_state": states.get(batch, "not found")} for batch in
             sorted(open_batches - busy_batches)]  # fmt: skip
    booked = _booked_twice(engine)
    http = _http(record.answers, load_seconds)
    result = {
        "accepted": {
            "singles": len(record.singles),
            "batches": len(record.batches),
            "uploads_in_batches": len(in_batches),
        },
        "terminal": {
            "singles": sum(1 for row in rows if row.batch_id is None and row.status not in ACTIVE),
            "batches": len(record.batches) - len(open_batches),
            "uploads_in_batches": sum(1 for row in in_batches if row.status not in ACTIVE),
        },
        "lost": len(lost),
        "lost_examples": lost[:EXAMPLES],
        "processing_failed_caused_by_faults": len(by_fault),
        "processing_failed_caused_by_faults_examples": [_describe(r) for r in by_fault[:EXAMPLES]],
        "processing_failed_of_hostile_files": len(failed) - len(by_fault),
        "hostile_files": _hostile_outcomes(rows, states, record.hostile),
        "booked_twice": len(booked),
        "booked_twice_examples": booked[:EXAMPLES],
        "outcomes": dict(Counter(f"{r.status}:{r.error_code or '-'}" for r in rows).most_common()),
        "http": http,
    }
    result["violations"] = _violations(result)
    return result


def _hostile_outcomes(
    rows: list[_Row], states: dict[str, str], hostile: dict[str, str]
) -> list[dict[str, Any]]:
    outcomes = []
    for item, name in hostile.items():
        own = [_describe(row) for row in rows if item in (row.id, row.batch_id)]
        outcomes.append(
            {"file": name, "id": item, "unpack_state": states.get(item), "uploads": own}
        )
    return outcomes


def _violations(result: dict[str, Any]) -> list[str]:
    problems = []
    for kind, count in result["accepted"].items():
        if result["terminal"][kind] != count:
            problems.append(f"accepted {kind} {count} != terminal {result['terminal'][kind]}")
    for name in ("lost", "processing_failed_caused_by_faults", "booked_twice"):
        if result[name]:
            problems.append(f"{name}: {result[name]}")
    if bad := result["http"]["5xx_other_than_503_with_retry_after"]:
        problems.append(f"5xx other than 503 with Retry-After: {bad}")
    return problems

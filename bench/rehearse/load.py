"""The rehearsal's load and what it reads back from the database: batches of 100
different documents (as in the throughput benchmark) kept queued ahead of the workers,
the uploads finished in a time window, and which hosts hold work right now."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from bench.pipeline import _corpus_files, zip_files
from bench.soak_load import ClientLog, Uploader, _varied

BATCH_FILES = 100
# Every batch a new variant of the corpus files (trailing newlines after the end), so
# every file is read and none completes with an earlier result.
_variants = itertools.count(1)
_files: list[tuple[str, bytes]] = []


def corpus_batch() -> tuple[int, bytes]:
    """A zip of 100 different corpus documents, content new to every company."""
    if not _files:
        _files.extend(_corpus_files(BATCH_FILES))
    variant = next(_variants)
    archive = zip_files([(f"{variant}-{name}", _varied(data, variant)) for name, data in _files])
    return variant, archive


def backlog(engine: Engine) -> int:
    """Uploads not yet terminal, counting a batch still to be unpacked as 100."""
    query = text(
        "SELECT (SELECT count(*) FROM uploads WHERE status IN ('queued', 'processing'))"
        " + :files * (SELECT count(*) FROM batches WHERE unpack_state = 'pending')"
    )
    with engine.connect() as connection:
        return int(connection.execute(query, {"files": BATCH_FILES}).scalar_one())


def finished_between(engine: Engine, start: datetime, end: datetime) -> int:
    """Uploads that reached a terminal state in [start, end)."""
    query = text(
        "SELECT count(*) FROM status_history WHERE to_status IN ('completed', 'failed')"
        " AND at >= :start AND at < :end"
    )
    with engine.connect() as connection:
        return int(connection.execute(query, {"start": start, "end": end}).scalar_one())


LEASE_SECONDS = 30.0  # DOCINTAKE_LEASE_SECONDS, left at its default


def hosts_holding_work(engine: Engine, since: datetime | None = None) -> set[str]:
    """The hostnames whose workers hold a live lease (lease owners are host:pid:id);
    with `since`, only leases taken or extended after it (a lease runs LEASE_SECONDS
    from then), so a dead process's leases that have not expired yet do not count."""
    after = "lease_expires_at > now()"
    if since is not None:
        after += " AND lease_expires_at > :since + make_interval(secs => :lease)"
    query = text(
        f"SELECT DISTINCT split_part(lease_owner, ':', 1) FROM uploads WHERE {after} UNION"
        f" SELECT DISTINCT split_part(lease_owner, ':', 1) FROM batches WHERE {after}"
    )
    with engine.connect() as connection:
        rows = connection.execute(query, {"since": since, "lease": LEASE_SECONDS})
        return {str(name) for name in rows.scalars()}


def connections_by_address(engine: Engine) -> dict[str, int]:
    """Open Postgres connections by client address (the test host they come from)."""
    query = text(
        "SELECT host(client_addr), count(*) FROM pg_stat_activity"
        " WHERE client_addr IS NOT NULL GROUP BY 1"
    )
    with engine.connect() as connection:
        return {str(address): int(count) for address, count in connection.execute(query)}


def footprint(engine: Engine, object_dir: Path) -> dict[str, Any]:
    """Database and object store size per upload, for sizing."""
    query = text(
        "SELECT pg_database_size('docintake'), pg_database_size('prefect'),"
        " (SELECT count(*) FROM uploads), (SELECT count(*) FROM status_history)"
    )
    with engine.connect() as connection:
        docintake, prefect, uploads, history = connection.execute(query).one()
    stored = sum(path.stat().st_size for path in object_dir.rglob("*") if path.is_file())
    per = max(1, int(uploads))
    return {
        "uploads": int(uploads),
        "status_history_rows": int(history),
        "docintake_database_mib": round(docintake / 2**20, 1),
        "prefect_database_mib": round(prefect / 2**20, 1),
        "object_store_mib": round(stored / 2**20, 1),
        "docintake_database_kib_per_upload": round(docintake / 1024 / per, 1),
        "prefect_database_kib_per_upload": round(prefect / 1024 / per, 1),
        "object_store_kib_per_upload": round(stored / 1024 / per, 1),
    }


@dataclass
class Feeder:
    """Posts batches for one company while fewer than `target` uploads wait, through the
    soak's Uploader (503 retried after Retry-After with the same externalId), logging
    every answer where soak_report.ClientRecord reads it."""

    api_url: str
    key: str
    folder: Path
    engine: Engine
    target: int
    stop: threading.Event = field(default_factory=threading.Event)
    posted: int = 0
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._thread = threading.Thread(target=self._run, name="feeder", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        uploader = Uploader(self.api_url, ClientLog(self.folder / "client-feeder.jsonl"), self.stop)
        try:
            while not self.stop.is_set():
                if backlog(self.engine) >= self.target:
                    self.stop.wait(1.0)
                    continue
                variant, archive = corpus_batch()
                if uploader.post(
                    self.key, "/v1/uploads/batches", f"b{variant}.zip", archive, "batch"
                ):
                    self.posted += 1
        finally:
            uploader.close()

    def finish(self) -> None:
        self.stop.set()
        if self._thread:
            self._thread.join(timeout=180)

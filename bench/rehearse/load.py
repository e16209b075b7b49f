"""The rehearsal's load and what it reads back from the database: batches of 100
different documents (as in the throughput benchmark) kept queued ahead of the workers,
the uploads finished in a time window, and which hosts hold work right now."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

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


def hosts_holding_work(engine: Engine) -> set[str]:
    """The hostnames whose workers hold a live lease (lease owners are host:pid:id)."""
    query = text(
        "SELECT DISTINCT split_part(lease_owner, ':', 1) FROM uploads"
        " WHERE lease_expires_at > now() UNION"
        " SELECT DISTINCT split_part(lease_owner, ':', 1) FROM batches"
        " WHERE lease_expires_at > now()"
    )
    with engine.connect() as connection:
        return {str(name) for name in connection.execute(query).scalars()}


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

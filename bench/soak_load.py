"""The soak's load: batches and single uploads of several companies (Python threads,
a few requests a second), and polling at 200 requests/s by curl processes. Every
request is a line in a JSONL log of its client; the verdict is read from those logs."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

from bench.pipeline import _corpus_files, zip_files
from testkit.samples import blank_pdf

POLL_RATE = 200
POLL_CHUNK_SECONDS = 5
POLL_PROCESSES = 4
BATCH_FILES = 20
RETRY_AFTER_CAP = 5.0


class ClientLog:
    """One JSONL file per client, a line per request (thread-safe)."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        self._file = path.open("a")

    def write(self, **row: Any) -> None:
        with self._lock:
            self._file.write(json.dumps({"t": round(time.time(), 3), **row}) + "\n")
            self._file.flush()

    def close(self) -> None:
        self._file.close()


def read_logs(folder: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(folder.glob("client-*.jsonl")):
        for line in path.read_text().splitlines():
            yield json.loads(line)


@dataclass
class Uploader:
    """POSTs with retries: a 503 (or a dropped connection) is sent again after
    Retry-After (at most 5 s), with the same externalId so a request that was in fact
    accepted replays instead of counting twice. Gives up once `stop` is set."""

    api_url: str
    log: ClientLog
    stop: threading.Event
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.api_url, timeout=60)

    def post(
        self, key: str, path: str, name: str, data: bytes, kind: str, tag: str = "load"
    ) -> str | None:
        external_id = f"soak-{uuid.uuid4().hex}"
        while True:
            status, retry_after, body = self._attempt(key, path, name, data, external_id)
            self.log.write(
                kind=kind, tag=tag, file=name, status=status, retry_after=retry_after,
                id=body.get("id") if status == 202 else None, external_id=external_id,
            )  # fmt: skip
            if status == 202:
                return str(body["id"])
            if (status and status < 500) or self.stop.is_set():
                return None
            self.stop.wait(min(float(retry_after or 1), RETRY_AFTER_CAP))

    def _attempt(
        self, key: str, path: str, name: str, data: bytes, external_id: str
    ) -> tuple[int, str | None, dict[str, Any]]:
        try:
            answer = self.client.post(
                path,
                headers={"Authorization": f"Bearer {key}"},
                files={"file": (name, data)},
                data={"externalId": external_id},
            )
        except httpx.HTTPError:
            return 0, None, {}
        try:
            body = answer.json()
        except ValueError:
            body = {}
        return answer.status_code, answer.headers.get("retry-after"), body

    def close(self) -> None:
        self.client.close()


class Accepted:
    """What the clients got a 202 for, for the pollers to poll."""

    def __init__(self) -> None:
        self.uploads: list[str] = []
        self.batches: list[str] = []
        self.keys: dict[str, str] = {}  # id -> the company's key


def _varied(data: bytes, variant: int) -> bytes:
    """The same document as different content: trailing whitespace after the end."""
    return data + b"\n" * variant


@dataclass
class Load:
    api_url: str
    keys: list[str]
    folder: Path
    batch_interval: float = 6.0
    single_interval: float = 1.0
    stop: threading.Event = field(default_factory=threading.Event)
    accepted: Accepted = field(default_factory=Accepted)
    threads: list[threading.Thread] = field(default_factory=list)
    pollers: list[subprocess.Popen[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.files = _corpus_files(100)
        self.random = random.Random(12)

    def start(self) -> None:
        for name, target in (
            ("batches", self._batches),
            ("singles", self._singles),
            ("polling", self._polling),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self.threads.append(thread)

    def finish(self) -> None:
        self.stop.set()
        for process in self.pollers:
            if process.poll() is None:
                process.terminate()
        for thread in self.threads:
            thread.join(timeout=120)

    def uploader(self, name: str) -> Uploader:
        return Uploader(self.api_url, ClientLog(self.folder / f"client-{name}.jsonl"), self.stop)

    def _batches(self) -> None:
        uploader = self.uploader("batches")
        number = 0
        while not self.stop.is_set():
            key = self.keys[number % len(self.keys)]
            # Each company meets its content again every third batch: a second booking
            # of the same content would show.
            variant = (number // len(self.keys)) % 3
            picked = self.random.sample(self.files, BATCH_FILES)
            archive = zip_files(
                [(f"{number}-{name}", _varied(data, variant)) for name, data in picked]
            )
            batch_id = uploader.post(key, "/v1/uploads/batches", f"b{number}.zip", archive, "batch")
            if batch_id:
                self.accepted.batches.append(batch_id)
                self.accepted.keys[batch_id] = key
            number += 1
            self.stop.wait(self.batch_interval)
        uploader.close()

    def _singles(self) -> None:
        uploader = self.uploader("singles")
        number = 0
        while not self.stop.is_set():
            key = self.keys[number % len(self.keys)]
            if number % 2:
                name, data = f"s{number}.pdf", blank_pdf(f"soak single {number} {uuid.uuid4()}")
            else:
                name, data = self.files[number % len(self.files)]
                data = _varied(data, 10 + number // len(self.files))
            upload_id = uploader.post(key, "/v1/uploads", name, data, "single")
            if upload_id:
                self.accepted.uploads.append(upload_id)
                self.accepted.keys[upload_id] = key
            number += 1
            self.stop.wait(self.single_interval)
        uploader.close()

    def _polling(self) -> None:
        """Chunks of POLL_CHUNK_SECONDS: POLL_PROCESSES serial curl processes, each at its
        share of the rate, so one slow answer does not hold up all of them."""
        log = ClientLog(self.folder / "client-polling.jsonl")
        while not self.stop.is_set():
            urls = self._poll_urls(POLL_RATE * POLL_CHUNK_SECONDS)
            if not urls:
                self.stop.wait(0.5)
                continue
            processes = [
                self._curl(index, urls[index::POLL_PROCESSES]) for index in range(POLL_PROCESSES)
            ]
            for process in processes:
                out, _ = process.communicate()
                self.pollers.remove(process)
                for line in out.splitlines():
                    fields = line.split("|")
                    if len(fields) == 3 and fields[0].isdigit():  # a killed curl cuts a line
                        log.write(
                            kind="poll", status=int(fields[0]), retry_after=fields[1] or None,
                            seconds=float(fields[2]),
                        )  # fmt: skip
        log.close()

    def _curl(self, index: int, urls: list[tuple[str, str]]) -> subprocess.Popen[str]:
        config = self.folder / f"poll-{index}.cfg"
        config.write_text("next\n".join(_curl_block(url, key) for url, key in urls))
        rate = POLL_RATE // POLL_PROCESSES
        process = subprocess.Popen(
            ["curl", "-sS", "--rate", f"{rate}/s", "--config", str(config)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.pollers.append(process)
        return process

    def _poll_urls(self, count: int) -> list[tuple[str, str]]:
        """The latest 200 uploads, and one request in ten for the latest 20 batches."""
        uploads, batches = self.accepted.uploads[-200:], self.accepted.batches[-20:]
        urls = []
        for index in range(count):
            if batches and (index % 10 == 9 or not uploads):
                item = batches[index % len(batches)]
                urls.append((f"{self.api_url}/v1/uploads/batches/{item}", item))
            elif uploads:
                item = uploads[index % len(uploads)]
                urls.append((f"{self.api_url}/v1/uploads/{item}", item))
        return [(url, self.accepted.keys[item]) for url, item in urls]


def _curl_block(url: str, key: str) -> str:
    return (
        f'url = "{url}"\nheader = "Authorization: Bearer {key}"\noutput = "/dev/null"\n'
        'max-time = 20\nwrite-out = "%{http_code}|%header{retry-after}|%{time_total}\\n"\n'
    )

"""Issue 38, target 4: what a single `POST /v1/uploads` costs the API process.

    python -m bench.api_cost [--mode embedded|production] [--requests 300]
        [--profile OUT.pstats] [--callgrind] [--connections 1]

The API runs as `docintake serve` runs it (bench/api_cost_serve.py: api.cli.cmd_serve,
uvicorn with api/http_protocol.GuardedHttpProtocol, create_app from the environment),
one process, on a fresh database: SQLite and the local object directory in a temporary
directory (embedded, `make run`'s default), or a schema of its own in the Postgres at
127.0.0.1:5432 with the local object directory (production). One company, one API key.

The client (this process, not measured) sends single uploads one after another over one
kept-alive connection (or `--connections` at once): a small XRechnung (UBL XML, 7 KB) and
a small PDF (24 KB) in turn, each with bytes of its own (a trailing comment), so every
upload is new and queued. After a warm-up it measures, for `--requests` uploads:

- the API process's CPU (utime + stime from /proc) per request, with the 1-minute load
  average: on a loaded machine this moves with the machine;
- with `--callgrind`, the API under valgrind's callgrind, instrumented only for the
  measured requests: instructions per request, which the machine's load moves much
  less (no hardware counters on this machine: `perf stat -e instructions` is not
  supported); also net of the idle loop's instructions for as long (see `_Counted`);
- with `--profile`, cProfile in every thread of the API for the measured requests
  (pstats file; `python -m bench.api_cost_profile OUT N` sums it by part of the
  request path): which parts take the time. cProfile adds a
  fixed cost per Python call, so its shares lean towards code with many small calls.

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from bench.polling import database
from bench.stack import ROOT, _stop_group, _wait_http
from bench.stack_cpu import TICKS_PER_SECOND
from storage.db import Database
from storage.repositories import api_keys, companies
from testkit.seaweed import free_port

CORPUS = ROOT.parent / "shared" / "corpus"
XML_SAMPLE = CORPUS / "mustang/library/src/test/resources/ubl/XRECHNUNG_Einfach.ubl.xml"
PDF_SAMPLE = CORPUS / "invoice-x+invoice2data/tests/compare/oyo.pdf"
WARM_UP = 40
IDLE_SECONDS = 10.0
STARTUP_SECONDS = 120.0
CALLGRIND_STARTUP_SECONDS = 900.0
BOUNDARY = "docintakebenchboundary"
Document = tuple[str, str, bytes]  # file name, content type, bytes


def samples() -> list[Document]:
    """A small XRechnung and a small PDF from the corpus; generated stand-ins without
    it (the API stores the bytes without reading them, only their size matters)."""
    if XML_SAMPLE.is_file() and PDF_SAMPLE.is_file():
        return [
            ("xrechnung.xml", "application/xml", XML_SAMPLE.read_bytes()),
            ("invoice.pdf", "application/pdf", PDF_SAMPLE.read_bytes()),
        ]
    xml = b'<?xml version="1.0"?><Invoice>' + b"<Note>x</Note>" * 500 + b"</Invoice>"
    pdf = b"%PDF-1.4\n" + b"0" * 24_000 + b"\n%%EOF\n"
    return [("xrechnung.xml", "application/xml", xml), ("invoice.pdf", "application/pdf", pdf)]


def unique(document: Document, number: int) -> Document:
    """The same document with bytes of its own (a comment after its end)."""
    name, content_type, data = document
    if data.startswith(b"%PDF"):
        return name, content_type, data + b"\n%bench " + str(number).encode() + b"\n"
    return name, content_type, data + b"\n<!-- bench " + str(number).encode() + b" -->\n"


def multipart(document: Document) -> bytes:
    name, content_type, data = document
    head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode()
    return head + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def bodies(first: int, count: int) -> list[bytes]:
    documents = samples()
    return [
        multipart(unique(documents[n % len(documents)], n)) for n in range(first, first + count)
    ]


def seed(engine: Engine) -> str:
    with Database(engine).session() as session:
        company = companies.create_company(session, "Api Cost GmbH")
        key = api_keys.create_api_key(session, company.id, name="bench")
        session.commit()
        return key.plaintext


def _post_all(port: int, key: str, payloads: list[bytes], statuses: list[int]) -> None:
    headers = {
        "Authorization": f"Bearer {key}",
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
    }
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        for payload in payloads:
            connection.request("POST", "/v1/uploads", body=payload, headers=headers)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
    finally:
        connection.close()


def send(port: int, key: str, payloads: list[bytes], connections: int) -> list[int]:
    """POST every payload; the answers' statuses."""
    statuses: list[int] = []
    shares = [payloads[i::connections] for i in range(connections)]
    threads = [
        threading.Thread(target=_post_all, args=(port, key, share, statuses)) for share in shares
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@contextlib.contextmanager
def api_process(
    work: Path, database_url: str, profile: Path | None, callgrind: Path | None
) -> Iterator[tuple[int, int]]:
    """The API (port, pid): `docintake serve`, one process."""
    port = free_port()
    env = {
        **os.environ,
        "DOCINTAKE_VAR_DIR": str(work / "var"),
        "DOCINTAKE_DATABASE_URL": database_url,
        "DOCINTAKE_RATE_LIMIT_PER_SECOND": "100000",
        "DOCINTAKE_RATE_LIMIT_BURST": "100000",
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "bench.api_cost_serve", "--port", str(port)]
    if profile is not None:
        command += ["--profile", str(profile)]
    if callgrind is not None:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={callgrind}",
            *command,
        ]
    with open(work / "api.log", "ab") as log:
        process = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        timeout = CALLGRIND_STARTUP_SECONDS if callgrind else STARTUP_SECONDS
        _wait_http(f"http://127.0.0.1:{port}/healthz", timeout, process)
        yield port, process.pid
    finally:
        _stop_group(process)


def user_and_system_seconds(pid: int) -> tuple[float, float]:
    """utime and stime of the API process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS_PER_SECOND, int(fields[12]) / TICKS_PER_SECOND


def _callgrind(pid: int, option: str) -> None:
    subprocess.run(["callgrind_control", option, str(pid)], check=True, capture_output=True)


def instructions(dump: Path) -> int:
    """Instructions (Ir) in a callgrind dump: its `summary:` or `totals:` line."""
    text = dump.read_text(errors="replace")
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no totals in {dump}")
    return int(found.group(1))


def _dumped(work: Path, pid: int, keep: Path | None) -> int:
    """Instructions since the last dump (callgrind starts counting again at each)."""
    _callgrind(pid, "--dump")
    dumps = sorted(work.glob("callgrind.out.*"), key=lambda path: int(path.suffix[1:]))
    if keep is not None:
        shutil.copy(dumps[-1], keep.parent / f"{keep.name}{dumps[-1].suffix}")
    return instructions(dumps[-1])


class _Counted:
    """The API's instructions: first while it idles for IDLE_SECONDS (its loop's own
    ticks, which depend on the wall clock, and under valgrind a request takes 20-50
    times as long), then for the measured requests, whose count is also given net of
    what idling as long would have cost."""

    def __init__(self, work: Path, pid: int, keep: Path | None) -> None:
        self.work, self.pid, self.keep = work, pid, keep
        _callgrind(pid, "--instr=on")
        time.sleep(IDLE_SECONDS)
        self.idle_per_second = _dumped(work, pid, keep) / IDLE_SECONDS

    def result(self, requests: int, seconds: float) -> dict[str, int]:
        counted = _dumped(self.work, self.pid, self.keep)
        _callgrind(self.pid, "--instr=off")
        return {
            "instructions_per_request": round(counted / requests),
            "instructions_per_request_net_of_idle": round(
                (counted - self.idle_per_second * seconds) / requests
            ),
            "idle_instructions_per_second": round(self.idle_per_second),
        }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="docintake-api-cost-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        engine = stack.enter_context(database(args.mode, work))
        key = seed(engine)
        url = engine.url.render_as_string(hide_password=False)
        callgrind = work / "callgrind.out" if args.callgrind else None
        port, pid = stack.enter_context(api_process(work, url, args.profile, callgrind))
        warm = send(port, key, bodies(0, WARM_UP), 1)
        measured = bodies(WARM_UP, args.requests)
        if args.profile:
            os.kill(pid, signal.SIGUSR1)
            time.sleep(1.0)
        counted = _Counted(work, pid, args.keep_callgrind) if callgrind else None
        load = os.getloadavg()[0]
        user_before, system_before = user_and_system_seconds(pid)
        started = time.monotonic()
        statuses = send(port, key, measured, args.connections)
        elapsed = time.monotonic() - started
        user_after, system_after = user_and_system_seconds(pid)
        user, system = user_after - user_before, system_after - system_before
        load_after = os.getloadavg()[0]
        counts = counted.result(args.requests, elapsed) if counted else {}
        if args.profile:
            os.kill(pid, signal.SIGUSR2)
            time.sleep(2.0)
    refused = [s for s in statuses + warm if s != 202]
    if refused:
        raise RuntimeError(f"{len(refused)} uploads not accepted: {sorted(set(refused))}")
    return {
        "mode": args.mode,
        "requests": args.requests,
        "connections": args.connections,
        "load_average_1m": [round(load, 2), round(load_after, 2)],
        "seconds": round(elapsed, 2),
        "api_cpu_ms_per_request": round(1000 * (user + system) / args.requests, 3),
        "of_it_in_the_kernel_ms": round(1000 * system / args.requests, 3),
        "under_callgrind": bool(args.callgrind),
        "under_cprofile": bool(args.profile),
        **counts,
    }


def run() -> dict[str, Any]:
    """`make bench`: both modes, CPU per request, and instructions per request where
    valgrind is installed."""
    results: dict[str, Any] = {"target_api_cpu_ms_per_upload": 3.0}
    for mode in ("embedded", "production"):
        results[mode] = {"cpu": measure(_namespace(mode, requests=300))}
        if shutil.which("valgrind"):
            counted = _namespace(mode, requests=100, callgrind=True)
            results[mode]["instructions"] = measure(counted)
    return results


def _namespace(mode: str, requests: int, callgrind: bool = False) -> argparse.Namespace:
    return argparse.Namespace(
        mode=mode,
        requests=requests,
        connections=1,
        profile=None,
        callgrind=callgrind,
        keep_callgrind=None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["embedded", "production"], default="embedded")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--connections", type=int, default=1)
    parser.add_argument("--profile", type=Path, help="cProfile of the API (pstats) to this file")
    parser.add_argument("--callgrind", action="store_true", help="count instructions")
    parser.add_argument("--keep-callgrind", type=Path, help="copy the callgrind dump here")
    args = parser.parse_args()
    if args.profile:
        args.profile = args.profile.resolve()
    print(json.dumps(measure(args), indent=2))


if __name__ == "__main__":
    main()

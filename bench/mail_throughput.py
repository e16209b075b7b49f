"""Issue 41: the SMTP intake's throughput, next to the same documents as ZIP batches.

On the real stack (bench/stack.py, `docintake mail` beside the API and the pipeline):

- **mail**: N messages, each with one attachment (every other one an XRechnung XML of
  the corpus, the others a PDF invoice of testkit's generator; every one with bytes of
  its own), sent with smtplib to `docintake mail` from CONCURRENCY senders at once, each
  sender one SMTP session delivering message after message (as a sending MTA does);
- **zip**: the same N documents as ZIP batches of at most 100 (the archive limit), all
  POSTed at once to `POST /v1/uploads/batches`.

Each phase is one company of its own, timed from the first send to the last upload's
terminal time in the status history (polled in the database until all N uploads are
terminal). Both report documents/s (a message carries one document, so messages/s is
the same number), the mail phase also when the last message was accepted (taking mail
in, before any reading), and the CPU of every process of the stack by role from /proc
(bench/stack_cpu.py), the mail server included.

    python -m bench.mail_throughput [--messages N] [--concurrency C] [--mode embedded|production]
"""

from __future__ import annotations

import argparse
import json
import smtplib
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import replace
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

from sqlalchemy import Uuid, bindparam, text

from bench.pipeline import _unix_time, zip_files
from bench.soak_backends import PostgresCluster
from bench.stack import Stack
from bench.stack_cpu import CpuMeter
from bench.throughput import MODES, _backends, _roots
from bench.throughput_docs import Document, variant
from bench.throughput_phases import load_average, post_batches
from storage.db import make_engine
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from testkit.samples import CORPUS

MESSAGES = 400
CONCURRENCY = 4
ZIP_BATCH_FILES = 100
WAIT_SECONDS = 900.0
SENDER = "rechnung@lieferant.example"


def xrechnung_files() -> list[Document]:
    """The corpus's XRechnung (CII) invoices that are read as accepted."""
    lines = (CORPUS / "manifest.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [
        (Path(row["file"]).name, (CORPUS / row["file"]).read_bytes())
        for row in rows
        if row["category"] == "xml:cii:xrechnung" and row["expected"] == "accept"
    ]


def documents(count: int) -> list[Document]:
    """`count` documents with bytes of their own: XRechnung XML and PDF invoices in turn."""
    xml = xrechnung_files()
    made: list[Document] = []
    for number in range(count):
        if number % 2 == 0:
            name, data = xml[(number // 2) % len(xml)]
            made.append((f"m{number:05d}-{name}", variant(data, number)))
        else:
            spec = replace(SAMPLE_INVOICE, number=f"RE-2026-{number:05d}")
            made.append((f"m{number:05d}-rechnung.pdf", german_invoice(spec)))
    return made


def message(to: str, document: Document) -> bytes:
    name, data = document
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = SENDER, to, f"Rechnung {name}"
    mail["Message-ID"] = f"<{uuid.uuid4().hex}@lieferant.example>"
    mail.set_content("Anbei unsere Rechnung.")
    subtype = "pdf" if name.endswith(".pdf") else "xml"
    mail.add_attachment(data, maintype="application", subtype=subtype, filename=name)
    return mail.as_bytes(policy=SMTP)


def send_all(port: int, to: str, raws: list[bytes], concurrency: int) -> list[float]:
    """Every message over `concurrency` SMTP sessions at once; when each was accepted."""
    queue = list(reversed(raws))
    lock = threading.Lock()
    accepted: list[float] = []

    def sender() -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=120) as client:
            while True:
                with lock:
                    if not queue:
                        return
                    raw = queue.pop()
                client.sendmail(SENDER, [to], raw)
                with lock:
                    accepted.append(time.time())

    with ThreadPoolExecutor(concurrency) as pool:
        for future in [pool.submit(sender) for _ in range(concurrency)]:
            future.result()
    return accepted


TERMINAL = text(
    "SELECT count(DISTINCT u.id), max(h.at) FROM uploads u "
    "JOIN status_history h ON h.upload_id = u.id "
    "WHERE u.company_id = :company AND u.status IN ('completed', 'failed') "
    "AND h.to_status IN ('completed', 'failed')"
).bindparams(bindparam("company", type_=Uuid()))
STATUSES = text(
    "SELECT status, count(*) FROM uploads WHERE company_id = :company GROUP BY status"
).bindparams(bindparam("company", type_=Uuid()))


def wait_terminal(url: str, company_id: str, count: int) -> tuple[float, dict[str, int]]:
    """Until `count` uploads of the company are terminal: the last one's terminal time
    (Unix) and the uploads by status."""
    engine = make_engine(url)
    company = uuid.UUID(company_id)
    deadline = time.monotonic() + WAIT_SECONDS
    try:
        while True:
            with engine.connect() as connection:
                done, last = connection.execute(TERMINAL, {"company": company}).one()
                if done >= count:
                    rows = connection.execute(STATUSES, {"company": company}).all()
                    return _unix_time(last), {str(s): int(n) for s, n in rows}
            if time.monotonic() > deadline:
                raise RuntimeError(f"{done} of {count} uploads terminal after {WAIT_SECONDS} s")
            time.sleep(0.25)
    finally:
        engine.dispose()


def _cpu(meter: CpuMeter, count: int) -> dict[str, Any]:
    spent = meter.spent
    # A flow run that ended during the phase is counted in the worker's children times.
    orchestration = sum(spent.get(role, 0.0) for role in ("prefect-worker", "flow-run"))
    return {
        "stack_cpu_s": round(meter.total, 2),
        "prefect_worker_and_flow_runs_s": round(orchestration, 2),
        "by_role_s": {role: round(value, 2) for role, value in sorted(spent.items())},
        "by_role_ms_per_document": {
            role: round(1000 * value / count, 2) for role, value in sorted(spent.items())
        },
    }


def mail_phase(
    stack: Stack, url: str, docs: list[Document], concurrency: int, meter: CpuMeter
) -> dict[str, Any]:
    company = stack.company_record("mail-throughput")
    raws = [message(company["intakeAddress"], document) for document in docs]
    load = load_average()
    meter.start()
    first_send = time.time()
    accepted = send_all(stack.mail_port, company["intakeAddress"], raws, concurrency)
    last_terminal, statuses = wait_terminal(url, company["companyId"], len(docs))
    meter.stop()
    elapsed = last_terminal - first_send
    taking_in = max(accepted) - first_send
    return {
        "load_average_1m_at_start": load,
        "load_average_1m_at_end": load_average(),
        "messages": len(raws),
        "concurrency": concurrency,
        "message_bytes_mean": round(sum(map(len, raws)) / len(raws)),
        "seconds_first_send_to_last_accepted": round(taking_in, 2),
        "messages_accepted_per_second": round(len(raws) / taking_in, 1),
        "seconds_first_send_to_last_terminal": round(elapsed, 2),
        "messages_per_second": round(len(raws) / elapsed, 2),
        "documents_per_second": round(len(docs) / elapsed, 2),
        "upload_statuses": statuses,
        "cpu": _cpu(meter, len(docs)),
    }


def zip_phase(stack: Stack, url: str, docs: list[Document], meter: CpuMeter) -> dict[str, Any]:
    company = stack.company_record("zip-throughput")
    groups = [docs[n : n + ZIP_BATCH_FILES] for n in range(0, len(docs), ZIP_BATCH_FILES)]
    archives = [zip_files(group) for group in groups]
    load = load_average()
    meter.start()
    first_post = time.time()
    post_batches(stack, [company["apiKey"]] * len(archives), archives)
    last_terminal, statuses = wait_terminal(url, company["companyId"], len(docs))
    meter.stop()
    elapsed = last_terminal - first_post
    return {
        "load_average_1m_at_start": load,
        "load_average_1m_at_end": load_average(),
        "batches": len(archives),
        "documents": len(docs),
        "seconds_first_post_to_last_terminal": round(elapsed, 2),
        "documents_per_second": round(len(docs) / elapsed, 2),
        "upload_statuses": statuses,
        "cpu": _cpu(meter, len(docs)),
    }


def warm(stack: Stack, url: str) -> None:
    """One message read end to end: the reading processes are warm before any clock."""
    company = stack.company_record("mail-warm-up")
    raw = message(company["intakeAddress"], documents(2)[1])
    send_all(stack.mail_port, company["intakeAddress"], [raw], 1)
    wait_terminal(url, company["companyId"], 1)


def run_mode(mode: str, count: int, concurrency: int) -> dict[str, Any]:
    docs = documents(count)
    with ExitStack() as exits:
        work = Path(exits.enter_context(tempfile.TemporaryDirectory(prefix="docintake-mail-")))
        url, prefect_url, postgres = _backends(mode, work, exits)
        stack = Stack(work, url, None, prefect_url)
        exits.callback(stack.stop)
        meter = CpuMeter(lambda: _mail_roots(stack, postgres))
        warm(stack, url)
        mail = mail_phase(stack, url, docs, concurrency, meter)
        archive = zip_phase(stack, url, docs, meter)
    return {
        "mode": mode,
        "mail": mail,
        "zip": archive,
        "mail_per_zip_documents_per_second": round(
            mail["documents_per_second"] / archive["documents_per_second"], 3
        ),
        "mail_per_zip_stack_cpu": round(
            mail["cpu"]["stack_cpu_s"] / archive["cpu"]["stack_cpu_s"], 3
        ),
    }


def _mail_roots(stack: Stack, postgres: PostgresCluster | None) -> dict[str, list[int]]:
    return {**_roots(stack, postgres), "mail": [stack.mail.pid]}


def run(
    messages: int = MESSAGES, concurrency: int = CONCURRENCY, modes: tuple[str, ...] = MODES
) -> dict[str, Any]:
    return {
        "documents": "XRechnung XML (corpus) and PDF invoices (testkit) in turn, one a message",
        **{mode: run_mode(mode, messages, concurrency) for mode in modes},
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mail_throughput")
    parser.add_argument("--messages", type=int, default=MESSAGES)
    parser.add_argument("--concurrency", type=int, default=CONCURRENCY)
    parser.add_argument("--mode", choices=MODES, action="append")
    args = parser.parse_args(argv)
    result = run(args.messages, args.concurrency, tuple(args.mode or MODES))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

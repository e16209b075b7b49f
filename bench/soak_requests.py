"""The soak's hostile requests (issue 37, findings 1, 3 and 4), sent at the running
stack's API: bodies of 256 MiB without a key (declared and chunked), a form of 200,000
parts of one name, 100,000 headers and one header of 70 KiB, a client that sends a
header line a second, and a body that stalls. Each must be answered as the request
path promises, quickly and without the API processes growing; anything else is a
violation of the soak. The slow two run side by side, so the phase takes about one
header timeout (`SETTINGS`, 10 s here, 30 s by default)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from testkit import hostile_http as hostile
from testkit.api_process import cpu_seconds, reset_peak, status_kib
from testkit.hostile_http import MIB, Answer

TIMEOUT_SECONDS = 10.0
SETTINGS = {
    "DOCINTAKE_HEADER_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
    "DOCINTAKE_BODY_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
}
# Before the fix one 256 MiB body grew the API by 455-515 MiB; the load's own requests
# move an API process by a few MiB.
MAX_GROWTH_MIB = 64.0
ALLOWED_CLOSE_SECONDS = TIMEOUT_SECONDS + 5


@dataclass(frozen=True)
class _Case:
    name: str
    status: int
    max_sent_mib: float
    send: Callable[[], Answer]


def _cases(api_url: str, api_key: str) -> list[_Case]:
    total = 256 * MIB
    parts = hostile.form_of_parts(200_000)

    def post(head: bytes, body: Iterator[bytes]) -> Callable[[], Answer]:
        return lambda: hostile.stream(api_url, head, body)

    declared = post(hostile.json_post_head(total), hostile.zeros(total))
    chunked = post(hostile.json_post_head(None), hostile.zeros(total, chunked=True))
    form = post(hostile.upload_head(api_key, len(parts)), hostile.in_chunks(parts))
    return [
        _Case("json_256_mib_declared", 413, 1, declared),
        _Case("json_256_mib_chunked", 413, 32, chunked),
        _Case("form_200000_parts_of_one_name", 422, len(parts) / 2 / MIB, form),
        # The header lines count as "sent": all 1.2 MB of them may be on the wire.
        _Case("headers_100000", 431, 8, lambda: hostile.many_headers(api_url, 100_000)),
        _Case("header_of_70_kib", 431, 8, lambda: hostile.many_headers(api_url, 1, 70_000)),
    ]


def _slow(api_url: str) -> dict[str, Callable[[], float]]:
    stall = hostile.json_post_head(1000) + b'{"url": '
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    return {
        "header_line_a_second": lambda: hostile.closed_after(
            api_url, head, hostile.slow_headers(40), 1.0
        ),
        "stalled_body": lambda: hostile.closed_after(api_url, stall, _nothing(40), 1.0),
    }


def _nothing(count: int) -> Iterator[bytes]:
    yield from [b""] * count


def send_hostile_requests(
    api_url: str, api_key: str, api_pids: Callable[[], list[int]]
) -> dict[str, Any]:
    pids = [pid for pid in api_pids() if _reset(pid)]
    baseline = {pid: status_kib(pid, "VmRSS") for pid in pids}
    cpu = sum(cpu_seconds(pid) for pid in pids)
    violations: list[str] = []
    with ThreadPoolExecutor(2) as pool:
        slow = {name: pool.submit(probe) for name, probe in _slow(api_url).items()}
        answered = {case.name: _judge(case, violations) for case in _cases(api_url, api_key)}
        closed = {name: round(_seconds(future), 1) for name, future in slow.items()}
    for name, seconds in closed.items():
        if not 0 < seconds <= ALLOWED_CLOSE_SECONDS:
            violations.append(
                f"hostile request {name}: not closed within {ALLOWED_CLOSE_SECONDS} s"
            )
    growth = max((status_kib(pid, "VmHWM") - baseline[pid]) / 1024 for pid in pids)
    if growth > MAX_GROWTH_MIB:
        violations.append(f"hostile requests grew an API process by {growth:.0f} MiB")
    return {
        "answered": answered,
        "closed_after_s": closed,
        "api_peak_growth_mib": round(growth, 1),
        "api_cpu_s": round(sum(cpu_seconds(pid) for pid in pids) - cpu, 2),
        "violations": violations,
    }


def _seconds(probe: Future[float]) -> float:
    try:
        return probe.result()
    except OSError:
        return -1.0  # no connection: a violation as well


def _reset(pid: int) -> bool:
    """Start the process's peak over; False when it is gone."""
    try:
        reset_peak(pid)
    except OSError:
        return False
    return True


def _judge(case: _Case, violations: list[str]) -> dict[str, Any]:
    try:
        answer = case.send()
    except OSError as exc:  # refused, reset before any answer: wrong as well
        answer = Answer(str(exc).encode(), b"", 0, 0.0)
    sent_mib = answer.sent / MIB
    if answer.status != case.status or sent_mib > case.max_sent_mib:
        violations.append(
            f"hostile request {case.name}: {answer.status} after {sent_mib:.1f} MiB sent,"
            f" expected {case.status} within {case.max_sent_mib:.1f} MiB"
        )
    return {"status": answer.status, "sent_mib": round(sent_mib, 2), "s": round(answer.seconds, 2)}

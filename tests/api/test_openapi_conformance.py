"""The OpenAPI document states what the API enforces.

Schemathesis runs as its command line does (`st run --checks all`): every check, in every
phase (examples, coverage, fuzzing, and the stateful phase that follows the document's
links from a created upload or batch to reading it), against the real app with a real API
key on both backends, and must find nothing.
"""

from __future__ import annotations

import io
import zipfile

import pytest
import schemathesis
from schemathesis import BaseSchema, Case, HookContext
from schemathesis.engine import Status, events
from schemathesis.engine import from_schema as engine_for
from schemathesis.transport.serialization import Binary

from api.app import create_app
from api.deps import Services
from tests.conftest import IN_CI, Tenant

# Bounds: about 450 requests per backend, as many as an outside `st run` made.
FUZZ_EXAMPLES = 25  # per operation and generation mode
STATEFUL_SCENARIOS = 15
STATEFUL_STEPS = 8


@pytest.fixture
def api_schema(services: Services, tenant: Tenant) -> BaseSchema:
    config = schemathesis.Config.from_dict(
        {
            "headers": tenant.headers,
            "checks": {"enabled": True},
            # Hypothesis's own rule: random locally, the same cases every time in CI.
            "generation": {
                "max-examples": FUZZ_EXAMPLES,
                "database": "none",
                "deterministic": IN_CI,
            },
            "phases": {
                "stateful": {
                    "max-steps": STATEFUL_STEPS,
                    "generation": {"max-examples": STATEFUL_SCENARIOS},
                }
            },
        }
    )
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(services), config=config)
    schema.hook("map_case")(_files_as_text)
    return schema


def _text_zip(drawn: bytes) -> str:
    """A ZIP archive holding `drawn` (hex-encoded) as its one document, every byte of it
    ASCII, so that it can stand as text (below)."""
    document = drawn.hex()[:60]  # short: sizes and offsets stay single bytes
    for attempt in range(10_000):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            info = zipfile.ZipInfo("document.pdf", date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 0  # MS-DOS, and its "archive" attribute: the default
            info.external_attr = 0x20  # (Unix 0o600) has a byte 0x80
            archive.writestr(info, f"{document}.{attempt}")
        data = buffer.getvalue()
        if data.isascii():  # a CRC-32 of bytes under 0x80: about one try in 16
            return data.decode("ascii")
    raise AssertionError("no ASCII CRC-32 in 10,000 tries")


def _files_as_text(_: HookContext, case: Case) -> Case:
    """Two gaps in schemathesis, bridged without touching what is checked:

    - It draws a `format: binary` part as bytes but validates it as an empty string, so
      with our `minLength: 1` a request it sent as valid reads as invalid, and the
      negative-data check then misses that a value mutated into a string on the wire
      (`null` -> "null") is valid. The drawn bytes are handed to it as text instead.
    - It has no generator for `contentMediaType: application/zip`: in a valid batch the
      drawn bytes become the one document of a ZIP archive.
    """
    body = case.body
    if not isinstance(body, dict) or not isinstance(body.get("file"), Binary):
        return case
    drawn = body["file"].data
    valid = case.meta is not None and case.meta.generation.mode.is_positive
    if case.operation.path == "/v1/uploads/batches" and valid:
        body["file"] = _text_zip(drawn)
    else:
        body["file"] = drawn.decode("latin-1")
    return case


def _describe_failures(event: events.ScenarioFinished) -> list[str]:
    found = []
    for case_id, checks in event.recorder.checks.items():
        for check in checks:
            if check.status is Status.FAILURE and check.failure_info is not None:
                failure = check.failure_info.failure
                found.append(
                    f"{event.phase.value} {event.recorder.label} [{case_id}] {failure.code}"
                    f" {failure.title}: {failure.message}\n{check.failure_info.code_sample}"
                )
    return found


# Hypothesis warns when the global `random` state changed while a strategy drew, which
# another thread of this process (a library's, not ours) may do at any moment: a race in the
# harness, not a finding about the API (seen once in CI, on POST /v1/webhook-endpoints).
@pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module inside strategies"
    ":hypothesis.errors.HypothesisDeprecationWarning"
)
def test_the_api_conforms_to_its_openapi_document(api_schema: BaseSchema) -> None:
    problems: list[str] = []
    phases: dict[str, Status] = {}
    requests: dict[str, int] = {}
    for event in engine_for(api_schema).execute():
        if isinstance(event, events.ScenarioFinished):
            problems += _describe_failures(event)
            requests[event.phase.value] = requests.get(event.phase.value, 0) + len(
                event.recorder.interactions
            )
        elif isinstance(event, events.PhaseFinished):
            phases[event.phase.name.value] = event.status
        elif isinstance(event, events.NonFatalError | events.FatalError):
            problems.append(f"error: {event}")
        elif isinstance(event, events.EngineFinished):
            problems += [f"after the run: {failure.title}" for failure in event.failures]

    assert problems == [], "\n\n".join(problems)
    for phase in ("coverage", "fuzzing", "stateful"):
        assert phases[phase] is Status.SUCCESS, phases
        assert requests[phase] > 50, requests

"""What a reading process sends back (`Reading`: an Outcome or a Failure) crosses its pipe
pickled as it is: typed results stay typed, enums stay enums, and a result made by other
code than the receiver's shows in its version."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from processors.base import (
    CompanyProfile,
    DocumentType,
    Failure,
    FailureCode,
    Outcome,
    ProcessingContext,
    ResultType,
)
from processors.pipeline import read_document
from testkit.samples import blank_pdf

CONTEXT = ProcessingContext(DocumentType.AUTO, "a.pdf", CompanyProfile("Acme GmbH"))


def test_an_outcome_crosses_the_pipe_typed_with_its_json_form() -> None:
    outcome = read_document(blank_pdf("pickled"), CONTEXT)

    received = pickle.loads(pickle.dumps(outcome))

    assert received == outcome and received.current
    assert type(received.result) is type(outcome.result)
    assert received.result_type is ResultType.OTHER_DOCUMENT
    assert received.data == outcome.data == outcome.result.to_dict()


def test_a_failure_crosses_the_pipe_with_its_code_as_an_enum() -> None:
    failure = Failure(FailureCode.INVALID_E_INVOICE, "BR-01", {"findings": [{"rule": "BR-01"}]})

    received = pickle.loads(pickle.dumps(failure))

    assert received == failure
    assert received.code is FailureCode.INVALID_E_INVOICE


@dataclass(frozen=True, slots=True)
class Shape:
    RESULT_TYPE: ClassVar[ResultType] = ResultType.OTHER_DOCUMENT
    VERSION: ClassVar[int] = 1

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "shape"}


def test_a_result_of_another_version_is_seen_by_the_receiver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent = pickle.dumps(Outcome(Shape()))
    monkeypatch.setattr(Shape, "VERSION", 2)  # the receiver runs newer code

    received = pickle.loads(sent)

    assert received.version == 1 and not received.current

"""A pipeline process yields the CPU to the API: its niceness, and where sessions are
autogroups, its session's (in a process of its own session, as a flow run has)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.worker import PIPELINE_NICENESS
from tests.flows.processes import python_output

YIELD_AND_TELL = """
import os
from flows.worker import yield_to_the_api
yield_to_the_api()
print(os.nice(0))
print(open("/proc/self/autogroup").read() if os.path.exists("/proc/self/autogroup") else "")
"""


def test_a_pipeline_process_lowers_its_niceness_and_its_sessions() -> None:
    answer = python_output(YIELD_AND_TELL, own_session=True)
    niceness, autogroup = [*answer.splitlines(), ""][:2]
    assert int(niceness) >= PIPELINE_NICENESS
    if not Path("/proc/self/autogroup").exists():
        pytest.skip("this kernel has no autogroups")
    assert autogroup.endswith(f"nice {PIPELINE_NICENESS}")

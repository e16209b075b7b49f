"""The throughput benchmark's own parts (bench/throughput*.py, bench/stack_cpu.py): its
document variants and its CPU accounting; and the parts of what the design binds
(bench/prefect_bound.py, bench/reading_bound.py). The whole benchmark on a real stack, with
small numbers: `python -m bench.throughput --fast`."""

from __future__ import annotations

import subprocess
import sys

from bench.stack_cpu import CpuMeter
from bench.throughput_docs import CONTEXT, Floor, originals, variants
from processors.base import ProcessingError
from processors.pipeline import read_document


def _outcome(data: bytes) -> str:
    try:
        return read_document(data, CONTEXT).result_type.value
    except ProcessingError as error:
        return error.code.value


def test_variants_differ_in_bytes_and_read_as_their_originals() -> None:
    files = originals(12)
    assert len({data for _, data in files}) == 12
    for number in (1, 7):
        for (name, data), (variant_name, variant) in zip(
            files, variants(files, number), strict=True
        ):
            assert variant != data and variant_name != name
            assert _outcome(variant) == _outcome(data), name


def test_the_floor_is_per_document_and_over_the_cores() -> None:
    files = originals(3)
    floor = Floor.measure(files, files)
    assert set(floor.cpu_seconds) == {name for name, _ in files}
    assert floor.seconds(files) > 0 and floor.per_second(files) > 0


def test_the_floor_of_several_passes_is_each_documents_median() -> None:
    files = originals(2)
    floor = Floor.measure(files, files, passes=3)
    assert set(floor.cpu_seconds) == {name for name, _ in files}
    assert all(seconds > 0 for seconds in floor.cpu_seconds.values())


BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
# Waits for a line, runs a child that burns 0.3 s of CPU and ends (reaped), waits again.
PARENT = (
    "import subprocess, sys\ninput()\n"
    f"subprocess.run([sys.executable, '-c', {BURN!r}])\n"
    "print('done', flush=True)\ninput()\n"
)


def test_the_meter_counts_processes_that_ended_during_the_measurement() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as parent:
        assert parent.stdin is not None and parent.stdout is not None
        meter = CpuMeter(lambda: {"parent": [parent.pid]})
        meter.start()
        parent.stdin.write("go\n")
        parent.stdin.flush()
        assert parent.stdout.readline().strip() == "done"
        spent = meter.stop()
        parent.stdin.write("end\n")
        parent.stdin.flush()
    assert spent["parent"] >= 0.29


def test_the_bound_flow_runs_are_named_batches_with_their_table(prefect_server: str) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterKey,
        FlowRunFilter,
        FlowRunFilterName,
    )

    from bench.prefect_bound import drive

    assert drive("process-batch", 2) > 0
    batches = ["batch-0", "batch-1", "batch-2"]
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=batches))
        )
        tables = client.read_artifacts(
            artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=["batch-1", "batch-2"]))
        )
    assert set(batches) <= {run.name for run in runs}
    assert {artifact.key for artifact in tables} == {"batch-1", "batch-2"}


def test_the_reading_bound_counts_the_readers_and_the_asking_process() -> None:
    from bench.reading_bound import measure

    result = measure(originals(2), rounds=1, compile_rules=False)
    assert (result["documents"], result["rounds"]) == (2, 1)
    assert result["floor_ms_per_document"] > 0 and result["readers_ms_per_document"] > 0
    assert result["asking_process_ms_per_document"] > 0


def test_the_design_bound_adds_prefect_and_the_reading_processes() -> None:
    from bench.prefect_bound import design_bound

    measured = [{"backend": "sqlite", "shapes": {"named-run": {"ms_per_document": 2.0}}}]
    bound = design_bound(measured, reading_excess=0.1, floor_ms=20.0)
    assert bound == {
        "sqlite/named-run": {
            "fraction_of_floor": 0.2,
            "fraction_of_target_2_budget": 1.0,
            "target_1_ceiling": 0.833,
        }
    }

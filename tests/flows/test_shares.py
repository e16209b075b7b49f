from __future__ import annotations

import uuid

from flows.jobs import Job
from flows.pipeline import shares


def _jobs(count: int) -> list[Job]:
    return [
        Job(uuid.uuid4(), uuid.uuid4(), None, f"{i}.pdf", "auto", f"{i:064d}", f"k/{i}")
        for i in range(count)
    ]


def test_every_job_lands_in_exactly_one_share() -> None:
    jobs = _jobs(100)
    parts = shares(jobs, processes=2)
    assert len(parts) == 2
    assert sorted(j.file_name for part in parts for j in part) == sorted(j.file_name for j in jobs)
    assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_never_more_tasks_than_files_or_processes() -> None:
    assert [len(part) for part in shares(_jobs(3), processes=2)] == [2, 1]
    assert [len(part) for part in shares(_jobs(3), processes=8)] == [1, 1, 1]
    (only,) = _jobs(1)
    assert shares([only], processes=8) == [[only]]

"""How a pipeline process sets itself up before its reading processes start: below the
API in priority, and a warning when scanned PDFs cannot be read."""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from processors.ocr import ocr_available

log = logging.getLogger(__name__)


# A pipeline process is throughput work; the API on the same machine is latency work.
# Its reading processes add executor.READER_NICENESS on top of this.
PIPELINE_NICENESS = 5


def yield_to_the_api() -> None:
    """Lower this process's priority (before the reading processes start: they inherit
    it), so requests to the API get a busy machine's CPU first. Where sessions are
    autogroups (Linux's default on many machines), a process's niceness weighs only
    against its own session, and sessions share the CPU by their autogroup's niceness:
    that is lowered too when the session is this process's own (a flow run's is; a
    terminal's is left alone)."""
    os.nice(PIPELINE_NICENESS)
    if os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError):
            Path("/proc/self/autogroup").write_text(str(PIPELINE_NICENESS))


def warn_without_ocr(command: str) -> str | None:
    """One warning at start-up when scanned PDFs cannot be read (docs/ocr.md)."""
    problem = ocr_available(command)
    if problem is not None:
        log.warning("%s Scanned PDFs fail with processing_failed until it is installed.", problem)
    return problem

"""Page images for the web application's evidence view (the page a field was read
from), rendered in a reading process (flows/reader_process.py: kernel limits on memory
and CPU, a wall-clock limit): the page's bytes are untrusted like any upload's.

Rendered on demand, when an accountant opens an invoice's page, not when the invoice
is read: a page takes about 150 ms to open and render (median over the corpus's PDFs),
ten times the whole read of a text PDF (docs/throughput.md), and most invoices are
never looked at. The API process owns one reading process (`PageRenderer`, with the
worker's `DocumentExecutor`), started on the first image and kept."""

from __future__ import annotations

import logging
import signal
import threading

from flows.executor import DocumentExecutor, ReaderStopped, ReaderUnavailable
from flows.reader_process import DocumentTimeLimit, ReaderLimits
from processors.base import ProcessingError
from processors.pdf_layout.page_image import render_page

log = logging.getLogger(__name__)

RENDER_SECONDS = 10.0
RENDER_MEMORY_BYTES = 768 * 1024 * 1024
LANE = "page-images"


def render_in_child(data: bytes, number: int, limits: ReaderLimits) -> bytes | None:
    """The PNG of page `number`, or None for any failure (no such page, a PDF that
    cannot be opened, past a limit): the page then shows without its image."""
    try:
        signal.setitimer(signal.ITIMER_REAL, limits.time_limit)
        return render_page(data, number)
    except (ProcessingError, DocumentTimeLimit, MemoryError) as exc:
        log.info("page %d not rendered: %s", number, type(exc).__name__)
        return None
    except Exception:
        log.exception("page %d not rendered", number)
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class PageRenderer:
    def __init__(self) -> None:
        self._executor: DocumentExecutor | None = None
        self._lock = threading.Lock()

    def render(self, data: bytes, number: int) -> bytes | None:
        """Page `number` (1 for the first) as PNG; None when it cannot be rendered."""
        future = self._started().submit(LANE, render_in_child, data, number, self._limits())
        try:
            answer: bytes | None = future.result()
        except (ReaderStopped, ReaderUnavailable) as trouble:  # killed past a limit, or no process
            log.warning("page %d not rendered: %s", number, trouble)
            return None
        return answer

    def warm_up_soon(self) -> None:
        """Start the reading process in the background (an invoice page with evidence is
        being shown, its images are asked for next): its start takes seconds."""
        threading.Thread(target=self._started().warm_up, name="page-images", daemon=True).start()

    def _started(self) -> DocumentExecutor:
        with self._lock:
            if self._executor is None:
                # Latency work, like the API itself: not niced like the worker's readers.
                self._executor = DocumentExecutor(
                    processes=1, limits=self._limits(), niceness=0, compile_rules=False
                )
            return self._executor

    @staticmethod
    def _limits() -> ReaderLimits:
        return ReaderLimits(
            time_limit=RENDER_SECONDS,
            cpu_seconds=RENDER_SECONDS + 5,
            memory_bytes=RENDER_MEMORY_BYTES,
        )

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown()
                self._executor = None

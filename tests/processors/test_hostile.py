"""The hostile corpus (testkit/hostile.py, tests/processors/hostile_*.py) through `read_document`.

Every case runs in one reader child process (forkserver, as the pipeline's readers
run), which generates the file, resets its peak memory (VmHWM, via /proc/self/clear_refs)
and reads it. Each case must end in an `Outcome` or a `ProcessingError` with one of the
spec's codes, within `CASE_SECONDS` (a guard against hangs, not a speed test), with the
child's peak memory at most `MAX_PEAK_MIB` above what it held before reading. A loopback
HTTP server counts requests: no XML case may fetch anything.
"""

from __future__ import annotations

import http.server
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from processors.base import CompanyProfile, DocumentType, FailureCode, ProcessingContext
from testkit import hostile
from tests.processors import hostile_xml, hostile_zip

CASE_SECONDS = 30.0
MAX_PEAK_MIB = 400
"""Above the reader's memory before reading: the limits allow 384 MiB for one page."""
LIMITS = "cannot be read within the service's limits"
REFUSED_XML = "invalid_e_invoice"  # hostile XML in an invoice namespace is no e-invoice


@dataclass(frozen=True)
class Case:
    name: str
    make: str
    document_type: DocumentType = DocumentType.AUTO
    code: str | None = None
    """The expected failure code; None when any outcome or spec code will do."""
    message: str = ""
    network: bool = False
    max_peak_mib: float = MAX_PEAK_MIB


OVER_LIMIT = {"code": FailureCode.UNREADABLE_DOCUMENT.value, "message": LIMITS}
ZIP_DOCUMENT_BOMB: dict[str, Any] = {"code": "unsupported_file_type", "max_peak_mib": 16}
CASES = [
    Case("flate bomb", "flate_bomb", **OVER_LIMIT),
    Case("flate bomb as bank statement", "flate_bomb", DocumentType.BANK_STATEMENT, **OVER_LIMIT),
    Case("flate bomb as other document", "flate_bomb", DocumentType.OTHER_DOCUMENT, **OVER_LIMIT),
    Case("flate of flate", "flate_flate_bomb", **OVER_LIMIT),
    Case("lzw bomb", "lzw_bomb", **OVER_LIMIT),
    Case("flate then run length", "run_length_bomb", **OVER_LIMIT),
    Case("ascii hex then flate", "ascii_hex_bomb", **OVER_LIMIT),
    Case("forty 64 MiB streams on a page", "many_streams_bomb", **OVER_LIMIT),
    Case("24 embedded files of 49 MiB", "embedded_files_bomb", **OVER_LIMIT),
    Case("a 49 MiB factur-x.xml", "embedded_known_name_bomb", **OVER_LIMIT),
    Case("cyclic embedded-files name tree", "cyclic_name_tree"),
    Case("gigapixel image", "image_bomb", DocumentType.BANK_STATEMENT, **OVER_LIMIT),
    Case("terapixel image header", "image_header_bomb", **OVER_LIMIT),
    Case("giant MediaBox", "giant_page", DocumentType.SUPPLIER_INVOICE, **OVER_LIMIT),
    Case("empty MediaBox", "empty_box", DocumentType.SUPPLIER_INVOICE),
    Case("negative MediaBox", "negative_box", DocumentType.SUPPLIER_INVOICE, **OVER_LIMIT),
    Case("a 1 x 10^8 strip", "strip_box", DocumentType.SUPPLIER_INVOICE, **OVER_LIMIT),
    Case("cyclic page tree", "cyclic_page_tree", code=FailureCode.UNREADABLE_DOCUMENT.value),
    Case("self-referencing pages", "self_kid_page_tree", code="unreadable_document"),
    Case("xref /Prev loop", "xref_loop"),
    Case("cross-reference stream bomb", "xref_stream_bomb", **OVER_LIMIT),
    Case("25,000 pages", "many_pages", **OVER_LIMIT),
    Case("5,000 deep page tree", "deep_page_tree", **OVER_LIMIT),
    Case("ZIP with 250,000 entries", "zip_many_entries", code="unsupported_file_type"),
    Case("ZIP of 400,001 records claiming 1", "zip_lying_count", code="unsupported_file_type"),
    # Their telling member is never inflated: zipfile gave it 64 MiB on read(200).
    Case("ODF, 64 MiB LZMA mimetype", "odf_lzma_member", **ZIP_DOCUMENT_BOMB),
    Case("ODF, 64 MiB BZIP2 mimetype", "odf_bzip2_member", **ZIP_DOCUMENT_BOMB),
    Case("DATEV, 64 MiB LZMA index", "datev_lzma_index", **ZIP_DOCUMENT_BOMB),
    Case("external entity: file", "xxe_file", code=REFUSED_XML),
    Case("external DTD over http", "xxe_network", code=REFUSED_XML, network=True),
    Case("parameter entity over http", "xxe_parameter_entity", code=REFUSED_XML, network=True),
    Case("XInclude over http", "xinclude", network=True),
    Case("xml-stylesheet over http", "xslt_document_call", network=True),
    Case("billion laughs", "billion_laughs", code=REFUSED_XML),
    Case("billion laughs in UTF-16", "utf16_billion_laughs", code=REFUSED_XML),
    Case("quadratic blowup", "quadratic_blowup", code=REFUSED_XML),
    Case("10,000 deep nesting", "deep_nesting", code=REFUSED_XML),
    Case("10 MB attribute", "huge_attribute", code=REFUSED_XML),
    Case("200,000 attributes", "many_attributes"),
    Case("45 MB text node", "huge_text"),
    Case("UTF-16 LE with BOM", "utf16_le_bom"),
    Case("UTF-16 BE with BOM", "utf16_be_bom"),
    Case("UTF-16 LE without BOM", "utf16_le"),
    Case("UTF-32 LE", "utf32_le"),
    Case("UTF-32 BE", "utf32_be"),
    Case("declared UTF-16, written UTF-8", "declared_utf16_but_utf8"),
    Case("unknown encoding", "unknown_encoding", code=REFUSED_XML),
    Case("EBCDIC declared", "ebcdic_declared"),
    Case("invalid UTF-8", "invalid_utf8", code=REFUSED_XML),
    Case("NUL byte", "nul_bytes", code=REFUSED_XML),
]


def _generators(port: int) -> dict[str, Callable[[], bytes]]:
    return {
        "xxe_network": lambda: hostile_xml.xxe_network(port),
        "xxe_parameter_entity": lambda: hostile_xml.xxe_parameter_entity(port),
        "xinclude": lambda: hostile_xml.xinclude(port),
        "xslt_document_call": lambda: hostile_xml.xslt_document_call(port),
        "empty_box": lambda: hostile.boxed_page(b"[0 0 0 0]"),
        "negative_box": lambda: hostile.boxed_page(b"[0 0 -1000000 1000000]"),
        "strip_box": lambda: hostile.boxed_page(b"[0 0 1 100000000]"),
        "utf16_le_bom": lambda: hostile_xml.utf16(bom=True, big_endian=False),
        "utf16_be_bom": lambda: hostile_xml.utf16(bom=True, big_endian=True),
        "utf16_le": lambda: hostile_xml.utf16(bom=False, big_endian=False),
        "utf32_le": lambda: hostile_xml.utf32(big_endian=False),
        "utf32_be": lambda: hostile_xml.utf32(big_endian=True),
    }


# --- the reader child -------------------------------------------------------------------


def _memory_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise LookupError(field)


def _read_case(make: str, document_type: str, port: int) -> dict[str, Any]:
    from processors.base import ProcessingError
    from processors.pipeline import read_document

    generate = _generators(port).get(make)
    if generate is None:
        module = next(m for m in (hostile, hostile_xml, hostile_zip) if hasattr(m, make))
        generate = getattr(module, make)
    data = generate()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS
    before = _memory_kib("VmRSS")
    context = ProcessingContext(DocumentType(document_type), "hostile", CompanyProfile("Test"))
    started = time.perf_counter()
    try:
        outcome = read_document(data, context)
        result: dict[str, Any] = {"outcome": outcome.result_type.value}
    except ProcessingError as error:
        result = {"code": error.code.value, "message": error.message}
    result["seconds"] = time.perf_counter() - started
    result["peak_mib"] = (_memory_kib("VmHWM") - before) / 1024
    return result


def _serve(connection: Connection) -> None:
    from processors.registry import default_registry

    default_registry()
    while True:
        job = connection.recv()
        if job is None:
            return
        try:
            connection.send(_read_case(*job))
        except BaseException as error:  # a bug: reported to the test, not a dead child
            connection.send({"bug": f"{type(error).__name__}: {error}"})


class Reader:
    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("forkserver")
        self._connection, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child,), daemon=True)
        self._process.start()

    def read(self, make: str, document_type: DocumentType, port: int) -> dict[str, Any]:
        self._connection.send((make, document_type.value, port))
        if self._connection.poll(CASE_SECONDS):
            answer: dict[str, Any] = self._connection.recv()
            return answer
        self._process.kill()
        self._process.join()
        self._start()
        return {"timeout": CASE_SECONDS}

    def stop(self) -> None:
        self._connection.send(None)
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()


@pytest.fixture(scope="module")
def reader() -> Iterator[Reader]:
    started = Reader()
    yield started
    started.stop()


# --- a loopback server that must never be asked -------------------------------------------


class _Counting(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []  # noqa: RUF012 - shared by the handler instances on purpose

    def do_GET(self) -> None:
        self.requests.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'<!ENTITY x "fetched">')

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture(scope="module")
def bait() -> Iterator[tuple[int, list[str]]]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], _Counting.requests
    server.shutdown()
    server.server_close()


# --- the cases ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_file_ends_bounded(case: Case, reader: Reader, bait: tuple[int, list[str]]) -> None:
    port, requests = bait
    result = reader.read(case.make, case.document_type, port)
    assert "timeout" not in result, f"no answer within {CASE_SECONDS} s"
    assert "bug" not in result, result["bug"]
    if "code" in result:
        assert result["code"] in {code.value for code in FailureCode}
    if case.code is not None:
        assert result.get("code") == case.code, result
        assert case.message in result["message"]
    assert result["peak_mib"] < case.max_peak_mib, result
    if case.network:
        assert requests == [], f"the reader fetched {requests}"

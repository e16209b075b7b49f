"""Saxon, which runs the schematron stylesheets, fetches nothing from the network.

The bait is an HTTP server in a child process (Saxon holds the interpreter while it
transforms, so a server thread in this process could not answer), counting requests.
"""

from __future__ import annotations

import http.server
import multiprocessing
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from processors.einvoice import rules


class _Counting(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.server.hits += 1  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"<fetched/>")

    def log_message(self, format: str, *args: object) -> None:
        return


def _serve(connection: Connection) -> None:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Counting)
    server.hits = 0  # type: ignore[attr-defined]
    server.timeout = 0.1
    connection.send(server.server_address[1])
    while not connection.poll():
        server.handle_request()
    connection.recv()
    connection.send(server.hits)  # type: ignore[attr-defined]


@pytest.fixture
def bait() -> Iterator[tuple[int, Connection]]:
    context = multiprocessing.get_context("forkserver")
    ours, theirs = context.Pipe()
    process = context.Process(target=_serve, args=(theirs,), daemon=True)
    process.start()
    yield ours.recv(), ours
    process.kill()
    process.join()


def test_stylesheets_cannot_fetch_over_http(bait: tuple[int, Connection], tmp_path: Path) -> None:
    port, server = bait
    url = f"http://127.0.0.1:{port}/x"
    stylesheet = tmp_path / "fetch.xsl"
    stylesheet.write_text(
        '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
        f'<xsl:template match="/"><r><xsl:value-of select="doc-available(\'{url}\')"/>'
        "</r></xsl:template></xsl:stylesheet>",
        encoding="utf-8",
    )
    document = (
        f'<?xml-stylesheet href="{url}"?>'
        '<a xmlns:xi="http://www.w3.org/2001/XInclude">'
        f'<xi:include href="{url}"/></a>'
    )
    [report] = rules.run_stylesheets([stylesheet], document)
    server.send("done")
    assert "<r>false</r>" in report
    assert server.recv() == 0

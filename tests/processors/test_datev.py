from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from processors.base import DocumentType, FailureCode, FileKind, ProcessingError
from processors.datev import DatevProcessor
from tests.processors.conftest import context, manifest_rows, row_id

ROWS = manifest_rows("refuse_datev")


def _datev_xml_members(data: bytes) -> list[bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = [archive.read(n) for n in archive.namelist() if n.endswith(".xml")]
    return [m for m in members if b"http://xml.datev.de/" in m[:2048]]


@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_datev_corpus_is_refused_naming_datev(row: dict[str, Any], corpus: Path) -> None:
    data = (corpus / row["file"]).read_bytes()
    documents = _datev_xml_members(data) if row["file"].endswith(".zip") else [data]
    assert documents
    processor = DatevProcessor()
    for document in documents:
        for document_type in DocumentType:
            assert processor.score(FileKind.XML, document[:4096], context(document_type)) == 100
        with pytest.raises(ProcessingError) as caught:
            processor.process(document, context())
        assert caught.value.code is FailureCode.UNSUPPORTED_FILE_TYPE
        assert "DATEV" in caught.value.message


def test_other_xml_is_not_taken() -> None:
    head = b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'
    assert DatevProcessor().score(FileKind.XML, head, context()) == 0
    assert DatevProcessor().score(FileKind.PDF, b"%PDF-1.7", context()) == 0

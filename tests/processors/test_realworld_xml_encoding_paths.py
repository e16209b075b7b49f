"""Issue 40, class 7: the check of XML encoding declarations (issue 15, class 5) holds on
every path XML comes in by: a file, the e-invoice embedded in a hybrid PDF, a ZIP entry.
A Factur-X PDF whose factur-x.xml declared `UTF-8-W/O-BOM` was read as a plain PDF
invoice: libxml2 refused the declaration while the root was peeked, so the attachment
was not taken for an e-invoice and never reached the parser that refuses it."""

from __future__ import annotations

import io
import zipfile

import pytest

from processors.archive import ArchiveLimits, Budget, document_entries, open_archive, read_member
from processors.base import DocumentType, FailureCode, ProcessingError
from processors.pipeline import read_document
from processors.sniff import xml_root
from processors.xmlsafe import peek_root
from tests.processors.conftest import context
from tests.processors.hybrid_layouts import german_letter
from tests.processors.hybrids import Printed, cii_xml, hybrid_pdf, random_values

DECLARED = {
    "UTF-8-W/O-BOM": "names the encoding 'UTF-8-W/O-BOM', which is not a valid name",
    "x-klingon-8": "names the encoding 'x-klingon-8', which is unknown",
    "UTF-16": "declares 'UTF-16' but is written in 8-bit units",
}
INVOICE_TYPES = (DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE)


def factur_x(declared: str | None) -> tuple[bytes, bytes]:
    """A generated hybrid invoice and its CII XML, the XML declaring `declared`."""
    values = random_values(4)
    shown = Printed.of(values)
    xml = cii_xml(values, shown)
    if declared is not None:
        xml = xml.replace(b"encoding='UTF-8'", f'encoding="{declared}"'.encode(), 1)
    return hybrid_pdf(german_letter, values, shown, xml), xml


def refused(data: bytes, document_type: DocumentType, problem: str) -> None:
    with pytest.raises(ProcessingError) as raised:
        read_document(data, context(document_type))
    assert raised.value.code is FailureCode.INVALID_E_INVOICE
    assert raised.value.details["findings"][0]["id"] == "XML-ENCODING"
    assert problem in raised.value.message


def zip_members(files: dict[str, bytes]) -> dict[str, bytes]:
    """The members as the batch unpacker reads them (`processors.archive`)."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    limits = ArchiveLimits(max_files=10, max_file_bytes=1 << 24, max_total_bytes=1 << 26)
    members = {}
    with open_archive(packed, limits) as archive:
        budget = Budget(limits.max_total_bytes)
        for position, info in enumerate(document_entries(archive, limits)):
            out = io.BytesIO()
            read_member(archive, info, position, limits, budget, out.write)
            members[info.filename] = out.getvalue()
    return members


@pytest.mark.parametrize("document_type", INVOICE_TYPES)
@pytest.mark.parametrize("declared", DECLARED)
def test_hybrid_pdf_with_a_bad_declaration_fails(
    declared: str, document_type: DocumentType
) -> None:
    pdf, _ = factur_x(declared)
    refused(pdf, document_type, DECLARED[declared])


@pytest.mark.parametrize("declared", DECLARED)
def test_xml_file_with_a_bad_declaration_fails(declared: str) -> None:
    _, xml = factur_x(declared)
    refused(xml, DocumentType.AUTO, DECLARED[declared])


def test_zip_entries_with_a_bad_declaration_fail() -> None:
    pdf, xml = factur_x("UTF-8-W/O-BOM")
    members = zip_members({"invoice.pdf": pdf, "invoice.xml": xml})
    for data in members.values():
        refused(data, DocumentType.AUTO, DECLARED["UTF-8-W/O-BOM"])


def test_the_same_hybrid_with_a_good_declaration_is_read(requires_rules: None) -> None:
    pdf, _ = factur_x(None)
    outcome = read_document(pdf, context())
    assert outcome.data["source"]["attachment"] == "factur-x.xml"
    assert outcome.data["validation"]["valid"] is True


@pytest.mark.parametrize(
    "head",
    [
        b'<?xml version="1.0" encoding="UTF-8-W/O-BOM"?><a xmlns="urn:x"/>',
        b"\xef\xbb\xbf<?xml version='1.0' encoding='x-klingon-8' standalone='yes'?>"
        b"<a xmlns='urn:x'/>",
        b'<?xml version="1.0" encoding=""?>\n<!-- c --><a xmlns="urn:x"/>',
    ],
)
def test_the_root_is_seen_through_a_declaration_libxml2_refuses(head: bytes) -> None:
    root = xml_root(head)
    assert root is not None and (root.namespace, root.local_name) == ("urn:x", "a")
    assert peek_root(head) == root


def test_a_doctype_still_hides_the_root() -> None:
    head = b'<?xml version="1.0" encoding="bogus/name"?><!DOCTYPE a [<!ENTITY e "x">]><a/>'
    assert peek_root(head) is None and xml_root(head) is None

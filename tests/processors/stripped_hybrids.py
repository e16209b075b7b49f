"""Hybrid invoices with their XML taken out (issue 36): the embedded e-invoice becomes
the expected `Invoice`, and the visible PDF, without its embedded file, is what the
PDF reader reads.

The corpus's hybrids are the manifest rows whose category is a PDF with an embedded
invoice XML (`pdf:cii:*`, `pdf:zugferd1`, and any other `pdf:` category whose file turns
out to carry one); a file listed under two categories, or twice, is measured once (by
its sha256), and files that embed the very same XML (the same invoice, tests of PDF/A or
XMP faults around it) once too.

Where a test file's visible page is another invoice than its XML (checked by eye, listed
in `PRINTED`), the page's values are the expected ones: the reader reads the page.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject

from processors.einvoice.pdf_attachment import find_embedded_invoice
from processors.einvoice.profiles import Syntax, syntax_of
from processors.einvoice.read_cii import ZUGFERD1, read_cii
from processors.einvoice.read_ubl import read_ubl
from processors.invoice_model import Invoice
from processors.xmlsafe import parse_xml

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
_NOT_HYBRIDS = ("pdf:pdf-no-xml", "pdf:pdf-error")
# Mustang's XRechnung validator samples print invoice RE-20200620/508 of 20.06.2020 (due
# 11.07.2020) over an XML of RE-20190610/507; the amounts agree.
_XRECHNUNG_PAGE: dict[str, object] = {
    "number": "RE-20200620/508",
    "issue_date": date(2020, 6, 20),
    "due_date": date(2020, 7, 11),
}
PRINTED: dict[str, dict[str, object]] = {
    "mustang/validator/src/test/resources/validXRechnung.pdf": _XRECHNUNG_PAGE,
    "mustang/validator/src/test/resources/invalidXRechnung.pdf": _XRECHNUNG_PAGE,
    # The visualisation of an older invoice, RE-20171118/506 of 18.11.2017 (due
    # 9.12.2017), over an XML of RE-20190610/507; the page prints no seller VAT id.
    "mustang/validator/src/test/resources/invalidPDF.pdf": {
        "number": "RE-20171118/506",
        "issue_date": date(2017, 11, 18),
        "due_date": date(2017, 12, 9),
        "seller.vat_id": None,
    },
    # The page rounds the VAT per line (152,83 + 0,95 = 153,78, Endsumme 963,12); the XML
    # rounds it on the sum (153.77, 963.11). No seller VAT id is printed.
    "mustang/library/src/test/resources/MustangBeispiel20221026.pdf": {
        "totals.vat": Decimal("153.78"),
        "totals.gross": Decimal("963.12"),
        "totals.amount_due": Decimal("963.12"),
        "seller.vat_id": None,
    },
    # The page names the seller with its legal form ("Au bon moulin SARL", in the
    # letterhead and the legal line); the XML without.
    "mustang/validator/src/test/resources/validAvoir_FR_type380_BASICWL.pdf": {
        "seller.name": "Au bon moulin SARL",
    },
}


def as_printed(name: str, expected: Invoice) -> Invoice:
    """The expected invoice with the page's values where the page differs (`PRINTED`);
    a key `part.field` replaces a field of the seller, buyer or totals."""
    for key, value in PRINTED.get(name, {}).items():
        part, _, field = key.partition(".")
        if field:
            value = replace(getattr(expected, part), **{field: value})
        expected = replace(expected, **{part: value})  # type: ignore[arg-type]
    return expected


@dataclass(frozen=True, slots=True)
class Stripped:
    name: str  # the corpus path
    pdf: bytes  # the visible PDF, no embedded file left
    expected: Invoice  # read from the embedded XML


def expected_invoice(xml: bytes) -> Invoice:
    """The normalized invoice of an embedded CII, ZUGFeRD 1.0 or UBL XML."""
    root = parse_xml(xml).getroot()
    syntax = syntax_of(root)
    if syntax is Syntax.ZUGFERD1:
        return read_cii(root, ZUGFERD1)
    if syntax is Syntax.CII:
        return read_cii(root)
    return read_ubl(root)


def strip_embedded_files(pdf: bytes) -> bytes:
    """The PDF without embedded files: the catalog's /AF and /EmbeddedFiles name tree,
    pages' and annotations' /AF, and file attachment annotations removed."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    catalog = writer._root_object
    catalog.pop(NameObject("/AF"), None)
    names = catalog.get("/Names")
    names = names.get_object() if names is not None else None
    if isinstance(names, DictionaryObject):
        names.pop(NameObject("/EmbeddedFiles"), None)
    for page in writer.pages:
        page.pop(NameObject("/AF"), None)
        annotations = page.get("/Annots")
        if annotations is None:
            continue
        kept = [
            a
            for a in annotations.get_object()
            if a.get_object().get("/Subtype") != "/FileAttachment"
        ]
        page[NameObject("/Annots")] = ArrayObject(kept)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def stripped(name: str, pdf: bytes) -> Stripped | None:
    """The hybrid taken apart, or None when the PDF carries no invoice XML."""
    embedded = find_embedded_invoice(pdf)
    return None if embedded is None else _taken_apart(name, pdf, embedded.data)


def _taken_apart(name: str, pdf: bytes, xml: bytes) -> Stripped:
    visible = strip_embedded_files(pdf)
    assert find_embedded_invoice(visible) is None, name
    return Stripped(name, visible, as_printed(name, expected_invoice(xml)))


def hybrid_files(corpus: Path = CORPUS) -> list[str]:
    """The corpus's PDF files listed with an embedded-XML category, each content once."""
    seen: dict[str, str] = {}
    for line in (corpus / "manifest.jsonl").read_text().splitlines():
        if not line:
            continue
        row = json.loads(line)
        category = row["category"]
        if category.startswith("pdf:") and category not in _NOT_HYBRIDS:
            seen.setdefault(row["sha256"], row["file"])
    return sorted(seen.values())


def corpus_stripped(corpus: Path = CORPUS) -> Iterator[Stripped]:
    """Every corpus hybrid with an invoice XML, stripped (orders and other attachments
    that are not invoices are skipped)."""
    seen: set[str] = set()
    for file in hybrid_files(corpus):
        pdf = (corpus / file).read_bytes()
        embedded = find_embedded_invoice(pdf)
        if embedded is None or (digest := hashlib.sha256(embedded.data).hexdigest()) in seen:
            continue
        seen.add(digest)
        yield _taken_apart(file, pdf, embedded.data)

"""Where each field was read, and how sure the reader is (issue 36): the words that print
the value are found on the page (`processors/pdf_layout`), their box kept with the page;
of several places that print it, the one after (or under) the label the reader reads the
field by (`Nettobetrag`, `Rechnungsnummer`, `Fällig am`: `pdf_layout.pairs`), else the
first. A field the reader doubts (`Reading.doubts`) is `low` with the reason, every other
one found on the page `high`. A value not found printed has no evidence."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from decimal import Decimal

from processors.invoice_model import Invoice
from processors.pdf_invoices.labels import (
    AMOUNT_DUE_LABEL,
    DUE_LABEL,
    GROSS_LABEL,
    ISSUE_LABELS,
    NET_LABEL,
    NUMBER_LABEL,
    VAT_ID_LABEL,
    VAT_LABEL,
)
from processors.pdf_layout.lines import Line, PageLayout
from processors.pdf_layout.pairs import label_values
from processors.pdf_layout.words import Word
from processors.results.evidence import Box, Confidence, EvidenceField, FieldEvidence, PageSize
from processors.text_values import MONTHS

_RUN = 6
"""Words a printed value may span (`12 March 2024`, `DE89 3704 0044 0532 0130 00`)."""
_EDGES = re.compile(r"^[^\w-]+|[^\w]+$")


_LABELS: dict[EvidenceField, re.Pattern[str]] = {
    EvidenceField.NUMBER: NUMBER_LABEL,
    EvidenceField.ISSUE_DATE: ISSUE_LABELS[0],
    EvidenceField.DUE_DATE: DUE_LABEL,
    EvidenceField.SELLER_VAT_ID: VAT_ID_LABEL,
    EvidenceField.NET_TOTAL: NET_LABEL,
    EvidenceField.VAT_TOTAL: VAT_LABEL,
    EvidenceField.GROSS_TOTAL: GROSS_LABEL,
    EvidenceField.AMOUNT_DUE: AMOUNT_DUE_LABEL,
    EvidenceField.PAYEE_IBAN: re.compile(r"IBAN\b", re.IGNORECASE),
}
"""The labels the reader reads each field by: a place at one of them is where it read."""


def field_evidence(
    pages: tuple[PageLayout, ...],
    invoice: Invoice,
    doubts: Mapping[EvidenceField, str],
    sources: Mapping[EvidenceField, str] | None = None,
) -> tuple[FieldEvidence, ...]:
    """Each field's page and box: where the text line the reader chose it from
    (`sources`) prints it, else at its label, else where first printed; a value the page
    does not print (a due date computed from the terms) is boxed on its source's words."""
    found: list[FieldEvidence] = []
    sources = sources or {}
    for field, forms in _printed_forms(invoice):
        source = sources.get(field)
        hit = _locate(pages, forms, _LABELS.get(field), source)
        if hit is None and source is not None:
            hit = _locate_text(pages, source)
        if hit is None:
            continue
        page, box = hit
        reason = doubts.get(field)
        confidence = Confidence.LOW if reason else Confidence.HIGH
        size = PageSize(page.width, page.height)
        found.append(FieldEvidence(field, page.number, box.rounded(), confidence, reason, size))
    return tuple(found)


def _printed_forms(invoice: Invoice) -> Iterator[tuple[EvidenceField, set[str]]]:
    texts = {
        EvidenceField.NUMBER: invoice.number,
        EvidenceField.CURRENCY: invoice.currency,
        EvidenceField.SELLER_NAME: invoice.seller.name,
        EvidenceField.SELLER_VAT_ID: invoice.seller.vat_id,
        EvidenceField.BUYER_NAME: invoice.buyer.name,
        EvidenceField.PAYEE_IBAN: invoice.payment_means[0].payee_iban
        if invoice.payment_means
        else None,
    }
    for field, text in texts.items():
        if text:
            yield field, {_key(text)}
    for field, day in ((EvidenceField.ISSUE_DATE, invoice.issue_date),
                       (EvidenceField.DUE_DATE, invoice.due_date)):  # fmt: skip
        if day is not None:
            yield field, _date_forms(day)
    totals = invoice.totals
    for field, amount in ((EvidenceField.NET_TOTAL, totals.net),
                          (EvidenceField.VAT_TOTAL, totals.vat),
                          (EvidenceField.GROSS_TOTAL, totals.gross),
                          (EvidenceField.AMOUNT_DUE, totals.amount_due)):  # fmt: skip
        if amount is not None:
            yield field, _amount_forms(amount)


def _key(text: str) -> str:
    """Compared without spaces, case or a currency sign at either end."""
    return re.sub(r"\s", "", text).casefold()


def _date_forms(day: date) -> set[str]:
    d, m, y = f"{day.day:02d}", f"{day.month:02d}", str(day.year)
    numeric = {f"{d}{sep}{m}{sep}{y}" for sep in "./-"} | {f"{m}/{d}/{y}", day.isoformat()}
    short = {f"{day.day}.{day.month}.{y}", f"{d}.{m}.{y[2:]}"}
    names = [name for name, number in MONTHS.items() if number == day.month]
    words = {
        form
        for name in names
        for form in (f"{day.day}{name}{y}", f"{d}{name}{y}", f"{name}{day.day}{y}")
    }
    return {_key(form) for form in numeric | short | words}


def _amount_forms(amount: Decimal) -> set[str]:
    plain = f"{abs(amount):.2f}"
    grouped = f"{abs(amount):,.2f}"
    german = grouped.replace(",", "X").replace(".", ",").replace("X", ".")
    return {plain, plain.replace(".", ","), grouped, german, german.replace(".", "")}


def _locate(
    pages: tuple[PageLayout, ...],
    forms: set[str],
    label: re.Pattern[str] | None,
    source: str | None = None,
) -> tuple[PageLayout, Box] | None:
    """The first run of words on a line (top to bottom) that prints one of `forms` in the
    row the reader read it from (`source`), else at `label`, else the first that prints
    it at all."""
    places = [
        (page, line, Box.around(word.box for word in run))
        for page in pages
        for line in page.lines
        if (run := _run(line.words, forms)) is not None
    ]
    if source is not None and len(places) > 1:
        chosen = next((p for p in places if _in_source(p[0], p[1], _key(source))), None)
        if chosen is not None:
            return chosen[0], chosen[2]
    if label is not None and len(places) > 1:
        labelled = next((p for p in places if _at_label(p[0], p[1], p[2], label)), None)
        if labelled is not None:
            return labelled[0], labelled[2]
    return (places[0][0], places[0][2]) if places else None


def _at_label(page: PageLayout, line: Line, box: Box, label: re.Pattern[str]) -> bool:
    """The label is left of the value in its row (`Nettobetrag ...... 100,00`), or the
    value is the label's by the geometry layer's pairs (under it, a column head)."""
    row = next((row for row in page.rows if line in row), (line,))
    if any(label.search(each.text) and each.box.x0 < box.x0 for each in row):
        return True
    return any(_inside(box, found.value_box) for found in label_values(page, label))


def _in_source(page: PageLayout, line: Line, source: str) -> bool:
    """The line's row is the text line the value was read from (one prints the other:
    the layout text joins a row's columns, the plain text may split them)."""
    row = next((row for row in page.rows if line in row), (line,))
    printed = _key(" ".join(each.text for each in row))
    return bool(printed) and (printed in source or source in printed)


def _locate_text(pages: tuple[PageLayout, ...], text: str) -> tuple[PageLayout, Box] | None:
    """The first run of words that prints `text` (a terms phrase: `innerhalb von 14
    Tagen`)."""
    forms = {_key(text)}
    for page in pages:
        for line in page.lines:
            run = _run(line.words, forms, _TEXT_RUN)
            if run is not None:
                return page, Box.around(word.box for word in run)
    return None


_TEXT_RUN = 12


def _inside(box: Box, value: Box, slack: float = 1.0) -> bool:
    return (
        value.x0 - slack <= box.x0
        and box.x1 <= value.x1 + slack
        and value.y0 - slack <= box.y0
        and box.y1 <= value.y1 + slack
    )


def _run(words: tuple[Word, ...], forms: set[str], longest: int = _RUN) -> tuple[Word, ...] | None:
    for start in range(len(words)):
        text = ""
        for end in range(start, min(start + longest, len(words))):
            text += _word_key(words[end].text, first=end == start)
            if text in forms:
                return words[start : end + 1]
    return None


def _word_key(text: str, first: bool) -> str:
    key = _EDGES.sub("", text.casefold())
    key = re.sub(r"(eur|usd|gbp|chf)$", "", key) if key[:1].isdigit() else key
    return key.lstrip("-+") if first and key[1:2].isdigit() else key

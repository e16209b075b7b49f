"""Where each field was read, and how sure the reader is (issue 36): the words that print
the value are found on the page (`processors/pdf_layout`), their box kept with the page;
a field the reader doubts (`Reading.doubts`) is `low` with the reason, every other one
found on the page `high`. A value not found printed has no evidence."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from decimal import Decimal

from processors.invoice_model import Invoice
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.words import Word
from processors.results.evidence import Box, Confidence, EvidenceField, FieldEvidence, PageSize

_RUN = 6
"""Words a printed value may span (`12 March 2024`, `DE89 3704 0044 0532 0130 00`)."""
_EDGES = re.compile(r"^[^\w-]+|[^\w]+$")
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December",
)  # fmt: skip


def field_evidence(
    pages: tuple[PageLayout, ...], invoice: Invoice, doubts: Mapping[EvidenceField, str]
) -> tuple[FieldEvidence, ...]:
    found: list[FieldEvidence] = []
    for field, forms in _printed_forms(invoice):
        hit = _locate(pages, forms)
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
    month = _MONTHS[day.month - 1]
    words = {f"{day.day}{month}{y}", f"{month}{day.day},{y}", f"{day.day}{month[:3]}{y}"}
    return {_key(form) for form in numeric | short | words}


def _amount_forms(amount: Decimal) -> set[str]:
    plain = f"{abs(amount):.2f}"
    grouped = f"{abs(amount):,.2f}"
    german = grouped.replace(",", "X").replace(".", ",").replace("X", ".")
    return {plain, plain.replace(".", ","), grouped, german, german.replace(".", "")}


def _locate(pages: tuple[PageLayout, ...], forms: set[str]) -> tuple[PageLayout, Box] | None:
    """The first run of words on a line (top to bottom) that prints one of `forms`."""
    for page in pages:
        for line in page.lines:
            run = _run(line.words, forms)
            if run is not None:
                return page, Box.around(word.box for word in run)
    return None


def _run(words: tuple[Word, ...], forms: set[str]) -> tuple[Word, ...] | None:
    for start in range(len(words)):
        text = ""
        for end in range(start, min(start + _RUN, len(words))):
            text += _word_key(words[end].text, first=end == start)
            if text in forms:
                return words[start : end + 1]
    return None


def _word_key(text: str, first: bool) -> str:
    key = _EDGES.sub("", text.casefold())
    key = re.sub(r"(eur|usd|gbp|chf)$", "", key) if key[:1].isdigit() else key
    return key.lstrip("-+") if first and key[1:2].isdigit() else key

"""Invoices printed as PDF without structured data: read from the text layer.

`PdfTextInvoiceProcessor` scores below the e-invoice processor and above the fallback,
so it sees PDFs the e-invoice processor declined. It classifies the text (see
docs/pdf_text.md for the score), declines non-invoices (they end as other documents) and
extracts what it can into the normalized `Invoice`. Totals are cross-checked
(net + VAT = gross); a failed or incomplete check is reported in `checks`, never hidden.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from processors.base import (
    Declined,
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.invoice_model import (
    Invoice,
    InvoiceType,
    Party,
    PaymentMeans,
    Totals,
    VatBreakdown,
    direction_fields,
)
from processors.ocr import DEFAULT_COMMAND
from processors.pdf_text import PdfText, read_pdf_text
from processors.text_values import (
    AmountMatch,
    cell_below,
    cells,
    column_amounts,
    find_amounts,
    find_bic,
    find_dates,
    find_ibans,
    forget_lines,
    is_header_row,
    labelled,
    lines_of,
    overlaps,
)

PDF_TEXT_INVOICE_SCORE = 20
"""Below `EInvoiceProcessor` (40): a PDF with embedded XML is read from the XML."""
INVOICE_THRESHOLD = 50
MAX_PAGES = 5
_CENT = Decimal("0.01")
_READ_TYPES = (DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE)

_I = re.IGNORECASE
_TITLE = re.compile(r"\b(rechnung|invoice|facture|factuur|fattura|factura|gutschrift)\b", _I)
_NUMBER_LABEL = re.compile(
    r"(rechnungs?[- ]?(?:nr|nummer|no)\b\.?|rechnung\s*(?:#|nr\.?|nummer)|"
    r"invoice\s*(?:no\b\.?|number|#|nr\.?)|facture\s*n[°o]\.?|factuurnummer|"
    r"factuur\s*(?:nr\.?|nummer))",
    _I,
)
_NUMBER_VALUE = re.compile(r"#?\s*([A-Z0-9][A-Z0-9/_\-.]*\d[A-Z0-9/_\-]*)", _I)
_ISSUE_LABELS = (
    re.compile(
        r"(rechnungsdatum|invoice\s*date|date\s*of\s*invoice|factuur\s*datum|"
        r"date\s*de\s*facture|issued\s*(?:at|on))",
        _I,
    ),
    re.compile(r"(datum|date|\bvon\b|\bdu\b|\bvom\b)", _I),
)
_DUE_LABEL = re.compile(
    r"(due\s*date|due\s*on|payable\s*(?:by|until)|remit\s*until|zahlungsziel|fällig(?:keit)?\w*|"
    r"bis\s*zum|vervaldatum|date\s*limite\s*de\s*paiement|échéance)",
    _I,
)
_OTHER_DATE = re.compile(
    r"(order\s*date|bestelldatum|orderdatum|leistungsdatum|lieferdatum|delivery|"
    r"date\s*of\s*delivery)",
    _I,
)
_NET_LABEL = re.compile(
    r"(netto\w*|\bnet\b\s*(?:total|amount)?|sub\s?-?total\w*|zwischensumme|total\s*ht|"
    r"montant\s*(?:eur\s*)?ht|exclusief\s*btw|excl\.?\s*(?:vat|btw)|"
    r"(?:ohne|zzgl\.?)\s*(?:mwst|ust)\b|without\s*vat|excluding\s*vat)",
    _I,
)
_VAT_LABEL = re.compile(
    r"(ust\.?\s*gesamt|umsatzsteuer|mehrwertsteuer|mwst|\bust\b|vat\s*(?:total|amount)?|"
    r"\btax\b|\btva\b|\bbtw\b|\bgst\b)",
    _I,
)
_GROSS_LABEL = re.compile(
    r"(gesamtbetrag|rechnungsbetrag|endbetrag|bruttobetrag|zu\s*zahlen|"
    r"total|amount\s*due|balance\s*due|due\s*payable|totaal|ttc|somme\s*à\s*payer)",
    _I,
)
_VAT_ID = re.compile(
    r"\b((?:DE|AT|FR|NL|BE|LU|IT|ES|PL|CZ|DK|SE|FI|IE|PT|GB|CH)"
    r"[ ]?(?:\d[ ]?){8,11}(?:B\d{2})?)\b"
)
_VAT_ID_LABEL = re.compile(
    r"(ust\.?-?id\w*|ust-?idnr|vat[- ]?(?:id|no|reg\w*)|btw(?:[- ]?nummer)?|"
    r"n°\s*de\s*tva|tva|umsatzsteuer[- ]?id\w*)",
    _I,
)
_BUYER_VAT_HINT = re.compile(r"\b(uw|your|ihre?)\b", _I)
_TAX_NUMBER = re.compile(
    r"(?:steuer-?\s?nr\.?|steuernummer|st\.-?nr\.?)\s*:?\s*([\d/ ]{8,16}\d)", _I
)
_BUYER_LABEL = re.compile(
    r"^\s*(bill\s*to(?:\s*address)?|invoice\s*to|billing\s*address|rechnungsempfänger|rechnung\s*an|"
    r"factuuradres)\b",
    _I,
)
_LEGAL_FORM = re.compile(
    r"\b(GmbH|AG|KG|OHG|UG|e\.K\.|Inc\.?|Ltd\.?|Limited|LLC|B\.V\.|N\.V\.|SAS|SARL|S\.A\.|"
    r"SE|plc|Corp\.?)(?=\W|$)"
)
_COLUMN_GAP = re.compile(r"\s{6,}")
_RETURN_ADDRESS_SEP = re.compile("\\s+[\u25cf\u00b7\u2022|\u2013-]\\s+")
_REFERENCE_LABEL = re.compile(
    r"(verwendungszweck|payment\s*reference|communication\s*for\s*your\s*payment|"
    r"zahlungsreferenz)",
    _I,
)
_CURRENCIES = {"€": "EUR", "$": "USD", "£": "GBP", "₹": "INR", "Rs": "INR"}
_ISO_CURRENCY = re.compile(r"\b(EUR|USD|GBP|CHF|INR|SEK|DKK|PLN|CZK|JPY)\b")
_PERCENT = re.compile(r"(?<![\d,.])(\d{1,2}(?:[.,]\d{1,2})?)\s?%")
_NOT_INVOICE = re.compile(
    r"\b(kontoauszug|bank\s*statement|account\s*statement|angebot|quotation|"
    r"lieferschein|delivery\s*note|packing\s*slip|purchase\s*order|bestellung|"
    r"auftragsbestätigung|order\s*confirmation|bon\s*de\s*commande)\b",
    _I,
)
_WORD = re.compile(r"(?!(?:EUR|USD|GBP|CHF|INR)\b)[^\W\d_]{3,}")
"""A word between two amounts; currency codes are part of the amount."""
_CURRENCY_MARKS = re.compile(r"[\s€$£¥₹]|\b(?:EUR|USD|GBP|CHF|INR)\b")
_ENGLISH = re.compile(r"\b(invoice|total|amount|due|date|the)\b", _I)


@dataclass(frozen=True, slots=True)
class Classification:
    score: int
    signals: tuple[str, ...]

    @property
    def is_invoice(self) -> bool:
        """Enough evidence, and the document calls itself an invoice or numbers itself
        as one: orders and offers print totals, VAT and dates too."""
        named = "title" in self.signals or "invoice_number" in self.signals
        return self.score >= INVOICE_THRESHOLD and named


class PdfTextInvoiceProcessor:
    name = "pdf_text_invoice"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if kind is FileKind.PDF and context.document_type in _READ_TYPES:
            return PDF_TEXT_INVOICE_SCORE
        return 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        forget_lines()
        pdf_text = read_pdf_text(data, context.ocr_command, MAX_PAGES)
        if pdf_text.empty:
            if context.document_type is DocumentType.AUTO:
                raise Declined("nothing to read (no text, nothing drawn): an other document")
            raise ProcessingError(
                FailureCode.UNREADABLE_DOCUMENT,
                "The PDF has no text and nothing legible drawn on its pages to read the "
                "invoice from. Upload the invoice itself, or an e-invoice.",
            )
        text = joined(pdf_text)
        classification = classify(text)
        if not classification.is_invoice:
            raise Declined(f"not an invoice (score {classification.score})")
        invoice, checks = extract_invoice(text)
        if pdf_text.ocr is not None and not pdf_text.ocr.trusted:
            checks = {**checks, "ocr": "low_confidence", "confidence": "low", "needsReview": True}
        result = _invoice_data(invoice, checks, classification, context)
        return Outcome(ResultType.INVOICE, {**result, "source": pdf_text.source()})


def read_text(data: bytes, ocr_command: str = DEFAULT_COMMAND) -> str:
    """The text the invoice is read from (text layer, or OCR for scanned pages)."""
    return joined(read_pdf_text(data, ocr_command, MAX_PAGES))


def joined(pdf_text: PdfText) -> str:
    """Plain text of the first pages, then the layout text (columns kept on one line),
    so label/value pairs can be found in whichever order the PDF draws them."""
    return "\n".join(pdf_text.plain) + "\n" + "\n".join(pdf_text.layout)


# --- classification --------------------------------------------------------------------

_SIGNALS: tuple[tuple[str, int], ...] = (
    ("title", 30),
    ("invoice_number", 20),
    ("total", 20),
    ("date", 10),
    ("vat", 10),
    ("vat_id", 10),
    ("iban", 5),
    ("amounts", 5),
)


def classify(text: str) -> Classification:
    """Sum of the weights of the invoice signals found; minus 40 for vocabulary of
    other business documents (statements, quotes, delivery notes)."""
    lines = lines_of(text)
    present = {
        "title": bool(_TITLE.search(text)),
        "invoice_number": _invoice_number(lines) is not None,
        "total": any(_GROSS_LABEL.search(line) and find_amounts(line) for line in lines),
        "date": bool(find_dates(text)),
        "vat": bool(_VAT_LABEL.search(text)),
        "vat_id": bool(_VAT_ID.search(text)),
        "iban": bool(find_ibans(text)),
        "amounts": _at_least(3, (a for line in lines for a in find_amounts(line))),
    }
    signals = [name for name, _ in _SIGNALS if present[name]]
    score = sum(weight for name, weight in _SIGNALS if present[name])
    if _NOT_INVOICE.search(text):
        signals.append("other_document_vocabulary")
        score -= 40
    return Classification(max(score, 0), tuple(signals))


def _at_least(count: int, items: Iterator[object]) -> bool:
    """Whether `items` yields `count` items, looking no further."""
    return next(itertools.islice(items, count - 1, None), None) is not None


# --- extraction ------------------------------------------------------------------------


def extract_invoice(text: str) -> tuple[Invoice, dict[str, Any]]:
    lines = lines_of(text)
    month_first = _is_english(text)
    net, vat, gross, breakdown, checks = _totals(lines)
    seller_vat, buyer_vat = _vat_ids(lines)
    ibans = find_ibans(text)
    invoice = Invoice(
        number=_invoice_number(lines),
        invoice_type=InvoiceType.INVOICE,
        type_code=None,
        issue_date=_issue_date(lines, month_first),
        due_date=_due_date(lines, month_first),
        currency=_currency(text),
        seller=Party(name=_seller_name(lines), vat_id=seller_vat, tax_number=_tax_number(text)),
        buyer=Party(name=_buyer_name(lines), vat_id=buyer_vat),
        totals=Totals(net=net, vat=vat, gross=gross, amount_due=gross),
        vat_breakdown=breakdown,
        payment_means=_payment_means(text, lines, ibans),
    )
    return invoice, checks


def _is_english(text: str) -> bool:
    return len(_ENGLISH.findall(text)) >= 3 and not re.search(
        r"\b(rechnung|datum|facture|factuur)\b", text, _I
    )


def _invoice_number(lines: list[str]) -> str | None:
    for _, value in labelled(lines, _NUMBER_LABEL):
        match = _NUMBER_VALUE.match(value)
        if match and not find_dates(match.group(1)):
            return match.group(1).rstrip(".-")
    return _number_in_column(lines) or _number_after_title(lines)


def _number_in_column(lines: list[str]) -> str | None:
    """A header row naming the invoice number column ("Klant  Order  Factuur  Datum",
    "Rechnungsnr.  Kunde") with the number right under it."""
    for index, line in enumerate(lines):
        if not is_header_row(line, minimum=2):
            continue
        for cell in cells(line):
            if not (_TITLE.fullmatch(cell.text) or _NUMBER_LABEL.fullmatch(cell.text)):
                continue
            value = cell_below(lines, index, cell)
            if value and _NUMBER_VALUE.fullmatch(value) and not find_dates(value):
                return value.lstrip("#").strip()
    return None


def _number_after_title(lines: list[str]) -> str | None:
    """A title alone on its line ("INVOICE") followed by one token with a digit, or the
    title and that token alone on one line ("Invoice INV/2023/03/0008")."""
    for index, line in enumerate(lines):
        title = _TITLE.match(line.strip())
        if title is None:
            continue
        rest = line.strip()[title.end() :].strip()
        if not rest and index + 1 < len(lines):
            rest = lines[index + 1].strip()
        token = rest.lstrip("#").strip()
        if _NUMBER_VALUE.fullmatch(token) and not find_dates(token) and not find_amounts(token):
            return token
    return None


def _issue_date(lines: list[str], month_first: bool) -> date | None:
    """The invoice-date label first, then any date label (not a due or order date),
    then the first date printed."""
    for label in _ISSUE_LABELS:
        in_column = _date_in_column(lines, label, month_first, (_DUE_LABEL, _OTHER_DATE))
        if in_column is not None:
            return in_column
        for index, value in labelled(lines, label):
            if _DUE_LABEL.search(lines[index]) or _OTHER_DATE.search(lines[index]):
                continue
            dates = find_dates(value, month_first)
            if dates:
                return dates[0].value
    dates = find_dates("\n".join(lines), month_first)
    return dates[0].value if dates else None


def _due_date(lines: list[str], month_first: bool) -> date | None:
    in_column = _date_in_column(lines, _DUE_LABEL, month_first, ())
    if in_column is not None:
        return in_column
    for _, value in labelled(lines, _DUE_LABEL):
        dates = find_dates(value, month_first)
        if dates:
            return dates[0].value
    return None


def _date_in_column(
    lines: list[str],
    label: re.Pattern[str],
    month_first: bool,
    not_labels: tuple[re.Pattern[str], ...],
) -> date | None:
    """A header row naming the date's column ("Invoice Date:   Due Date:   Reference:")
    with the date right under it. The cell must be the label alone: a cell with its
    value in it ("Date: 09.01.2015") is read on its line."""
    for index, line in enumerate(lines):
        if not is_header_row(line, minimum=2):
            continue
        for cell in cells(line):
            name = cell.text.rstrip(":# ")
            if not label.fullmatch(name) or any(n.search(name) for n in not_labels):
                continue
            dates = find_dates(cell_below(lines, index, cell) or "", month_first)
            if dates:
                return dates[0].value
    return None


def _currency(text: str) -> str | None:
    counts: dict[str, int] = {}
    for code in _ISO_CURRENCY.findall(text):
        counts[code] = counts.get(code, 0) + 1
    for symbol, code in _CURRENCIES.items():
        counts[code] = counts.get(code, 0) + text.count(symbol)
    best = max(counts.items(), key=lambda item: item[1], default=None)
    return best[0] if best and best[1] > 0 else None


def _label_amounts(
    lines: list[str], label: re.Pattern[str], exclude: re.Pattern[str] | None
) -> list[Decimal]:
    """Amounts printed on (or, for a bare label, right after) lines carrying `label`."""
    found: list[Decimal] = []
    for index, line in enumerate(lines):
        if is_header_row(line):
            found.extend(_column_totals(lines, index, label, exclude))
            continue
        match = label.search(line)
        if not match or (exclude is not None and exclude.search(line)):
            continue
        amounts = find_amounts(line)
        if not amounts and _wrapped_header(lines, index, match.start(), match.end()):
            continue
        on_line = bool(amounts)
        if not amounts and index + 1 < len(lines):
            amounts = _amounts_below(lines[index + 1], match.start(), match.end())
        # Totals carry cents; integers on such lines are capital, counts or ids.
        amounts = [a for a in amounts if a.value.as_tuple().exponent != 0]
        if amounts:
            chosen = _after_label(line, match.end(), amounts) if on_line else amounts[-1]
            found.append(abs(chosen.value))
    return found


def _after_label(line: str, label_end: int, amounts: list[AmountMatch]) -> AmountMatch:
    """The last of the amounts right after the label, up to the next word after one of
    them (a second label and value beside it: `Exclusief BTW € 593,36   Subtotaal
    € 717,97`); without an amount after the label, the last one on the line."""
    run = [a for a in amounts if a.start >= label_end]
    for previous, amount in itertools.pairwise(run):
        if _WORD.search(line[previous.end : amount.start]):
            return previous
    return run[-1] if run else amounts[-1]


def _wrapped_header(lines: list[str], index: int, start: int, end: int) -> bool:
    """A bare label under a cell of a row without amounts is the second line of a
    wrapped table header ("Ohne" over "MwSt."), not a label with a value below."""
    if index == 0 or find_amounts(lines[index - 1]):
        return False
    return len(cells(lines[index])) == 1 and any(
        overlaps(cell.start, cell.end, start, end) for cell in cells(lines[index - 1])
    )


def _amounts_below(line: str, start: int, end: int) -> list[AmountMatch]:
    """For a bare label: the next line when it holds nothing but amounts, else the
    first amount in the label's column or right of it (text in a left column is
    another block of the page)."""
    amounts = find_amounts(line)
    rest = line
    for amount in reversed(amounts):
        rest = rest[: amount.start] + rest[amount.end :]
    if amounts and not _CURRENCY_MARKS.sub("", rest):
        return amounts
    return [a for a in amounts if a.end >= start - 2][:1]


def _column_totals(
    lines: list[str], header: int, label: re.Pattern[str], exclude: re.Pattern[str] | None
) -> list[Decimal]:
    """Amounts with cents under the header cells that carry `label` (`Montant HT`,
    `Tax`, `Total` over a table): one of them is the total row."""
    found: list[Decimal] = []
    for cell in cells(lines[header]):
        if label.search(cell.text) and not (exclude is not None and exclude.search(cell.text)):
            amounts = column_amounts(lines, header, cell)
            found.extend(abs(a.value) for a in amounts if a.value.as_tuple().exponent != 0)
    return found


def _totals(
    lines: list[str],
) -> tuple[
    Decimal | None, Decimal | None, Decimal | None, tuple[VatBreakdown, ...], dict[str, Any]
]:
    breakdown = _vat_breakdown(lines)
    nets = _label_amounts(lines, _NET_LABEL, None)
    vats = _label_amounts(lines, _VAT_LABEL, _NET_LABEL)
    if breakdown:
        vats.append(sum((row.tax_amount or Decimal(0) for row in breakdown), Decimal(0)))
        nets.append(sum((row.taxable_amount or Decimal(0) for row in breakdown), Decimal(0)))
    grosses = _label_amounts(lines, _GROSS_LABEL, _NET_LABEL)
    net: Decimal | None = nets[-1] if nets else None
    vat: Decimal | None = vats[-1] if vats else None
    gross: Decimal | None = max(grosses, default=None)
    consistent = _consistent(nets, vats, grosses)
    if consistent:
        net, vat, gross = consistent
    return net, vat, gross, breakdown, _checks(net, vat, gross, breakdown)


def _consistent(
    nets: list[Decimal], vats: list[Decimal], grosses: list[Decimal]
) -> tuple[Decimal, Decimal, Decimal] | None:
    """The largest gross for which a printed net plus a printed VAT (or zero VAT, when
    the net equals the gross and no VAT amount is printed) adds up."""
    zero_allowed = not any(vats)
    for gross in sorted(set(grosses), reverse=True):
        for net in nets:
            for vat in [*vats, Decimal(0)] if zero_allowed else vats:
                if abs(net + vat - gross) <= _CENT:
                    return net, vat, gross
    return None


def _vat_breakdown(lines: list[str]) -> tuple[VatBreakdown, ...]:
    """Rows printing a rate and a base and tax that fit it (tax = base x rate)."""
    rows: dict[tuple[Decimal, Decimal], VatBreakdown] = {}
    for line in lines:
        percent = _PERCENT.search(line)
        if not percent:
            continue
        rate = Decimal(percent.group(1).replace(",", "."))
        amounts = [a.value for a in find_amounts(line[percent.end() :])]
        row = _base_and_tax(rate, amounts)
        if row and (rate, row[0]) not in rows:
            rows[(rate, row[0])] = VatBreakdown("S" if rate else "Z", rate, row[0], row[1])
    return tuple(rows.values())


def _base_and_tax(rate: Decimal, amounts: list[Decimal]) -> tuple[Decimal, Decimal] | None:
    for i, base in enumerate(amounts):
        for tax in amounts[i + 1 :]:
            if base > 0 and abs((base * rate / 100).quantize(_CENT) - tax) <= _CENT and tax > 0:
                return base, tax
    return None


def _checks(
    net: Decimal | None,
    vat: Decimal | None,
    gross: Decimal | None,
    breakdown: tuple[VatBreakdown, ...],
) -> dict[str, Any]:
    if net is None or vat is None or gross is None:
        status = "incomplete"
    else:
        status = "passed" if abs(net + vat - gross) <= _CENT else "failed"
    confidence = {"passed": "high", "incomplete": "low", "failed": "low"}[status]
    return {
        "totals": status,
        "totalsExplained": "net + VAT = gross",
        "vatBreakdownRows": len(breakdown),
        "confidence": confidence,
        "needsReview": status != "passed",
    }


def _vat_ids(lines: list[str]) -> tuple[str | None, str | None]:
    seller: str | None = None
    buyer: str | None = None
    for line in lines:
        match = _VAT_ID.search(line)
        if not match or not _VAT_ID_LABEL.search(line):
            continue
        value = re.sub(r"\s", "", match.group(1))
        if _BUYER_VAT_HINT.search(line):
            buyer = buyer or value
        else:
            seller = seller or value
    return seller, buyer


def _tax_number(text: str) -> str | None:
    match = _TAX_NUMBER.search(text)
    return match.group(1).strip() if match else None


def _return_address(lines: list[str]) -> int | None:
    """The sender line above the window address: "Name ● Street ● 12345 City". The
    last one wins: the layout text (appended after the plain text) keeps visual order,
    so the line after it is the recipient."""
    found: int | None = None
    for index, line in enumerate(lines[:-1]):
        if not _RETURN_ADDRESS_SEP.search(line):
            continue  # the common case, without splitting the line
        parts = [part.strip() for part in _RETURN_ADDRESS_SEP.split(_left_column(line))]
        if (
            len(parts) >= 3
            and all(0 < len(part) <= 40 for part in parts)
            and re.search(r"\d{4,5}", line)
            and not re.search(r"[\d:]", parts[0])
        ):
            found = index
    return found


def _left_column(line: str) -> str:
    """Layout text separates columns by long runs of spaces."""
    return _COLUMN_GAP.split(line.strip(), maxsplit=1)[0]


def _seller_name(lines: list[str]) -> str | None:
    """The first part of the return-address line, else the first short line that
    carries a legal form."""
    index = _return_address(lines)
    if index is not None:
        return _RETURN_ADDRESS_SEP.split(_left_column(lines[index]))[0].strip()
    for line in lines:
        if _LEGAL_FORM.search(line) and len(line.strip()) <= 45:
            return line.strip().strip(",:")
    return None


def _buyer_name(lines: list[str]) -> str | None:
    for index, line in enumerate(lines):
        match = _BUYER_LABEL.match(line)
        if match:
            rest = line[match.end() :].strip(" :")
            following = [lines[j].strip(" :") for j in range(index + 1, min(index + 3, len(lines)))]
            for candidate in [rest] if rest else following:
                if candidate and not re.fullmatch(r"[\W\d]*", candidate):
                    return candidate
    sender = _return_address(lines)
    if sender is None:
        return None
    return _left_column(lines[sender + 1])


def _payment_means(text: str, lines: list[str], ibans: list[str]) -> tuple[PaymentMeans, ...]:
    reference = next((value for _, value in labelled(lines, _REFERENCE_LABEL)), None)
    if not ibans and reference is None:
        return ()
    return (
        PaymentMeans(
            type_code="58" if ibans else None,
            payee_iban=ibans[0] if ibans else None,
            payee_bic=find_bic(text),
            reference=reference,
        ),
    )


def _invoice_data(
    invoice: Invoice,
    checks: dict[str, Any],
    classification: Classification,
    context: ProcessingContext,
) -> dict[str, Any]:
    return {
        "invoice": invoice.to_dict(),
        **direction_fields(invoice, context.company, context.document_type),
        "classification": {"score": classification.score, "signals": list(classification.signals)},
        "checks": checks,
    }

"""Who sent the invoice and to whom: VAT ids, the tax number, the return-address line
over the window address, and the buyer's label."""

from __future__ import annotations

import re

from processors.pdf_invoices.labels import (
    BUYER_LABEL,
    BUYER_VAT_HINT,
    COLUMN_GAP,
    LEGAL_FORM,
    RETURN_ADDRESS_SEP,
    TAX_NUMBER,
    VAT_ID,
    VAT_ID_LABEL,
)


def vat_ids(lines: list[str]) -> tuple[str | None, str | None]:
    seller: str | None = None
    buyer: str | None = None
    for line in lines:
        match = VAT_ID.search(line)
        if not match or not VAT_ID_LABEL.search(line):
            continue
        value = re.sub(r"\s", "", match.group(1))
        if BUYER_VAT_HINT.search(line):
            buyer = buyer or value
        else:
            seller = seller or value
    return seller, buyer


def tax_number(text: str) -> str | None:
    match = TAX_NUMBER.search(text)
    return match.group(1).strip() if match else None


def _return_address(lines: list[str]) -> int | None:
    """The sender line above the window address: "Name ● Street ● 12345 City". The
    last one wins: the layout text (appended after the plain text) keeps visual order,
    so the line after it is the recipient."""
    found: int | None = None
    for index, line in enumerate(lines[:-1]):
        if not RETURN_ADDRESS_SEP.search(line):
            continue  # the common case, without splitting the line
        parts = [part.strip() for part in RETURN_ADDRESS_SEP.split(_left_column(line))]
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
    return COLUMN_GAP.split(line.strip(), maxsplit=1)[0]


def seller_name(lines: list[str]) -> str | None:
    """The first part of the return-address line, else the first short line that
    carries a legal form."""
    index = _return_address(lines)
    if index is not None:
        return RETURN_ADDRESS_SEP.split(_left_column(lines[index]))[0].strip()
    for line in lines:
        if LEGAL_FORM.search(line) and len(line.strip()) <= 45:
            return line.strip().strip(",:")
    return None


def buyer_name(lines: list[str]) -> str | None:
    for index, line in enumerate(lines):
        match = BUYER_LABEL.match(line)
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

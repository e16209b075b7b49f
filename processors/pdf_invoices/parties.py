"""Who sent the invoice and to whom: VAT ids, the tax number, the return-address line
over the window address, and the buyer's label."""

from __future__ import annotations

import re

from processors.pdf_invoices.labels import (
    BUYER_LABEL,
    BUYER_VAT_HINT,
    COLUMN_GAP,
    DELIVERY_LABEL,
    LEGAL_FORM,
    NAME_LABEL,
    POSTAL,
    RETURN_ADDRESS_SEP,
    SELLER_LABEL,
    STREET,
    TAX_NUMBER,
    VAT_ID,
    VAT_ID_LABEL,
)


def vat_ids(lines: list[str]) -> tuple[str | None, str | None]:
    seller: str | None = None
    buyer: str | None = None
    for index, line in enumerate(lines):
        match = VAT_ID.search(line)
        if not match or not VAT_ID_LABEL.search(line):
            continue
        value = re.sub(r"\s", "", match.group(1))
        if _the_buyers(lines, index, match):
            buyer = buyer or value
        else:
            seller = seller or value
    return seller or _unlabelled_vat_id(lines, buyer), buyer


_BUYERS_WORD = re.compile(
    r"\b(?:client|customer|kunden?|käufers?|buyer|acheteur|klant|cliente|destinatario)\b",
    re.IGNORECASE,
)
_COLUMN_HEAD = 4
"""Lines above a VAT id searched for the head of its column (`Vos identifiants`)."""


def _the_buyers(lines: list[str], index: int, vat_id: re.Match[str]) -> bool:
    """A VAT id said to be the buyer's: `Ihre USt-IdNr.`, `N° TVA client`, `Customer VAT
    no.` before it on its line, or under a column head addressing the reader (`Vos
    identifiants`, `Your details`, `Ihre Angaben`)."""
    line = lines[index]
    before = _left_cell(line, vat_id.start())
    if BUYER_VAT_HINT.search(before) or _BUYERS_WORD.search(before):
        return True
    for above in reversed(lines[max(0, index - _COLUMN_HEAD) : index]):
        head = _cell_at(above, vat_id.start())
        if (
            head
            and not VAT_ID_LABEL.search(head)
            and re.match(r"\s*(?:vos|your|ihre)\b", head, re.I)
        ):
            return True
    return False


def _left_cell(line: str, end: int) -> str:
    """The cell of layout text that ends at `end` (the label before a value)."""
    return COLUMN_GAP.split(line[:end].rstrip())[-1]


def _cell_at(line: str, position: int) -> str | None:
    """The cell of layout text spanning `position`, or starting within a few characters
    of it (a head over its column)."""
    for match in re.finditer(r"\S+(?: \S+)*", line):
        if match.start() - 4 <= position <= match.end():
            return match.group()
    return None


def _unlabelled_vat_id(lines: list[str], buyer: str | None) -> str | None:
    """A VAT id under its label (a footer table: `USt-IdNr` over `DE123456789`), or the
    only one printed that is not the buyer's: one id on an invoice is its seller's."""
    under_label = {
        value
        for index, line in enumerate(lines)
        if index and VAT_ID_LABEL.search(lines[index - 1])
        for value in standalone_vat_ids(line)
    }
    printed = {value for line in lines for value in standalone_vat_ids(line)}
    for found in (under_label, printed):
        found.discard(buyer or "")
        if len(found) == 1:
            return found.pop()
    return None


def vat_id_in_doubt(lines: list[str], seller: str | None, buyer: str | None) -> bool:
    """Another VAT id is printed beside the seller's chosen one, and none of them is said to
    be the buyer's: two candidates alike (a reverse-charge invoice prints the buyer's id
    too, a tax representative his own)."""
    if seller is None or buyer is not None:
        return False
    printed = {value for line in lines for value in standalone_vat_ids(line)}
    return bool(printed - {seller})


_CONTINUES = re.compile(r"\s?\d")
_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,}")


def standalone_vat_ids(line: str) -> list[str]:
    """VAT ids that are not the start of an IBAN (`DE88 2008 0000 0970 ...`) and have
    their country's length (a WEEE number `DE87654321` is no VAT id)."""
    found = [
        re.sub(r"\s", "", m.group(1))
        for m in VAT_ID.finditer(line)
        if not _CONTINUES.match(line, m.end()) and not _IBAN_SHAPE.match(line, m.start())
    ]
    return [value for value in found if _DIGITS.get(value[:2], len(value) - 2) == len(value) - 2]


_DIGITS = {"DE": 9, "FR": 11, "IT": 11, "BE": 10, "LU": 8, "DK": 8, "FI": 8, "PT": 9}
"""Digits after the country code where their number is fixed."""


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
    """The name in a seller block (`Verkäufer` / `Name: Lieferant GmbH`), else the first
    part of the return-address line, else the first short line that carries a legal
    form."""
    return labelled_seller(lines) or legal_form_line(lines)


def labelled_seller(lines: list[str]) -> str | None:
    """The seller as the text says it: in its labelled block, or first on the return
    address line."""
    in_block = block_name(lines, SELLER_LABEL)
    if in_block is not None:
        return in_block
    index = _return_address(lines)
    if index is not None:
        return RETURN_ADDRESS_SEP.split(_left_column(lines[index]))[0].strip()
    return None


def legal_form_line(lines: list[str]) -> str | None:
    """The first short line that carries a legal form: a guess, since any party's name
    may come first. A legal form alone on its line (`Hoffmann Anlagenbau` over `GmbH &
    Co. KG`) ends the name on the line above."""
    for index, line in enumerate(lines):
        if LEGAL_FORM.search(line) and len(line.strip()) <= 45 and not _COPYRIGHT.search(line):
            if _labelled_party(line):
                continue  # `To: ACME Ltd`, `Spett.le Rossi S.r.l.`: the buyer's
            name = _without_label(line.strip().strip(",:"))
            if FORM_ONLY.match(name) and index:
                return f"{_left_column(lines[index - 1]).strip()} {name}"
            return name
    return None


def _labelled_party(line: str) -> bool:
    """A buyer's or a delivery label with its name after it (`To: ACME Ltd`, `Spett.le
    Rossi S.r.l.`), not a name that starts like a label (`Kunde Digital KG`)."""
    for label in (BUYER_LABEL, DELIVERY_LABEL):
        match = label.match(line)
        if match and (
            _VALUE_FOLLOWS.match(line[match.end() :]) or _ADDRESSED.search(match.group())
        ):
            return True
    return False


_COPYRIGHT = re.compile(r"\(c\)|©|copyright", re.IGNORECASE)
"""`(c) AWV e.V. 2020`: whose form the page is, not who sends it."""
FORM_ONLY = re.compile(r"^(?:[&.,]?\s*(?:Co\b|" + LEGAL_FORM.pattern + r")[\s.&,]*)+$")
"""A line that is a legal form alone: the end of a name set over two lines."""


def buyer_name(lines: list[str]) -> str | None:
    """The name in a buyer block (Rechnungsempfänger, Käufer, Bill to, Client, ...),
    else the line under the return-address line."""
    in_block = block_name(lines, BUYER_LABEL)
    if in_block is not None:
        return in_block
    sender = _return_address(lines)
    if sender is None:
        return None
    return _under_return_address(lines, sender)


def _under_return_address(lines: list[str], sender: int) -> str | None:
    """The first line under the return address that starts where it starts (layout text
    keeps columns): a salutation alone (`Firma`, `Herrn`) is passed over, a label
    (`Bauvorhaben:` beside the window) is no name."""
    indent = _indent(lines[sender])
    for line in lines[sender + 1 : sender + 3]:
        if abs(_indent(line) - indent) > _INDENT:
            continue
        candidate = _left_column(line)
        if _SALUTATION.match(candidate.strip()) or candidate.strip().lower() == "firma":
            continue
        usable = not candidate.endswith(":") and not labelled_value(candidate)
        return candidate if usable and name_like(candidate) else None
    return None


_INDENT = 12
"""Characters of layout text a window's lines may start apart (the return address set
smaller)."""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


_BLOCK_DEPTH = 5
"""Lines under a party label searched for its name (number, GLN, contact lines first)."""


def block_name(lines: list[str], label: re.Pattern[str]) -> str | None:
    for index, line in enumerate(lines):
        match = label.match(line)
        if match is None:
            continue
        after = line[match.end() :]
        rest = _left_column(after.strip(" :/"))
        if rest and not bare_label(rest):
            if not _VALUE_FOLLOWS.match(after) and not _ADDRESSED.search(match.group()):
                continue  # `Lieferant GmbH`: a name that starts like a label
            if name_like(_without_label(rest)) and not labelled_value(rest):
                return _without_label(rest)
            continue
        name = _name_under(lines[index + 1 : index + 1 + _BLOCK_DEPTH])
        if name is not None:
            return name
    return None


def _name_under(column: list[str]) -> str | None:
    """The name in the lines under a party label: a `Name:` line's value (on its line or,
    in a form view, the line under it), else the first line naming someone. A label
    ending in its colon (`Leitweg-ID:`, `Straße / Hausnummer:`) is no name."""
    for position, below in enumerate(column):
        raw = _left_column(below).strip()
        text = raw.strip(" :")
        if bare_label(text):
            return None
        if raw.endswith(":"):
            if NAME_LABEL.match(raw) and position + 1 < len(column):
                value = _left_column(column[position + 1]).strip()
                if name_like(value) and not labelled_value(value) and not value.endswith(":"):
                    return value
            continue
        if NAME_LABEL.match(text):
            return _without_label(text)
        if text and name_like(text) and not labelled_value(text):
            following = column[position + 1 : position + 2]
            return _with_form(_company_after(text, following), following)
    return None


def _with_form(name: str, following: list[str]) -> str:
    """`Groenveld Installaties` over `B.V.`: a legal form alone on the next line ends the
    name."""
    below = _left_column(following[0]).strip() if following else ""
    return f"{name} {below}" if below and FORM_ONLY.match(below) else name


def _company_after(text: str, following: list[str]) -> str:
    """A contact person over the company (`M. Jan Schröder` over `Éditions Lefèvre
    SARL`): the company; a person over a street is the buyer himself."""
    if not _PERSON.match(text) or not following:
        return text
    below = _left_column(following[0]).strip()
    if STREET.search(below) or POSTAL.search(below) or labelled_value(below):
        return text
    return below if name_like(below) and not below.endswith(":") else text


_PERSON = re.compile(
    r"^(?:(?:herrn?|frau|mr|mrs|ms|mme|monsieur|madame|dhr|mevr|attn)\b\.?|m\.|z\.\s?hd\.?|hd\.\s"
    r"|c/o)\s*\S",
    re.IGNORECASE,
)
"""A line naming a person by a salutation, or addressed to one (`z. Hd.`, `Attn`)."""


def bare_label(text: str) -> bool:
    """A party label and nothing after it (`Leistungsempfänger`, `Ship to:`): not `Kunde
    Digital KG`, a name that starts like one."""
    for label in (BUYER_LABEL, SELLER_LABEL, DELIVERY_LABEL):
        match = label.match(text)
        if match is not None and not text[match.end() :].strip(" :/"):
            return True
    return False


def _without_label(text: str) -> str:
    """`Name: Grundbesitz GmbH & Co.` -> `Grundbesitz GmbH & Co.`"""
    match = NAME_LABEL.match(text)
    return text[match.end() :].strip() if match else text


_VALUE_FOLLOWS = re.compile(r"^\s*:|^\s{3,}\S")
"""A colon after the label, or a column gap (the value right of its label)."""
_ADDRESSED = re.compile(r"\b(to|an|à|a)\s*$|spett\.?\s?le$|spettabile$|messrs$", re.IGNORECASE)
"""`Bill to ACME`, `Rechnung an Firma X`: the label addresses the name after it."""
_LABELLED = re.compile(r"^[^:]{1,30}:\s*\S")
_CONTACT = re.compile(
    r"(\+?\d[\d /()-]{6,}|www\.|https?://|@|\b(?:tel|fax|phone|telefon|e-?mail)\b)",
    re.IGNORECASE,
)
_SALUTATION = re.compile(
    r"^(herr|frau|herrn|mr|mrs|ms|m\.|mme|monsieur|madame|dhr|mevr|spett\.?\s?le|spettabile"
    r"|egr\.?|gent\.?(?:mo|ma|\.?le)|sr\.?|sra\.?|d\.|dña\.?|messrs)\.?$",
    re.IGNORECASE,
)


def labelled_value(text: str) -> bool:
    """`Nummer: GE2020211`, `Kundennummer: 4711`: a field of the block, not its name."""
    return bool(_LABELLED.match(text)) and not NAME_LABEL.match(text)


def name_like(text: str) -> bool:
    """Letters to name someone by: not digits alone, not a phone or web line, not a bare
    salutation."""
    letters = sum(ch.isalpha() for ch in text)
    return (
        letters >= 3  # `zi`: a scan's stray marks, no name
        and letters >= sum(ch.isdigit() for ch in text)
        and not _CONTACT.search(text)
        and not _SALUTATION.match(text.strip())
        and not re.match(r"^(gln|nummer|number|kundennummer|kunden-?nr)\b", text, re.I)
    )

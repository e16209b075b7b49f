"""Party blocks found by their shape, wherever the page puts them: an address (a name, a
street, a postcode and town) read up its column from the postcode line, and placed by
its region and its neighbours:

- **buyer**: in the DIN 5008 window (form A or B), in a window on the right (the Swiss and
  French letter, form B mirrored), or under a recipient label;
- **seller**: in the letterhead (the top of the page), the footer or a side bar, with
  the seller's own data around it (VAT id, register, bank, phone, web), or under a
  seller label; named again in the footer or the return address.

The name is the address's first line that names someone: salutations (`Firma`, `Herr`),
contact persons, departments and `c/o` lines are not names; a legal form on the next
line (`Hoffmann Anlagenbau` over `GmbH & Co. KG`) belongs to the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from processors.pdf_invoices.labels import (
    BUYER_LABEL,
    DELIVERY_LABEL,
    LEGAL_FORM,
    POSTAL,
    SELLER_LABEL,
    STREET,
)
from processors.pdf_invoices.parties import FORM_ONLY as _FORM_ONLY
from processors.pdf_invoices.parties import labelled_value, name_like
from processors.pdf_layout.lines import Line, PageLayout
from processors.pdf_layout.regions import MM, PageRegions

_DEPTH = 6
"""Lines over a postcode line read for its address (salutation, name over two lines,
department, contact, street)."""
_GAP = 2.2
"""Line heights of white space that end an address upwards."""
_TOP = 26 * MM
"""Above form A's window: the letterhead."""
_WINDOW_BAND = (26 * MM, 100 * MM)
"""Where a window's address begins, on the left or the right."""
_FOOTER = 0.78
_NEIGHBOURS = 10
"""Lines under an address searched for the sender's own data."""


@dataclass(frozen=True, slots=True)
class PartyBlock:
    name: str
    lines: tuple[Line, ...]  # the name's line(s) to the postcode line
    buyer: int  # the score for being the buyer's address
    seller: int  # the score for being the seller's


def party_blocks(page: PageLayout) -> list[PartyBlock]:
    """Every address on the page, with its scores, top to bottom."""
    regions = PageRegions.of(page)
    window = regions.address_window.lines if regions.address_window else ()
    footer = " ".join(line.text for line in regions.footer.lines) if regions.footer else ""
    found: list[PartyBlock] = []
    for line in page.lines:
        if not _town(line.text):
            continue
        above = _column(page, line, below=False)
        read = _address(above)
        if read is None:
            continue
        name, lines, label = read
        if any(name == block.name for block in found):
            continue
        lines = (*lines, line)
        below = _column(page, line, below=True)[:_NEIGHBOURS]
        found.append(
            PartyBlock(
                name,
                lines,
                _buyer_score(page, lines, label, window),
                _seller_score(page, lines, label, below, footer),
            )
        )
    return found


_SALUTATION = re.compile(
    r"^(?:firma|herrn?|frau|mr|mrs|ms|messrs|m\.|mme|monsieur|madame|soci[ée]t[ée]|dhr|mevr"
    r"|sig\.(?:ra)?|sr\.|sra\.|spett\.?\s?le|spettabile|egr\.?|gent\.?(?:mo|ma|\.?le))\.?$",
    re.IGNORECASE,
)
ASIDE = re.compile(
    r"^(?:(?:herrn?|frau|mr|mrs|ms|mme|monsieur|madame|dhr|mevr|attn|z\.\s?hd)\b\.?|hd\.\s|m\.\s|c/o\b"
    r"|abt\b\.?|abteilung|department|dept\b\.?|service\s|buchhaltung|kreditoren|einkauf"
    r"|rechnungseingang|accounts?\s+payable|purchasing|à\s+l'attention|att(?:ention|n)\b)",
    re.IGNORECASE,
)
"""A line of an address that is not its name: a contact person, a department, care of."""


def _address(above: list[Line]) -> tuple[str, tuple[Line, ...], str] | None:
    """The name over a postcode line (`above`: nearest first), its lines, and the party
    label over it (`buyer`, `seller` or empty)."""
    stack: list[Line] = []
    for line in above[:_DEPTH]:
        if stack and stack[-1].box.y0 - line.box.y1 > _GAP * line.height:
            break
        if _town(line.text):
            break  # the end of an address above
        stack.append(line)
    label = ""
    head: list[Line] = []
    for line in reversed(stack):  # top down
        text = line.text.strip()
        kind = _label(text)
        if kind:
            label, head = kind, []
            continue
        head.append(line)
    street = next((i for i, line in enumerate(head) if STREET.search(line.text)), len(head))
    names = [index for index, line in enumerate(head[:street]) if _names(line.text)]
    if not names:
        return None
    formed = [index for index in names if LEGAL_FORM.search(head[index].text)]
    index = (formed or names)[-1]  # a company over its contact; else the nearest line
    # over the street, not a trade name or a logo above it
    name, lines = head[index].text.strip(), [head[index]]
    if _FORM_ONLY.match(name):
        if index == 0 or not name_like(head[index - 1].text):
            return None
        name, lines = f"{head[index - 1].text.strip()} {name}", [head[index - 1], head[index]]
    return name, tuple(lines), label


def _names(text: str) -> bool:
    text = text.strip()
    return (
        name_like(text)
        and not STREET.search(text)
        and not POSTAL.search(text)
        and not _SALUTATION.match(text)
        and not ASIDE.match(text)
        and not labelled_value(text)
        and not text.endswith(":")
        and not _OWN_DATA.search(text)
    ) or bool(_FORM_ONLY.match(text))


_PAYER = re.compile(
    r"^\s*(?:zahlbar\s+durch|payable\s+by|payable\s+par|pagabile\s+da|rechnungsempfänger"
    r"|leistungsempfänger|auftraggeber|invoice\s+to|bill(?:ed)?\s+to|sold\s+to)\b",
    re.IGNORECASE,
)
"""Who pays: the buyer's block, also in a payment part (`Zahlbar durch`, `Payable by`)."""
_PAYEE = re.compile(
    r"^\s*(?:(?:konto|account|compte|conto)\s*/\s*)?(?:zahlbar\s+an|payable\s+to"
    r"|payable\s+à|pagabile\s+a|absender|sender|expéditeur|remit\s+to)\b",
    re.IGNORECASE,
)
"""Who is paid: the seller's block (a Swiss payment part's `Konto / Zahlbar an`)."""
_SITE = re.compile(
    r"^\s*(?:bauvorhaben|baustelle|objekt|leistungsort|lieferort|einsatzort|lieferstelle"
    r"|verbrauchsstelle|abnahmestelle|site(?:\s+address)?|project(?:\s+address)?"
    r"|service\s+address|chantier|lieu\s+d[e']\s*(?:intervention|livraison))\b",
    re.IGNORECASE,
)
"""A place the work was done or the energy used: an address of neither party's name."""


def _label(text: str) -> str:
    """The party a label over an address names: `buyer`, `seller`, `delivery` (or a
    site), or none."""
    if _SITE.match(text):
        return "delivery"
    for kind, label in (("buyer", _PAYER), ("seller", _PAYEE)):
        if label.match(text) and len(text) <= 40:
            return kind
    for kind, label in (("buyer", BUYER_LABEL), ("seller", SELLER_LABEL)):
        match = label.match(text)
        if match is not None and not text[match.end() :].strip(" :/"):
            return kind
    match = DELIVERY_LABEL.match(text)
    if match is not None and not text[match.end() :].strip(" :/"):
        return "delivery"
    return ""


_TOWN = re.compile(
    r"(?:^|[\s,])(?:[A-Z]{1,2}[- ]?)?\d{4,5}(?:\s[A-Z]{2})?\s+[^\W\d]{2,}"
    r"|[^\W\d][\w .'-]*,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\s*$"
    r"|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b[AC-FHKNPRTV-Y]\d{2}\s?[AC-FHKNPRTV-Y\d]{4}\b"
)
"""A postcode and town (`10115 Berlin`, `1012 AB Amsterdam`), a US town, state and ZIP
(`Springfield, IL 62704`), a British postcode (`SW3 4RP`) or an Irish Eircode."""


def _town(text: str) -> bool:
    """A postcode and town, alone on its line: not a return address or a footer line run
    together (`Name · Street · 12345 Town`), not an IBAN or a phone number."""
    return (
        _TOWN.search(text) is not None
        and len(re.findall(r"\s[\u00b7\u2022\u25cf|\u2013-]\s|,", text)) < 2
        and sum(ch.isdigit() for ch in text) <= 7
        and not _OWN_DATA.search(text)
    )


def _column(page: PageLayout, start: Line, below: bool) -> list[Line]:
    """Lines under (or over, nearest first) `start` that begin near its left edge."""
    box = start.box
    found = [
        line
        for line in page.lines
        if abs(line.box.x0 - box.x0) < 3 * start.height
        and (line.middle > box.y1 if below else line.middle < box.y0)
    ]
    return sorted(found, key=lambda line: line.box.y0, reverse=not below)


def _buyer_score(
    page: PageLayout, lines: tuple[Line, ...], label: str, window: tuple[Line, ...]
) -> int:
    top = lines[0]
    score = 4 if label == "buyer" else -4 if label in ("seller", "delivery") else 0
    if any(line in window for line in lines):
        score += 3
    elif _WINDOW_BAND[0] <= top.box.y0 <= _WINDOW_BAND[1] and top.box.x0 > 0.45 * page.width:
        score += 2  # a window on the right
    return score


_OWN_DATA = re.compile(
    r"\b(?:tel|fon|fax|phone|e-?mail|www|iban|bic|swift|ust|vat|mwst|tva|btw|hrb|hra"
    r"|amtsgericht|registergericht|handelsregister|register|siret|siren|rcs|kvk|steuer\w*"
    r"|geschäftsführ\w*|bank\w*|home\s?page|internet|web\w*|logo)\b|@",
    re.IGNORECASE,
)
"""What a sender prints around its own address: contact, tax, register and bank data."""


def _seller_score(
    page: PageLayout, lines: tuple[Line, ...], label: str, below: list[Line], footer: str
) -> int:
    top = lines[0]
    score = 4 if label == "seller" else -4 if label in ("buyer", "delivery") else 0
    if top.box.y0 < _TOP or top.box.y0 > _FOOTER * page.height:
        score += 2
    near = [line for line in below if line.box.y0 - lines[-1].box.y1 < 12 * top.height]
    if sum(bool(_OWN_DATA.search(line.text)) for line in near) >= 2:
        score += 2
    in_footer = top.box.y0 > _FOOTER * page.height
    if footer and not in_footer and top.text.strip().casefold() in footer.casefold():
        score += 1  # named again in the footer
    return score

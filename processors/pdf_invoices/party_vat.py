"""The seller's VAT id told from the buyer's by where it is printed: an id under the
buyer's address (a reverse-charge invoice prints it there, often with the same label as
the seller's) is the buyer's; where the text took it for the seller's, the other id
printed is the seller's, `low` (told by the layout, not by a label)."""

from __future__ import annotations

from dataclasses import replace

from processors.pdf_invoices.fields import Reading
from processors.pdf_invoices.parties import standalone_vat_ids
from processors.pdf_invoices.party_blocks import PartyBlock
from processors.pdf_layout.lines import Line, PageLayout
from processors.results.evidence import EvidenceField

PLACE_DOUBT = "the other VAT id is printed under the buyer's address"
_UNDER = 3.5
"""Line heights under a buyer's town line its VAT id may be printed."""


def with_vat_ids(
    reading: Reading, pages: tuple[PageLayout, ...], blocks: list[PartyBlock]
) -> Reading:
    invoice = reading.invoice
    chosen = invoice.seller.vat_id
    if not pages or chosen is None:
        return reading
    printed = _vat_ids(pages[0])
    buyers = {value for value, line in printed if _under_buyer(line, blocks)}
    if chosen not in buyers:
        return reading
    others = {value for value, _ in printed} - buyers
    if len(others) != 1:
        return reading
    seller = replace(invoice.seller, vat_id=others.pop())
    buyer = replace(invoice.buyer, vat_id=invoice.buyer.vat_id or chosen)
    doubts = {**reading.doubts, EvidenceField.SELLER_VAT_ID: PLACE_DOUBT}
    return replace(reading, invoice=replace(invoice, seller=seller, buyer=buyer), doubts=doubts)


def _vat_ids(page: PageLayout) -> list[tuple[str, Line]]:
    return [(value, line) for line in page.lines for value in standalone_vat_ids(line.text)]


def _under_buyer(line: Line, blocks: list[PartyBlock]) -> bool:
    """In the column of an address placed as the buyer's, just under its town line."""
    for block in blocks:
        if block.buyer <= block.seller:
            continue
        town = block.lines[-1]
        gap = line.box.y0 - town.box.y1
        if abs(line.box.x0 - town.box.x0) < 3 * town.height and -1 < gap < _UNDER * town.height:
            return True
    return False

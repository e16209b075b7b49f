"""Seller and buyer decided together, from the text's labelled readings and the page's
party blocks (`party_blocks.py`):

- a name the text reads under its label (`Verkäufer`, `Bill to`, ...) or from the return
  address stands;
- else the buyer is a labelled block of the page's words, else the address the layout
  places best as the buyer's (a window, left or right), else the first address in the
  upper half that is not the seller's;
- the seller is the address the layout places best as the seller's (letterhead, footer,
  side bar, its own data around it) and that is not the buyer's; the text's guess (the
  first line with a legal form) where no block is the seller's, and where the two
  disagree the layout wins, `low`.

A name read from the layout alone is `low`, with its reason, unless it is the DIN 5008
window's address; so is a name two blocks claim alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from processors.invoice_model import Invoice
from processors.pdf_invoices.fields import Reading
from processors.pdf_invoices.labels import BUYER_LABEL, SELLER_LABEL
from processors.pdf_invoices.letterhead import address_name, geometry_block
from processors.pdf_invoices.parties import labelled_seller, legal_form_line
from processors.pdf_invoices.party_blocks import ASIDE, PartyBlock, party_blocks
from processors.pdf_invoices.party_vat import with_vat_ids
from processors.pdf_invoices.window import window_buyer
from processors.pdf_layout.lines import PageLayout
from processors.results.evidence import EvidenceField
from processors.text_values import lines_of

LAYOUT_DOUBT = "read from the page's layout, not from a labelled line"
TIE_DOUBT = "two address blocks of the page are placed alike for this party"
SAME_DOUBT = "the same name is read for the seller and the buyer"
UNPLACED_DOUBT = "the first company named on the page; no address block places it as the seller"
DISAGREE_DOUBT = "the page's layout places another name as the seller's than the text reads"
WINDOW_DOUBT = "the window's first name and the best placed address block disagree"
_SALUTATION = re.compile(r"^(?:firma|herrn?|frau|mr|mrs|ms|messrs|soci[ée]t[ée])\.?$", re.I)
"""A window's first line that only addresses the company or person under it."""
_PLACED = 2
"""The least score of a block taken for a party by its place alone."""
_SURE = 4
"""A block placed as the seller's by two signs (its place and its own data around it)."""


def with_parties(reading: Reading, pages: tuple[PageLayout, ...], text: str) -> Reading:
    blocks = party_blocks(pages[0]) if pages else []
    reading = _with_buyer(reading, pages, blocks)
    reading = _with_seller(reading, pages, blocks, lines_of(text))
    return _one_name_twice(with_vat_ids(reading, pages, blocks))


def _one_name_twice(reading: Reading) -> Reading:
    """A block that is the seller cannot be the buyer: one name read for both is `low`
    on both."""
    seller, buyer = reading.invoice.seller.name, reading.invoice.buyer.name
    if seller is None or buyer is None or seller.casefold() != buyer.casefold():
        return reading
    doubts = {EvidenceField.SELLER_NAME: SAME_DOUBT, EvidenceField.BUYER_NAME: SAME_DOUBT}
    return replace(reading, doubts={**reading.doubts, **doubts})


def _with_buyer(
    reading: Reading, pages: tuple[PageLayout, ...], blocks: list[PartyBlock]
) -> Reading:
    invoice = reading.invoice
    if invoice.buyer.name is not None:
        return reading
    in_window = window_buyer(pages)
    best, tie = _best(blocks, lambda block: block.buyer - block.seller)
    name = geometry_block(pages, BUYER_LABEL)
    doubt: str | None = LAYOUT_DOUBT
    if name is None and in_window is not None and not _addressing(in_window):
        name, doubt = in_window, None
        if best is not None and best.buyer >= _PLACED and not _same(best.name, name):
            doubt = WINDOW_DOUBT
    if name is None and best is not None and best.buyer >= _PLACED:
        name, doubt = best.name, TIE_DOUBT if tie else LAYOUT_DOUBT
    if name is None and pages:
        name = address_name(pages[0], invoice.seller.name)
    if name is None:
        return reading
    buyer = replace(invoice.buyer, name=name)
    return _set(reading, EvidenceField.BUYER_NAME, replace(invoice, buyer=buyer), doubt)


def _with_seller(
    reading: Reading, pages: tuple[PageLayout, ...], blocks: list[PartyBlock], lines: list[str]
) -> Reading:
    """The text's labelled seller stands, then a labelled block of the page's words. The
    text's guess (the first line with a legal form) is never the buyer's; a block placed
    as the seller's by two signs overrules it, and one placed by one sign, or none placed
    alike, leaves it `low`. Without a guess the best placed block, else the letterhead's
    address."""
    invoice = reading.invoice
    buyer = (invoice.buyer.name or "").casefold()
    buyers = {block.name.casefold() for block in blocks if block.buyer > block.seller}
    mine = [block for block in blocks if block.name.casefold() != buyer]
    best, tie = _best(mine, lambda block: block.seller - block.buyer)
    placed = best if best is not None and best.seller >= _PLACED > best.buyer else None
    if labelled_seller(lines) is not None and invoice.seller.name is not None:
        if placed is None or placed.seller < _SURE or _same(placed.name, invoice.seller.name):
            return reading
        return _set(reading, EvidenceField.SELLER_NAME, invoice, DISAGREE_DOUBT)
    guess = legal_form_line(lines)
    name: str | None = geometry_block(pages, SELLER_LABEL)
    doubt: str | None = LAYOUT_DOUBT
    if name is not None:
        pass
    elif guess is not None and guess.casefold() not in buyers | {buyer}:
        name, doubt = _guess_or_block(guess, placed, tie)
    elif placed is not None:
        name, doubt = placed.name, TIE_DOUBT if tie else LAYOUT_DOUBT
    else:
        name = address_name(pages[0], invoice.buyer.name) if pages else None
    if name is None or (name == invoice.seller.name and doubt is None):
        return reading
    seller = replace(invoice.seller, name=name)
    return _set(reading, EvidenceField.SELLER_NAME, replace(invoice, seller=seller), doubt)


def _guess_or_block(guess: str, placed: PartyBlock | None, tie: bool) -> tuple[str, str | None]:
    """The text's first company, or the block the layout places as the seller's."""
    if placed is None:
        return guess, UNPLACED_DOUBT
    if _same(placed.name, guess):
        return guess, TIE_DOUBT if tie else None
    if placed.seller >= _SURE and not tie:
        return placed.name, DISAGREE_DOUBT
    return guess, DISAGREE_DOUBT


def _addressing(line: str) -> bool:
    """A window's line that addresses the name (`Firma`, `Herr`) or a contact, a
    department, care of: not the name itself."""
    return bool(_SALUTATION.match(line) or ASIDE.match(line))


def _same(one: str, other: str) -> bool:
    one, other = one.casefold(), other.casefold()
    return one == other or one.startswith(other) or other.startswith(one)


def _best(
    blocks: list[PartyBlock], key: Callable[[PartyBlock], int]
) -> tuple[PartyBlock | None, bool]:
    """The block ranked first by `key`, and whether another ranks alike."""
    ranked = sorted(blocks, key=key, reverse=True)
    if not ranked:
        return None, False
    return ranked[0], len(ranked) > 1 and key(ranked[1]) == key(ranked[0])


def _set(reading: Reading, field: EvidenceField, invoice: Invoice, doubt: str | None) -> Reading:
    doubts = dict(reading.doubts)
    if doubt is not None:
        doubts[field] = doubt
    else:
        doubts.pop(field, None)
    return replace(reading, invoice=invoice, doubts=doubts)

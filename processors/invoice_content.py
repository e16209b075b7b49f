"""Is it a proper invoice under §14 UStG (issue 42, part 1): a verdict per mandatory
item of §14 Abs. 4 UStG, §33 UStDV's reduced list up to 250 EUR gross, and §14a's
note and recipient VAT id for reverse charge and intra-community supplies.

An e-invoice is structured: an item it lacks is `missing`. A PDF is read from its
text, and its reader does not find everything a person sees (addresses and lines are
not read into fields): an item the reader did not find is looked for in the text by
its labels and shapes, and only an item with no trace of it at all is `missing`; a
trace that cannot be tied to the item (a VAT id-shaped number that may be the buyer's)
is `not_determinable`. The items and their texts are data (invoice_content_items.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from processors.invoice_content_items import (
    BUSINESS_TERMS,
    ITEMS,
    SMALL_INVOICE_LIMIT,
    ContentItem,
)
from processors.invoice_content_text import TextSigns
from processors.invoice_model import Invoice, Party
from processors.json_fields import OMITTED_WHEN_NONE

# VAT categories (UNCL 5305) that charge no VAT and need a note why: exempt, reverse
# charge, intra-community, export, outside the scope.
_NO_VAT_CATEGORIES = frozenset({"E", "AE", "K", "G", "O"})
_REVERSE_CHARGE_CATEGORIES = frozenset({"AE", "K"})
_SMALL_INVOICE_ITEMS = frozenset(i for i, text in ITEMS.items() if text.small_reference)


class ItemStatus(StrEnum):
    PRESENT = "present"
    MISSING = "missing"
    NOT_DETERMINABLE = "not_determinable"  # a trace in the text that cannot be tied to it
    NOT_APPLICABLE = "not_applicable"  # e.g. the exemption note on an invoice with VAT
    NOT_REQUIRED = "not_required"  # up to 250 EUR: not on §33 UStDV's list


class ContentRegime(StrEnum):
    FULL = "section_14"  # §14 Abs. 4 UStG
    SMALL = "section_33"  # §33 UStDV, at most 250 EUR gross


@dataclass(frozen=True, slots=True)
class ItemVerdict:
    item: ContentItem
    status: ItemStatus
    reference: str  # the legal reference that asks for it
    where: str | None = field(default=None, metadata=OMITTED_WHEN_NONE)


@dataclass(frozen=True, slots=True)
class ContentCheck:
    regime: ContentRegime
    items: tuple[ItemVerdict, ...]

    @property
    def missing(self) -> tuple[ContentItem, ...]:
        return tuple(v.item for v in self.items if v.status is ItemStatus.MISSING)


@dataclass(frozen=True, slots=True)
class _Found:
    status: ItemStatus
    where: str | None = None


_PRESENT = _Found(ItemStatus.PRESENT)
_MISSING = _Found(ItemStatus.MISSING)
_UNSURE = _Found(ItemStatus.NOT_DETERMINABLE)
_NOT_APPLICABLE = _Found(ItemStatus.NOT_APPLICABLE)


def content_check(
    invoice: Invoice,
    text: str | None,
    pages: Mapping[str, int] | None = None,
    delivery_terms: tuple[str, ...] = (),
) -> ContentCheck:
    """`text`: a PDF's text, None for an e-invoice: then `invoice` is all there is,
    and `delivery_terms` the business terms of the supply date the XML carries (BT-72,
    BG-14), which the normalized invoice does not keep. `pages`: the page each field of
    a PDF was printed on, by its evidence key ("number", "seller.name")."""
    signs = TextSigns(text) if text is not None else None
    reader = _Reader(invoice, signs, pages or {}, delivery_terms)
    reverse_charge = reader.reverse_charge()
    regime = ContentRegime.SMALL if reader.small() and not reverse_charge else ContentRegime.FULL
    verdicts = []
    for item in ContentItem:
        if regime is ContentRegime.SMALL and item not in _SMALL_INVOICE_ITEMS:
            found = _Found(ItemStatus.NOT_REQUIRED)
        else:
            found = reader.find(item, regime, reverse_charge)
        text_of = ITEMS[item]
        reference = (
            text_of.small_reference
            if regime is ContentRegime.SMALL and text_of.small_reference
            else text_of.reference
        )
        verdicts.append(ItemVerdict(item, found.status, reference, found.where))
    return ContentCheck(regime, tuple(verdicts))


class _Reader:
    def __init__(
        self,
        invoice: Invoice,
        signs: TextSigns | None,
        pages: Mapping[str, int],
        delivery_terms: tuple[str, ...],
    ) -> None:
        self.invoice = invoice
        self.signs = signs
        self.pages = pages
        self.delivery_terms = delivery_terms

    # --- what kind of invoice -----------------------------------------------------------

    def small(self) -> bool:
        gross = self.invoice.totals.gross or self.invoice.totals.amount_due
        currency = (self.invoice.currency or "EUR").upper()
        return gross is not None and currency == "EUR" and 0 <= gross <= SMALL_INVOICE_LIMIT

    def categories(self) -> set[str]:
        codes = {row.category_code for row in self.invoice.vat_breakdown}
        codes |= {line.vat_category_code for line in self.invoice.lines}
        return {code.strip().upper() for code in codes if code}

    def reverse_charge(self) -> bool:
        if self.categories() & _REVERSE_CHARGE_CATEGORIES:
            return True
        return self.signs is not None and self.signs.reverse_charge_note() is not None

    def charges_no_vat(self) -> bool:
        """No VAT charged for a reason that needs a note: exempt, reverse charge,
        intra-community, export, outside the scope. A zero rate (Z) states its rate."""
        categories = self.categories()
        if categories:
            return categories <= _NO_VAT_CATEGORIES
        rates = [row.rate for row in self.invoice.vat_breakdown if row.rate is not None]
        if rates:
            return all(rate == 0 for rate in rates)
        vat = self.invoice.totals.vat
        return vat is not None and vat == 0

    # --- the items ------------------------------------------------------------------------

    def find(self, item: ContentItem, regime: ContentRegime, reverse_charge: bool) -> _Found:
        match item:
            case ContentItem.SUPPLIER:
                return self.party(self.invoice.seller, "seller.name")
            case ContentItem.RECIPIENT:
                return self.party(self.invoice.buyer, "buyer.name")
            case ContentItem.SUPPLIER_TAX_ID:
                return self.supplier_tax_id()
            case ContentItem.ISSUE_DATE:
                return self.issue_date()
            case ContentItem.INVOICE_NUMBER:
                return self.number()
            case ContentItem.GOODS_SERVICES:
                return self.goods()
            case ContentItem.SUPPLY_DATE:
                return self.supply_date()
            case ContentItem.NET_PER_RATE:
                return self.net_per_rate()
            case ContentItem.TAX_RATE_AMOUNT:
                # Without VAT the note of the exemption stands for rate and amount.
                return _NOT_APPLICABLE if self.charges_no_vat() else self.tax(regime)
            case ContentItem.EXEMPTION_NOTE:
                return self.exemption_note() if self.charges_no_vat() else _NOT_APPLICABLE
            case ContentItem.REVERSE_CHARGE_NOTE:
                return self.reverse_charge_note() if reverse_charge else _NOT_APPLICABLE
            case ContentItem.RECIPIENT_VAT_ID:
                return self.recipient_vat_id() if reverse_charge else _NOT_APPLICABLE

    def from_model(self, item: ContentItem, field_key: str | None = None) -> _Found:
        if self.signs is None:
            return _Found(ItemStatus.PRESENT, BUSINESS_TERMS[item])
        page = self.pages.get(field_key) if field_key else None
        return _Found(ItemStatus.PRESENT, f"page {page}" if page else "text")

    def from_text(self, label: str | None, fallback: _Found = _MISSING) -> _Found:
        """A label or shape found in the PDF's text, quoted as where."""
        return _Found(ItemStatus.PRESENT, f"text: {label}") if label else fallback

    def party(self, party: Party, field_key: str) -> _Found:
        """A PDF's reader keeps no addresses: the address is looked for under the
        party's name in the text (before the other party's). Which name a reader took
        for which party is not sure enough to call an address missing while the text
        shows one: only a text without any address says missing."""
        item = ContentItem.SUPPLIER if party is self.invoice.seller else ContentItem.RECIPIENT
        has_address = party.address is not None and bool(
            party.address.lines or party.address.city or party.address.postal_code
        )
        if self.signs is None or (party.name and has_address):
            return self.from_model(item, field_key) if party.name and has_address else _MISSING
        other = self.invoice.buyer if item is ContentItem.SUPPLIER else self.invoice.seller
        near = self.signs.address_near(party.name, other.name) if party.name else None
        if near is not None:
            where = self.from_model(item, field_key).where
            return _Found(ItemStatus.PRESENT, f"{where}; text: {near}")
        return _UNSURE if self.signs.addresses() else _MISSING

    def supplier_tax_id(self) -> _Found:
        seller = self.invoice.seller
        if seller.vat_id or seller.tax_number:
            return self.from_model(ContentItem.SUPPLIER_TAX_ID, "seller.vatId")
        if self.signs is None:
            return _MISSING
        return _UNSURE if self.signs.tax_id_traces() else _MISSING

    def issue_date(self) -> _Found:
        if self.invoice.issue_date is not None:
            if self.signs is not None and self.signs.only_other_dates():
                return _MISSING
            return self.from_model(ContentItem.ISSUE_DATE, "issueDate")
        if self.signs is None:
            return _MISSING
        return _UNSURE if self.signs.has_date() else _MISSING

    def number(self) -> _Found:
        if self.invoice.number and self.invoice.number.strip():
            return self.from_model(ContentItem.INVOICE_NUMBER, "number")
        if self.signs is None:
            return _MISSING
        return _UNSURE if self.signs.number_label() else _MISSING

    def goods(self) -> _Found:
        if any((line.name or line.description or "").strip() for line in self.invoice.lines):
            return self.from_model(ContentItem.GOODS_SERVICES)
        if self.signs is None:
            return _MISSING
        return self.from_text(self.signs.goods_label())

    def supply_date(self) -> _Found:
        if self.signs is None:
            if self.delivery_terms:
                return _Found(ItemStatus.PRESENT, ", ".join(self.delivery_terms))
            note = TextSigns("\n".join(self.invoice.notes)).supply_date_label()
            return _Found(ItemStatus.PRESENT, f"BT-22: {note}") if note else _MISSING
        return self.from_text(self.signs.supply_date_label())

    def net_per_rate(self) -> _Found:
        rows = self.invoice.vat_breakdown
        if rows and all(row.taxable_amount is not None for row in rows):
            return self.from_model(ContentItem.NET_PER_RATE, "totals.net")
        totals = self.invoice.totals
        # A PDF's reader may take another amount for the net: its label vouches for it.
        labelled = self.signs is None or self.signs.net_label() is not None
        if len(rows) <= 1 and totals.net is not None and labelled:
            return self.from_model(ContentItem.NET_PER_RATE, "totals.net")
        if totals.vat == 0 and totals.gross is not None:  # no VAT: the gross is the net
            return self.from_model(ContentItem.NET_PER_RATE, "totals.gross")
        if self.signs is None:
            return _MISSING
        if totals.gross is not None and totals.vat is not None and len(rows) <= 1:
            printed = self.signs.amount(totals.gross - totals.vat)
            if printed:
                return self.from_text(printed)
        return _MISSING

    def tax(self, regime: ContentRegime) -> _Found:
        rows = self.invoice.vat_breakdown
        rates = bool(rows) and all(row.rate is not None for row in rows)
        amounts = bool(rows) and all(row.tax_amount is not None for row in rows)
        vat = self.invoice.totals.vat
        if self.signs is None:
            if regime is ContentRegime.SMALL:
                ok = rates and self.invoice.totals.gross is not None
            else:
                ok = rates and (amounts or vat is not None)
            return self.from_model(ContentItem.TAX_RATE_AMOUNT) if ok else _MISSING
        if not rates and self.signs.rate() is None:
            return _MISSING  # a rate is printed as a percentage: none is
        if regime is ContentRegime.SMALL or amounts or vat is not None:
            return self.from_model(ContentItem.TAX_RATE_AMOUNT, "totals.vat")
        totals = self.invoice.totals
        if totals.gross is not None and totals.net is not None:
            printed = self.signs.amount(totals.gross - totals.net)
            if printed:
                return self.from_text(printed)
        return _UNSURE

    def exemption_note(self) -> _Found:
        if self._model_note(exemption=True):
            return self.from_model(ContentItem.EXEMPTION_NOTE)
        if self.signs is None:
            return _MISSING
        return self.from_text(self.signs.exemption_note())

    def reverse_charge_note(self) -> _Found:
        if self._model_note(exemption=False):
            return self.from_model(ContentItem.REVERSE_CHARGE_NOTE)
        if self.signs is None:
            return _MISSING
        return self.from_text(self.signs.reverse_charge_note())

    def _model_note(self, *, exemption: bool) -> bool:
        """An e-invoice's exemption reason (BT-120) on a row of a category without VAT
        is the note, whatever its wording; else a note's words."""
        rows = self.invoice.vat_breakdown
        wanted = _NO_VAT_CATEGORIES if exemption else _REVERSE_CHARGE_CATEGORIES
        if any(
            (row.exemption_reason or "").strip() and (row.category_code or "").upper() in wanted
            for row in rows
        ):
            return True
        reasons = [row.exemption_reason or "" for row in rows]
        texts = [*reasons, *self.invoice.notes]
        signs = TextSigns("\n".join(texts))
        note = signs.exemption_note() if exemption else signs.reverse_charge_note()
        return note is not None

    def recipient_vat_id(self) -> _Found:
        if self.invoice.buyer.vat_id:
            return self.from_model(ContentItem.RECIPIENT_VAT_ID)
        if self.signs is None:
            return _MISSING
        ids = self.signs.vat_ids()
        seller = re.sub(r"[^0-9A-Z]", "", (self.invoice.seller.vat_id or "").upper())
        others = [i for i in ids if i != seller]
        if others and (seller or len(ids) >= 2):
            return self.from_text(others[0])
        return _UNSURE if others else _MISSING

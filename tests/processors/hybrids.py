"""Generated hybrid invoices (a visible PDF with a Factur-X CII XML embedded), correct
ones and ones with one known mismatch, and the measurement of the hybrid check over
them (processors/einvoice/hybrid_check.py; docs/einvoice.md, "Hybrid invoices checked
against themselves"; `make corpus-report`).

Per seed: invoice values (number, dates, VAT rows, sometimes a prepayment, an IBAN)
drawn at random, rendered in every layout of tests/processors/hybrid_layouts.py. A
mismatch changes one field, in the XML or in the visible text, the way a wrong value
looks in practice: a digit typed wrong, a date some days off or day and month swapped,
an amount off by a cent, a euro or a digit, another bank account.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum

from lxml import etree

from processors.einvoice.hybrid_check import HybridCheck, HybridField
from processors.einvoice.hybrid_pdf import check_pdf_hybrid
from processors.einvoice.pdf_attachment import find_embedded_invoice
from processors.einvoice.read_cii import read_cii
from processors.xmlsafe import parse_xml
from tests.processors.hybrid_layouts import (
    LAYOUTS,
    HybridValues,
    Layout,
    Printed,
    Sheet,
    VatRow,
    prints_amount_due,
)

RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
EN16931 = "urn:cen.eu:en16931:2017"


class Side(StrEnum):
    XML = "xml"
    TEXT = "text"


# --- invoice values --------------------------------------------------------------------

_NUMBER_FORMATS = ("RE-{y}-{n:04d}", "F{y}{n:04d}", "INV/{y}/{n}", "{n:06d}", "R{y}{n:05d}-A")
_RATE_SETS = ((19, 7), (20, 10, 5.5), (21, 9), (19,), (20,))
_COUNTRIES = {"DE": (8, 10), "FR": (10, 11, 2), "NL": (4, 10), "AT": (5, 11)}
_SELLERS = ("Beispiel Handel GmbH", "Nordlicht Software AG", "Atelier Dupont SARL", "Van Dijk BV")
_BUYERS = ("Kunde Digital KG", "Acme Trading Ltd", "Client Exemple SA", "Klant Holding NV")


def random_iban(rng: random.Random, country: str | None = None) -> str:
    """A valid IBAN (checksum right) of DE, FR, NL or AT length."""
    country = country or rng.choice(sorted(_COUNTRIES))
    parts = _COUNTRIES[country]
    body = "".join(
        "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(size))
        if country == "NL" and index == 0
        else "".join(rng.choice("0123456789") for _ in range(size))
        for index, size in enumerate(parts)
    )
    numeric = "".join(str(int(char, 36)) for char in body + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{body}"


def random_values(seed: int) -> HybridValues:
    rng = random.Random(seed)
    issued = date(2023, 1, 1) + timedelta(days=rng.randrange(3 * 365))
    number = rng.choice(_NUMBER_FORMATS).format(y=issued.year, n=rng.randrange(1, 99999))
    rates = rng.choice(_RATE_SETS)
    rows = tuple(
        VatRow(Decimal(str(rate)), Decimal(rng.randrange(500, 900_000)) / 100) for rate in rates
    )
    values = HybridValues(
        number=number,
        issue_date=issued,
        delivery_date=issued - timedelta(days=rng.choice((0, 0, 1, 2, 5))),
        due_date=issued + timedelta(days=rng.choice((14, 30))),
        seller=rng.choice(_SELLERS),
        buyer=rng.choice(_BUYERS),
        iban=random_iban(rng),
        vat_rows=rows,
    )
    if rng.random() < 0.25:
        return replace(values, prepaid=(values.gross * Decimal("0.3")).quantize(Decimal("0.01")))
    return values


# --- the embedded XML ------------------------------------------------------------------


def cii_xml(values: HybridValues, shown: Printed) -> bytes:
    """An EN 16931 CII invoice of `values`, the five checked fields from `shown`."""
    root = etree.Element(
        f"{{{RSM}}}CrossIndustryInvoice", nsmap={"rsm": RSM, "ram": RAM, "udt": UDT}
    )
    guideline = _sub(
        _sub(root, RSM, "ExchangedDocumentContext"),
        RAM,
        "GuidelineSpecifiedDocumentContextParameter",
    )
    _sub(guideline, RAM, "ID", EN16931)
    document = _sub(root, RSM, "ExchangedDocument")
    _sub(document, RAM, "ID", shown.number)
    _sub(document, RAM, "TypeCode", "380")
    _date(_sub(document, RAM, "IssueDateTime"), shown.issue_date)
    trade = _sub(root, RSM, "SupplyChainTradeTransaction")
    for index, row in enumerate(values.vat_rows, start=1):
        _line(trade, index, row)
    agreement = _sub(trade, RAM, "ApplicableHeaderTradeAgreement")
    _party(agreement, "SellerTradeParty", values.seller, "DE123456789")
    _party(agreement, "BuyerTradeParty", values.buyer, None)
    delivery = _sub(
        _sub(trade, RAM, "ApplicableHeaderTradeDelivery"), RAM, "ActualDeliverySupplyChainEvent"
    )
    _date(_sub(delivery, RAM, "OccurrenceDateTime"), values.delivery_date)
    _settlement(_sub(trade, RAM, "ApplicableHeaderTradeSettlement"), values, shown)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _sub(parent: etree._Element, ns: str, name: str, text: str | None = None) -> etree._Element:
    element = etree.SubElement(parent, f"{{{ns}}}{name}")
    element.text = text
    return element


def _date(parent: etree._Element, value: date) -> None:
    _sub(parent, UDT, "DateTimeString", f"{value:%Y%m%d}").set("format", "102")


def _tax(parent: etree._Element, row: VatRow, *, header: bool) -> None:
    tax = _sub(parent, RAM, "ApplicableTradeTax")
    if header:
        _sub(tax, RAM, "CalculatedAmount", f"{row.tax:.2f}")
    _sub(tax, RAM, "TypeCode", "VAT")
    if header:
        _sub(tax, RAM, "BasisAmount", f"{row.net:.2f}")
    _sub(tax, RAM, "CategoryCode", "S")
    _sub(tax, RAM, "RateApplicablePercent", f"{row.rate:.2f}")


def _line(trade: etree._Element, index: int, row: VatRow) -> None:
    item = _sub(trade, RAM, "IncludedSupplyChainTradeLineItem")
    _sub(_sub(item, RAM, "AssociatedDocumentLineDocument"), RAM, "LineID", str(index))
    _sub(_sub(item, RAM, "SpecifiedTradeProduct"), RAM, "Name", f"Leistung {index}")
    price = _sub(_sub(item, RAM, "SpecifiedLineTradeAgreement"), RAM, "NetPriceProductTradePrice")
    _sub(price, RAM, "ChargeAmount", f"{row.net:.2f}")
    quantity = _sub(_sub(item, RAM, "SpecifiedLineTradeDelivery"), RAM, "BilledQuantity", "1")
    quantity.set("unitCode", "C62")
    settlement = _sub(item, RAM, "SpecifiedLineTradeSettlement")
    _tax(settlement, row, header=False)
    summation = _sub(settlement, RAM, "SpecifiedTradeSettlementLineMonetarySummation")
    _sub(summation, RAM, "LineTotalAmount", f"{row.net:.2f}")


def _party(agreement: etree._Element, role: str, name: str, vat_id: str | None) -> None:
    party = _sub(agreement, RAM, role)
    _sub(party, RAM, "Name", name)
    address = _sub(party, RAM, "PostalTradeAddress")
    _sub(address, RAM, "PostcodeCode", "80331")
    _sub(address, RAM, "LineOne", "Hauptstraße 5")
    _sub(address, RAM, "CityName", "München")
    _sub(address, RAM, "CountryID", "DE")
    if vat_id:
        _sub(_sub(party, RAM, "SpecifiedTaxRegistration"), RAM, "ID", vat_id).set("schemeID", "VA")


def _settlement(settlement: etree._Element, values: HybridValues, shown: Printed) -> None:
    _sub(settlement, RAM, "InvoiceCurrencyCode", values.currency)
    means = _sub(settlement, RAM, "SpecifiedTradeSettlementPaymentMeans")
    _sub(means, RAM, "TypeCode", "58")
    account = _sub(means, RAM, "PayeePartyCreditorFinancialAccount")
    _sub(account, RAM, "IBANID", shown.iban)
    for row in values.vat_rows:
        _tax(settlement, row, header=True)
    _date(
        _sub(_sub(settlement, RAM, "SpecifiedTradePaymentTerms"), RAM, "DueDateDateTime"),
        values.due_date,
    )
    summation = _sub(settlement, RAM, "SpecifiedTradeSettlementHeaderMonetarySummation")
    _sub(summation, RAM, "LineTotalAmount", f"{values.net:.2f}")
    _sub(summation, RAM, "TaxBasisTotalAmount", f"{values.net:.2f}")
    _sub(summation, RAM, "TaxTotalAmount", f"{values.vat:.2f}").set("currencyID", values.currency)
    _sub(summation, RAM, "GrandTotalAmount", f"{shown.gross:.2f}")
    if values.prepaid:
        _sub(summation, RAM, "TotalPrepaidAmount", f"{values.prepaid:.2f}")
    _sub(summation, RAM, "DuePayableAmount", f"{shown.amount_due:.2f}")


# --- hybrids and mismatches ------------------------------------------------------------


def hybrid_pdf(layout: Layout, values: HybridValues, visible: Printed, xml: bytes) -> bytes:
    sheet = Sheet()
    layout(sheet, values, visible)
    sheet.embed(xml, "factur-x.xml")
    return sheet.bytes()


def mutated(field: HybridField, shown: Printed, rng: random.Random) -> Printed:
    """`shown` with `field` changed as a wrong value would be."""
    if field is HybridField.INVOICE_NUMBER:
        return replace(shown, number=_other_digit(shown.number, rng))
    if field is HybridField.ISSUE_DATE:
        return replace(shown, issue_date=_other_date(shown.issue_date, rng))
    if field is HybridField.GROSS_TOTAL:
        return replace(shown, gross=_other_amount(shown.gross, rng))
    if field is HybridField.AMOUNT_DUE:
        return replace(shown, amount_due=_other_amount(shown.amount_due, rng))
    if rng.random() < 0.5:
        return replace(shown, iban=shown.iban[:4] + _other_digit(shown.iban[4:], rng))
    return replace(shown, iban=random_iban(rng, shown.iban[:2]))


def _other_digit(text: str, rng: random.Random) -> str:
    positions = [i for i, char in enumerate(text) if char.isdigit()]
    at = rng.choice(positions)
    digit = rng.choice([d for d in "0123456789" if d != text[at]])
    return text[:at] + digit + text[at + 1 :]


def _other_date(value: date, rng: random.Random) -> date:
    if value.day <= 12 and value.day != value.month and rng.random() < 0.25:
        return value.replace(day=value.month, month=value.day)
    return value + timedelta(days=rng.choice((-30, -3, -2, -1, 1, 2, 3, 7, 365)))


def _other_amount(value: Decimal, rng: random.Random) -> Decimal:
    change = rng.choice(("cent", "euro", "ten", "digit", "swap"))
    if change in ("cent", "euro", "ten"):
        step = {"cent": Decimal("0.01"), "euro": Decimal("1.00"), "ten": Decimal("10.00")}[change]
        return value + step if rng.random() < 0.5 or value <= step else value - step
    text = f"{value:.2f}"
    if change == "swap":
        positions = [
            i for i in range(len(text) - 1) if "." not in text[i : i + 2] and text[i] != text[i + 1]
        ]
        if positions:
            at = rng.choice(positions)
            return Decimal(text[:at] + text[at + 1] + text[at] + text[at + 2 :])
    return Decimal(_other_digit(text, rng))


# --- measuring -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    layout: str
    seed: int
    field: HybridField | None  # the changed field; None for a correct hybrid
    side: Side | None
    check: HybridCheck

    @property
    def flagged(self) -> bool:
        return bool(self.check.mismatches)

    @property
    def caught(self) -> bool:
        return self.field in self.check.mismatches


def checked(pdf: bytes) -> HybridCheck:
    """What the hybrid check says of a hybrid PDF, as the e-invoice processor asks it:
    the XML from its attachment, the text from its text layer."""
    embedded = find_embedded_invoice(pdf)
    assert embedded is not None
    check = check_pdf_hybrid(pdf, read_cii(parse_xml(embedded.data).getroot()))
    assert check is not None
    return check


def cases(
    seeds: range, layouts: tuple[Layout, ...] = LAYOUTS, *, mismatches: bool = True
) -> Iterator[Case]:
    """Per seed and layout: the correct hybrid, then (unless `mismatches` is False) one
    mismatch per field and side."""
    for seed in seeds:
        values = random_values(seed)
        rng = random.Random(seed * 7919)
        for layout in layouts:
            truth = Printed.of(values)
            pdf = hybrid_pdf(layout, values, truth, cii_xml(values, truth))
            yield Case(layout.__name__, seed, None, None, checked(pdf))
            if not mismatches:
                continue
            for field in HybridField:
                for side in Side:
                    if (
                        side is Side.TEXT
                        and field is HybridField.AMOUNT_DUE
                        and not prints_amount_due(layout, values)
                    ):
                        continue
                    wrong = mutated(field, truth, rng)
                    xml, visible = (wrong, truth) if side is Side.XML else (truth, wrong)
                    pdf = hybrid_pdf(layout, values, visible, cii_xml(values, xml))
                    yield Case(layout.__name__, seed, field, side, checked(pdf))


@dataclass(frozen=True, slots=True)
class Rates:
    correct: int
    false_flags: int
    mismatches: int
    caught: int

    @property
    def caught_rate(self) -> float:
        return self.caught / max(self.mismatches, 1)

    @property
    def false_flag_rate(self) -> float:
        return self.false_flags / max(self.correct, 1)


def rates(measured: list[Case]) -> Rates:
    correct = [case for case in measured if case.field is None]
    wrong = [case for case in measured if case.field is not None]
    return Rates(
        correct=len(correct),
        false_flags=sum(case.flagged for case in correct),
        mismatches=len(wrong),
        caught=sum(case.caught for case in wrong),
    )

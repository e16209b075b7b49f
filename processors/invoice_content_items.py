"""The mandatory items of an invoice under German VAT law (issue 42, part 1), as data:
each item's legal reference and its texts in English and German, the way the findings
of the business terms are data (processors/einvoice/business_terms.py).

§14 Abs. 4 UStG lists what a full invoice carries; §33 UStDV the reduced list of an
invoice of at most 250 EUR gross (Kleinbetragsrechnung); §14a UStG what reverse-charge
and intra-community invoices carry on top. processors/invoice_content.py decides each
item's verdict; the web application shows these texts (docs/checks.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

SMALL_INVOICE_LIMIT = Decimal("250")
"""§33 UStDV: an invoice whose gross total is at most this many euros."""


class ContentItem(StrEnum):
    SUPPLIER = "supplier_name_address"
    RECIPIENT = "recipient_name_address"
    SUPPLIER_TAX_ID = "supplier_tax_id"
    ISSUE_DATE = "issue_date"
    INVOICE_NUMBER = "invoice_number"
    GOODS_SERVICES = "goods_services"
    SUPPLY_DATE = "supply_date"
    NET_PER_RATE = "net_per_rate"
    TAX_RATE_AMOUNT = "tax_rate_amount"
    EXEMPTION_NOTE = "exemption_note"
    REVERSE_CHARGE_NOTE = "reverse_charge_note"
    RECIPIENT_VAT_ID = "recipient_vat_id"


@dataclass(frozen=True, slots=True)
class ItemText:
    reference: str  # the full invoice's legal reference
    small_reference: str | None  # §33 UStDV's, None: not required up to 250 EUR
    name_en: str
    name_de: str
    missing_en: str  # what to ask the supplier for
    missing_de: str


ITEMS: dict[ContentItem, ItemText] = {
    ContentItem.SUPPLIER: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 1 UStG",
        "§33 Satz 1 Nr. 1 UStDV",
        "Supplier's full name and address",
        "Vollständiger Name und Anschrift des leistenden Unternehmers",
        "Ask the supplier for an invoice that names it with its full address.",
        "Beim Lieferanten eine Rechnung mit vollständigem Namen und Anschrift anfordern.",
    ),
    ContentItem.RECIPIENT: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 1 UStG",
        None,
        "Recipient's full name and address",
        "Vollständiger Name und Anschrift des Leistungsempfängers",
        "Ask for an invoice addressed to your company with its full address.",
        "Eine Rechnung anfordern, die an Ihre Firma mit vollständiger Anschrift gerichtet ist.",
    ),
    ContentItem.SUPPLIER_TAX_ID: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 2 UStG",
        None,
        "Supplier's tax number or VAT id",
        "Steuernummer oder USt-IdNr. des leistenden Unternehmers",
        "Ask the supplier to add its tax number or VAT id.",
        "Beim Lieferanten die Angabe der Steuernummer oder USt-IdNr. anfordern.",
    ),
    ContentItem.ISSUE_DATE: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 3 UStG",
        "§33 Satz 1 Nr. 2 UStDV",
        "Issue date",
        "Ausstellungsdatum",
        "Ask for an invoice that states when it was issued.",
        "Eine Rechnung mit Ausstellungsdatum anfordern.",
    ),
    ContentItem.INVOICE_NUMBER: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 4 UStG",
        None,
        "Unique invoice number",
        "Fortlaufende, einmalige Rechnungsnummer",
        "Ask for an invoice with its invoice number.",
        "Eine Rechnung mit Rechnungsnummer anfordern.",
    ),
    ContentItem.GOODS_SERVICES: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 5 UStG",
        "§33 Satz 1 Nr. 3 UStDV",
        "Quantity and kind of the goods, or kind and extent of the services",
        "Menge und Art der Gegenstände oder Umfang und Art der Leistung",
        "Ask for an invoice that says what was supplied and how much.",
        "Eine Rechnung anfordern, die Menge und Art der Lieferung oder Leistung nennt.",
    ),
    ContentItem.SUPPLY_DATE: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 6 UStG",
        None,
        "Date of supply or service, or the period",
        "Zeitpunkt der Lieferung oder Leistung bzw. Leistungszeitraum",
        "Ask for the date of supply (or a note that it is the issue date).",
        "Das Liefer-/Leistungsdatum anfordern (oder den Hinweis, dass es dem"
        " Rechnungsdatum entspricht).",
    ),
    ContentItem.NET_PER_RATE: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 7 UStG",
        None,
        "Net amount per tax rate",
        "Entgelt nach Steuersätzen aufgeschlüsselt",
        "Ask for the net amount broken down by tax rate.",
        "Das nach Steuersätzen aufgeschlüsselte Entgelt anfordern.",
    ),
    ContentItem.TAX_RATE_AMOUNT: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 8 UStG",
        "§33 Satz 1 Nr. 4 UStDV",
        "Tax rate and tax amount (up to 250 EUR: gross amount and tax rate)",
        "Steuersatz und Steuerbetrag (bis 250 EUR: Bruttobetrag und Steuersatz)",
        "Ask for the tax rate and the tax amount.",
        "Steuersatz und Steuerbetrag anfordern.",
    ),
    ContentItem.EXEMPTION_NOTE: ItemText(
        "§14 Abs. 4 Satz 1 Nr. 8 UStG",
        "§33 Satz 1 Nr. 4 UStDV",
        "Note of the exemption, where no VAT is charged",
        "Hinweis auf die Steuerbefreiung, wenn keine Umsatzsteuer ausgewiesen ist",
        "No VAT is charged: ask for the reason (exemption, reverse charge, small business).",
        "Keine Umsatzsteuer ausgewiesen: den Grund anfordern (Steuerbefreiung,"
        " Steuerschuldnerschaft des Leistungsempfängers, Kleinunternehmer).",
    ),
    ContentItem.REVERSE_CHARGE_NOTE: ItemText(
        "§14a Abs. 1, 3 und 5 UStG",
        None,
        "Note of reverse charge or of the intra-community supply",
        "Hinweis „Steuerschuldnerschaft des Leistungsempfängers“ bzw. auf die"
        " innergemeinschaftliche Lieferung",
        "Ask for the note that the recipient owes the tax (reverse charge).",
        "Den Hinweis „Steuerschuldnerschaft des Leistungsempfängers“ anfordern.",
    ),
    ContentItem.RECIPIENT_VAT_ID: ItemText(
        "§14a Abs. 1 und 3 UStG",
        None,
        "Recipient's VAT id (reverse charge, intra-community)",
        "USt-IdNr. des Leistungsempfängers (Reverse Charge, innergemeinschaftlich)",
        "Ask for an invoice that carries your company's VAT id.",
        "Eine Rechnung mit der USt-IdNr. Ihrer Firma anfordern.",
    ),
}

# Where each item stands in an e-invoice: its EN 16931 business terms.
BUSINESS_TERMS: dict[ContentItem, str] = {
    ContentItem.SUPPLIER: "BT-27, BG-5",
    ContentItem.RECIPIENT: "BT-44, BG-8",
    ContentItem.SUPPLIER_TAX_ID: "BT-31/BT-32",
    ContentItem.ISSUE_DATE: "BT-2",
    ContentItem.INVOICE_NUMBER: "BT-1",
    ContentItem.GOODS_SERVICES: "BG-25 (BT-153, BT-129)",
    ContentItem.SUPPLY_DATE: "BT-72/BG-14",
    ContentItem.NET_PER_RATE: "BG-23 (BT-116)",
    ContentItem.TAX_RATE_AMOUNT: "BG-23 (BT-119, BT-117)",
    ContentItem.EXEMPTION_NOTE: "BT-120/BT-121, BT-22",
    ContentItem.REVERSE_CHARGE_NOTE: "BT-120/BT-121, BT-22",
    ContentItem.RECIPIENT_VAT_ID: "BT-48",
}

"""The vocabulary of invoices printed as PDF: labels and values as regular expressions
(German, English, French, Dutch), shared by the classification and the extraction."""

from __future__ import annotations

import re

from processors.pdf_invoices.regex import guarded

_I = re.IGNORECASE
TITLE = guarded(
    r"\b(rechnung|invoice|facture|factuur|fattura|factura|gutschrift|"
    r"quittung|receipt|kassenbon|kassenbeleg)\b",
    _I,
)
"""Receipts (Quittung, Kassenbon) are invoices: small-amount invoices (§ 33 UStDV)."""
NUMBER_LABEL = guarded(
    r"(rechnungs?[- ]?(?:nr|nummer|no)\b\.?|rechnung\s*(?:#|nr\.?|nummer)|"
    r"invoice\s*(?:no\b\.?|number|#|nr\.?)|facture\s*n[°o]\.?|factuurnummer|"
    r"factuur\s*(?:nr\.?|nummer))",
    _I,
)
NUMBER_VALUE = guarded(r"#?\s*([A-Z0-9][A-Z0-9/_\-.]*\d[A-Z0-9/_\-]*)", _I)
ISSUE_LABELS = (
    guarded(
        r"(rechnungsdatum|invoice\s*date|date\s*of\s*invoice|factuur\s*datum|"
        r"date\s*de\s*facture|issued\s*(?:at|on))",
        _I,
    ),
    guarded(r"(datum|date|\bvon\b|\bdu\b|\bvom\b)", _I),
)
DUE_LABEL = guarded(
    r"(due\s*date|due\s*on|payable\s*(?:by|until)|remit\s*until|zahlungsziel|fällig(?:keit)?\w*|"
    r"bis\s*zum|vervaldatum|date\s*limite\s*de\s*paiement|échéance)",
    _I,
)
OTHER_DATE = guarded(
    r"(order\s*date|bestelldatum|orderdatum|leistungsdatum|lieferdatum|delivery|"
    r"date\s*of\s*delivery)",
    _I,
)
NET_LABEL = guarded(
    r"(netto\w*|\bnet\b\s*(?:total|amount)?|sub\s?-?total\w*|zwischensumme|total\s*ht|"
    r"montant\s*(?:eur\s*)?ht|exclusief\s*btw|excl\.?\s*(?:vat|btw)|"
    r"(?:ohne|zzgl\.?)\s*(?:mwst|ust)\b|without\s*vat|excluding\s*vat)",
    _I,
)
VAT_LABEL = guarded(
    r"(ust\.?\s*gesamt|umsatzsteuer|mehrwertsteuer|mwst|\bust\b|vat\s*(?:total|amount)?|"
    r"\btax\b|\btva\b|\bbtw\b|\bgst\b|\bsteuer\b(?![-\s.]*(?:nr|nummer|id)))",
    _I,
)
GROSS_LABEL = guarded(
    r"(gesamtbetrag|rechnungsbetrag|endbetrag|bruttobetrag|zu\s*zahlen|\bsumme\b|"
    r"total|amount\s*due|balance\s*due|due\s*payable|totaal|ttc|somme\s*à\s*payer)",
    _I,
)
VAT_ID = guarded(
    r"\b((?:DE|AT|FR|NL|BE|LU|IT|ES|PL|CZ|DK|SE|FI|IE|PT|GB|CH)"
    r"[ ]?(?:\d[ ]?){8,11}(?:B\d{2})?)\b"
)
VAT_ID_LABEL = guarded(
    r"(ust\.?-?id\w*|ust-?idnr|vat[- ]?(?:id|no|reg\w*)|btw(?:[- ]?nummer)?|"
    r"n°\s*de\s*tva|tva|umsatzsteuer[- ]?id\w*)",
    _I,
)
BUYER_VAT_HINT = guarded(r"\b(uw|your|ihre?)\b", _I)
TAX_NUMBER = guarded(r"(?:steuer-?\s?nr\.?|steuernummer|st\.-?nr\.?)\s*:?\s*([\d/ ]{8,16}\d)", _I)
BUYER_LABEL = guarded(
    r"^\s*(bill\s*to(?:\s*address)?|invoice\s*to|billing\s*address|rechnungsempfänger|rechnung\s*an|"
    r"factuuradres)\b",
    _I,
)
LEGAL_FORM = guarded(
    r"\b(GmbH|AG|KG|OHG|UG|e\.K\.|Inc\.?|Ltd\.?|Limited|LLC|B\.V\.|N\.V\.|SAS|SARL|S\.A\.|"
    r"SE|plc|Corp\.?)(?=\W|$)"
)
COLUMN_GAP = guarded(r"\s{6,}")
RETURN_ADDRESS_SEP = guarded("(?<!\\s)\\s+[\u25cf\u00b7\u2022|\u2013-]\\s+")
REFERENCE_LABEL = guarded(
    r"(verwendungszweck|payment\s*reference|communication\s*for\s*your\s*payment|"
    r"zahlungsreferenz)",
    _I,
)
CURRENCIES = {"€": "EUR", "$": "USD", "£": "GBP", "₹": "INR", "Rs": "INR"}
ISO_CURRENCY = guarded(r"\b(EUR|USD|GBP|CHF|INR|SEK|DKK|PLN|CZK|JPY)\b")
PERCENT = guarded(r"(?<![\d,.])(\d{1,2}(?:[.,]\d{1,2})?)\s?%")
NOT_INVOICE = guarded(
    r"\b(kontoauszug|bank\s*statement|account\s*statement|angebot|quotation|"
    r"lieferschein|delivery\s*note|packing\s*slip|purchase\s*order|bestellung|"
    r"auftragsbestätigung|order\s*confirmation|bon\s*de\s*commande)\b",
    _I,
)
WORD = guarded(r"(?!(?:EUR|USD|GBP|CHF|INR)\b)[^\W\d_]{3,}")
"""A word between two amounts; currency codes are part of the amount."""
CURRENCY_MARKS = guarded(r"[\s€$£¥₹]|\b(?:EUR|USD|GBP|CHF|INR)\b")
ENGLISH = guarded(r"\b(invoice|total|amount|due|date|the)\b", _I)

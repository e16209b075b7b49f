"""The vocabulary of invoices printed as PDF: labels and values as regular expressions
(German, English, French, Dutch), shared by the classification and the extraction."""

from __future__ import annotations

import re

from processors.pdf_invoices.regex import guarded

_I = re.IGNORECASE
TITLE = guarded(
    r"\b((?!\w*(?:abrechnung|berechnung|verrechnung|umrechnung)\b)\w*rechnung|invoice|facture|factuur|fattura|factura|gutschrift|rechnungskorrektur|"
    r"avoir|credit\s*note|creditnota|nota\s*di\s*credito|nota\s*de\s*cr[ée]dito|"
    r"quittung|receipt|kassenbon|kassenbeleg)\b",
    _I,
)
"""Invoices are also titled by their kind (Handelsrechnung, Beitragsrechnung,
Schlussrechnung, Abschlagsrechnung, Tax invoice); credit notes (Gutschrift,
Rechnungskorrektur, Avoir, Credit note) are invoices with a negative sign. Receipts
(Quittung, Kassenbon) are invoices: small-amount invoices (§ 33 UStDV)."""
CREDIT_TITLE = guarded(
    r"\b(gutschrift|rechnungskorrektur|stornorechnung|avoir|credit\s*note|creditnota|"
    r"nota\s*di\s*credito|nota\s*de\s*cr[ée]dito)\b",
    _I,
)
OTHER_TITLES = {
    "statement": guarded(
        r"\b(kontoauszug|bank\s*statement|account\s*statement|relev[ée]\s*de\s*compte|"
        r"rekeningafschrift|estratto\s*conto|extracto)\b",
        _I,
    ),
    "quote": guarded(
        r"\b(angebot|kostenvoranschlag|quotation|quote|offerte|devis|preventivo|"
        r"presupuesto)\b",
        _I,
    ),
    "delivery_note": guarded(
        r"\b(lieferschein|delivery\s*note|packing\s*slip|bon\s*de\s*livraison|pakbon|"
        r"documento\s*di\s*trasporto|albar[áa]n)\b",
        _I,
    ),
    "order": guarded(
        r"\b(bestellung|purchase\s*order|auftragsbest[äa]tigung|order\s*confirmation|"
        r"bon\s*de\s*commande|bestelling|ordine|pedido)\b",
        _I,
    ),
    "reminder": guarded(
        r"\b((?!\w*ermahnung)\w*mahnung|zahlungserinnerung|payment\s*reminder|reminder|relance|"
        r"rappel|aanmaning|herinnering|sollecito)\b",
        _I,
    ),
}
"""Other business documents, by their title."""
OVERDUE = guarded(
    r"\b(überfällig\w*|mahngebühr\w*|offene[rn]?\s*(?:posten|betrag|rechnungen)|"
    r"overdue|past\s*due|outstanding\s*invoices|impay[ée]e?s?|achterstallig)\b",
    _I,
)
"""What a reminder says of the invoices it refers to."""
VALIDITY = guarded(
    r"\b(gültig\s*bis|bindefrist|valid\s*(?:until|for)|validit[ée]|geldig\s*tot|"
    r"angebot\s*gilt)\b",
    _I,
)
"""A quote states how long it is valid, where an invoice states when it is due."""
NUMBER_LABEL = guarded(
    r"(rechnungs?[- ]?(?:nr|nummer|no)\b\.?|rechnung\s*(?:#|nr\.?|nummer)|"
    r"invoice\s*(?:no\b\.?|number|#|nr\.?)|facture\s*n[°o]\.?|factuurnummer|"
    r"factuur\s*(?:nr\.?|nummer)|beleg[- ]?(?:nr|nummer)\b\.?)",
    _I,
)
NUMBER_VALUE = guarded(r"#?\s*([A-Z0-9][A-Z0-9/_\-.]*\d[A-Z0-9/_\-]*)", _I)
ISSUE_LABELS = (
    guarded(
        r"(rechnungsdatum|invoice\s*date|date\s*of\s*invoice|factuur\s*datum|"
        r"date\s*de\s*facture|issued\s*(?:at|on))",
        _I,
    ),
    guarded(r"(datum|date|\bvon\b|\bdu\b|\bvom\b|,\s*den\b|,\s*le\b)", _I),
)
"""The invoice's own date labels, then generic ones: `Datum`, `Date`, `vom`, and the
place and date of a letter (`München, den 01.11.2024`, `Paris, le 05/03/2024`)."""
TIME_STAMP = guarded(r"(\b\d{1,2}:\d{2}:\d{2}\b|\b(?:uhrzeit|zeit|time|heure)\s*:)", _I)
"""A date with a time of day (`Datum: 30.10.2024  Zeit: 04:59:13`): when a page was
printed or sent, not a date a generic label gives the invoice."""
DUE_LABEL = guarded(
    r"(due\s*date|due\s*on|payable\s*(?:by|until)|remit\s*until|zahlungsziel|fällig(?:keit)?\w*|"
    r"bis\s*zum|vervaldatum|date\s*limite\s*de\s*paiement|échéance|zahlbar\b[^\n.]{0,30}?\bbis|"
    r"erstatten\s*wir\s*bis|(?:à\s*régler|payer|payable)\s*avant|betalen\s*(?:vóór|voor)|"
    r"uiterlijk|scadenza|vencimiento|fecha\s*de\s*pago|netto\s*bis|net\s*(?:by|until))",
    _I,
)
OTHER_DATE = guarded(
    r"(order\s*date|bestell\w*|orderdatum|leistungs\w*|liefer\w*|delivery|"
    r"date\s*of\s*delivery|version|stylesheet|auftrag\w*|gedruckt|printed|gültig|"
    r"valid|zeitraum|period|livraison|prestation|d[ée]but|\bfin\b|commande|contrat|"
    r"r[ée]ception|associ[ée]e|li[ée]e|related|preceding|original\w*|ursprüngl\w*)",
    _I,
)
"""Dates of other things than the invoice: orders, delivery, versions of a format
(`ZUGFeRD-Version: 2.1 vom 24.03.2020`), print dates, validity, periods, and the invoice
a credit note or a correction refers to (`Date de facture associée`)."""
TITLE_NUMBER = guarded(
    r"(?:\(\d{3}\)\s*)?(?:[a-zß\u00e0-\u00ff]+\s+){0,3}?(?:n[°ºo]\.?|nr\.?|no\.|n\.|nummer|number|#)"
    r"\s*:?\s*([A-Z0-9][A-Z0-9/_\-.]*\d[A-Z0-9/_\-]*)",
    _I,
)
"""The number after a title (`Handelsrechnung (380) Nr. 471102`, `Fattura n. 17/2024`,
`Beitragsrechnung zur Kraftfahrtversicherung Nr. 55-1`)."""
TITLE_DATE = guarded(r"\b(vom|von|du|del|dated|van|de|of|from)\b", _I)
"""The date right after an invoice's number on its title line (`Nr. 471102 vom 05.03.2020`)."""
NET_LABEL = guarded(
    r"(netto\w*|\bnet\b\s*(?:total|amount)?|sub\s?-?total\w*|zwischensumme|total\s*ht|"
    r"montant\s*(?:eur\s*)?ht|exclusief\s*btw|excl\.?\s*(?:vat|btw)|"
    r"(?:ohne|zzgl\.?)\s*(?:mwst|ust)\b|without\s*vat|excluding\s*vat|"
    r"totale\s*imponibile|imponibile|base\s*imponible|total\s*excl\w*)",
    _I,
)
VAT_LABEL = guarded(
    r"(ust\.?\s*gesamt|umsatzsteuer|mehrwertsteuer|mwst|\bust\b|vat\s*(?:total|amount)?|"
    r"\btax\b|\btaxes\b|\btva\b|\bbtw\b|\bgst\b|\biva\b|\bimposta\b|steuerbetrag|"
    r"\bsteuer\b(?![-\s.]*(?:nr|nummer|id)))",
    _I,
)
GROSS_LABEL = guarded(
    r"(gesamtbetrag|rechnungsbetrag|endbetrag|bruttobetrag|bruttosumme|gesamtsumme|"
    r"rechnungssumme|zu\s*zahlen|\bsumme\b|\bbrutto\b|"
    r"total|amount\s*due|balance\s*due|due\s*payable|totaal|ttc|somme\s*à\s*payer|"
    r"importe\s*total)",
    _I,
)
AMOUNT_DUE_LABEL = guarded(
    r"(zahlbetrag|(?:noch\s*)?zu\s*zahlen\w*|restbetrag|offener\s*betrag|amount\s*due|"
    r"balance\s*due|total\s*due|amount\s*payable|due\s*payable|"
    r"(?:solde|net|reste|montant|somme)\s*(?:à|a)\s*payer|te\s*betalen|da\s*pagare|"
    r"(?:importe|total)\s*a\s*pagar)",
    _I,
)
"""What is left to pay: the gross less what was paid before (`Zahlbetrag`, `Solde à
payer`)."""
DEDUCTION = guarded(
    r"(abzgl\.?|abzüglich|\bless\b|\bminus\b|d[ée]duction|[àa]\s*d[ée]duire|verrekend|"
    r"in\s*mindering|\bpaid\b|\bpay[ée]e?s?\b|betaald|bezahlt|gezahlt|geleistet\w*|"
    r"received|re[çc]u\w*|ontvangen|erhalten\w*|instal+ments?|abschl[äa]g\w*|acompte\w*)",
    _I,
)
"""A line that takes something off the gross: what was paid before, instalments."""
PREPAID_LABEL = guarded(
    r"(erhaltene\s*anzahlung\w*|anzahlung\w*|vorauszahlung\w*|abschlagszahlung\w*|"
    r"bereits\s*(?:gezahlt|bezahlt|geleistet|erhalten)\w*|geleistete\s*zahlung\w*|"
    r"prepaid\w*|paid\s*amount|amount\s*paid|already\s*paid|total\s*paid|"
    r"\bacomptes?\b|d[ée]j[àa]\s*(?:pay[ée]|r[ée]gl[ée])\w*|vooruitbetaald|reeds\s*betaald|"
    r"\bacconto\b|\banticipo\b|geleistete[rn]?\s*abschl\w*|abzgl\.?\s*(?:geleistete[rn]?\s*)?abschl\w*|"
    r"payments?\s*received|deposits?\s*(?:paid|received)|less\s*deposit\w*|amount\s*received|"
    r"instal+ments?\s*(?:paid|received)|avance\s*re[çc]ue|reeds\s*ontvangen|al\s*betaald)",
    _I,
)
CHARGE_LABEL = guarded(
    r"\b(zuschl[äa]ge?|abschl[äa]ge?|rabatt\w*|nachlass\w*|skonto|allowances?|remises?|"
    r"korting|toeslag)\b",
    _I,
)
"""Charges and allowances: `Gesamtbetrag der Zuschläge 0,00` is no gross."""
INCLUSIVE = guarded(r"\b(incl|inkl|inclusive|including|einschl|ttc|incluso|incluido)\b", _I)
"""`Totaal incl. btw`: a gross that names the VAT it includes, not a VAT amount."""
VAT_ID = guarded(
    r"\b((?:DE|AT|FR|NL|BE|LU|IT|ES|PL|CZ|DK|SE|FI|IE|PT|GB|CH)"
    r"[ ]?(?:\d[ ]?){8,11}(?:B\d{2})?"
    r"|ATU[ ]?(?:\d[ ]?){7}\d"
    r"|(?:BG|CY|EE|EL|HR|HU|LT|LV|MT|RO|SI|SK|XI)[ ]?(?:\d[ ]?){7,11}[A-Z]?"
    r"|SE[ ]?(?:\d[ ]?){11}\d"
    r"|ES[ ]?[A-Z](?:\d[ ]?){7}[0-9A-Z]|ES[ ]?(?:\d[ ]?){8}[A-Z]"
    r"|FR[ ]?[A-HJ-NP-Z0-9]{2}[ ]?(?:\d[ ]?){8}\d"
    r"|IE[ ]?\d[0-9A-Z+*]\d{5}[A-W][A-I]?"
    r"|CHE[- ]?\d{3}[.]?\d{3}[.]?\d{3})\b"
)
"""A VAT id in each EU member state's form (Austria's ATU, Spain's and Ireland's letters,
France's two check characters, Sweden's twelve digits, Cyprus's letter, Greece's EL, XI)
and a Swiss UID (CHE-123.456.789)."""
VAT_ID_LABEL = guarded(
    r"(ust\.?-?id\w*|ust-?idnr|vat[- ]?(?:id|no|reg\w*)|btw(?:[- ]?nummer)?|"
    r"n°\s*de\s*tva|tva|umsatzsteuer[- ]?id\w*)",
    _I,
)
BUYER_VAT_HINT = guarded(r"\b(uw|your|ihre?)\b", _I)
TAX_NUMBER = guarded(r"(?:steuer-?\s?nr\.?|steuernummer|st\.-?nr\.?)\s*:?\s*([\d/ ]{8,16}\d)", _I)
_ABOUT = (
    r"(?:(?:informationen|angaben|daten)\s*zum\s*|(?:details|information)\s*(?:of|on|about)"
    r"\s*the\s*|(?:informations|coordonn[ée]es)\s*(?:de\s*l'|du\s*)|dat[io]s?\s*del\s*)?"
)
"""A party heading of a structured view (`Informationen zum Käufer`, the XRechnung
visualisation; `Details of the seller`): the label after it names the block."""
BUYER_LABEL = guarded(
    r"^\s*"
    + _ABOUT
    + r"(bill\s*to(?:\s*address)?|invoice\s*to|billing\s*address|rechnungsempfänger|rechnung\s*an|"
    r"rechnungsa(?:dresse|nschrift)|adresse\s*(?:du\s*client|de\s*facturation)|"
    r"fattura(?:re|to)\s*a|intestatario|facturado\s*a|direcci[óo]n\s*de\s*facturaci[óo]n|"
    r"factuuradres|factuur\s*aan|käufer|leistungsempfänger|kunde|buyer|customer|sold\s*to|client|"
    r"acheteur|destinataire|factur[ée]e?\s*à(?!\s*r[ée]gl)|klant|cliente|destinatario|facturar\s*a|"
    r"cessionario(?:\s*/\s*committente)?|committente|spett\.?\s?le|spettabile|messrs|"
    r"empfänger|(?:to|aan|an)(?=\s*:))\b",
    _I,
)
DELIVERY_LABEL = guarded(
    r"^\s*(ship\s*to|deliver(?:y)?\s*(?:to|address)|lieferanschrift|lieferadresse|"
    r"waren-?empf[äa]nger|lieferempf[äa]nger|consignee|destinataire\s*de\s*la\s*marchandise|"
    r"adresse\s*de\s*livraison|afleveradres|leveringsadres|indirizzo\s*di\s*consegna)",
    _I,
)
"""Where the goods go: not the buyer's name, and a label, not a value."""
SELLER_LABEL = guarded(
    r"^\s*" + _ABOUT + r"(verkäufer|lieferant|rechnungssteller|seller|supplier|vendor|vendeur|"
    r"fournisseur|leverancier|fornitore|cedente(?:\s*/\s*prestatore)?|prestatore|proveedor|"
    r"emisor|auftragnehmer|absender|remit\s*to|(?:from|van)(?=\s*:))\b",
    _I,
)
NAME_LABEL = guarded(
    r"^\s*(?:name|firma|firmenname|company(?:\s*name)?|raison\s*sociale|nom|naam|"
    r"bedrijfsnaam|nome|nombre|razón\s*social|denominazione|ragione\s*sociale)\s*:\s*",
    _I,
)
"""`Name: Kunden AG Mitte` in a party block: the value is the name, without its label."""
LEGAL_FORM = guarded(
    r"\b(GmbH|AG|KG|OHG|UG|e\.K\.|Inc\.?|Ltd\.?|Limited|LLC|B\.V\.|N\.V\.|SAS|SARL|S\.A\.|"
    r"SE|plc|Corp\.?|BV|NV|VOF|S\.r\.l\.|SRL|S\.p\.A\.|SpA|LLP|EURL|SASU|KGaA|mbH|mbB|"
    r"S\.\s?à\s?r\.\s?l\.|S\.L\.U?\.?|S\.A\.U\.|SLU|S\.n\.c\.|S\.a\.s\.|GbR|PartG|eG|e\.V\.|"
    r"Sp\.\s?z\s?o\.o\.|s\.r\.o\.|Kft\.?|A/S|ApS|Oy|Lda\.?|BVBA|SPRL)(?=\W|$)"
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
WORD = guarded(r"(?!(?:EUR|USD|GBP|CHF|INR)\b)[^\W\d_]{3,}")
"""A word between two amounts; currency codes are part of the amount."""
CURRENCY_MARKS = guarded(r"[\s€$£¥₹]|\b(?:EUR|USD|GBP|CHF|INR)\b")
ENGLISH = guarded(r"\b(invoice|total|amount|due|date|the)\b", _I)

POSTAL = guarded(r"(?:^|\s)(?:[A-Z]{1,2}[- ]?)?\d{4,5}\s+\w")
STREET = guarded(
    r"^\d|\d+\s*[a-z]?$|stra(?:ss|ß)e|str\.|\b(?:road|street|weg|allee|platz|gasse|rue|avenue|"
    r"laan|straat|via|calle)\b",
    _I,
)
"""A postcode and town, a street: the lines of an address under a party's name."""

"""Hand-written explanations (English, German) for rules whose text no pattern of
scripts/business_terms_texts.py words well enough, and business terms for rules whose
text and element name none. Reviewed; keyed by rule id."""

from __future__ import annotations

from collections.abc import Mapping

_ASK_EN = "Ask the sender for a corrected invoice."
_ASK_DE = "Bitten Sie den Rechnungssteller um eine korrigierte Rechnung."

MANUAL_TERMS: Mapping[str, list[str]] = {
    "BR-CL-03": ["BT-5"],
    "BR-CL-04": ["BT-5"],
    "BR-CL-14": ["BT-40", "BT-55"],
    "BR-CL-17": ["BT-118"],
    "BR-CL-18": ["BT-151"],
    "UBL-DT-01": ["BG-22"],
    "PEPPOL-EN16931-R001": ["BT-23"],
    "PEPPOL-EN16931-R008": [],
    "PEPPOL-EN16931-R120": ["BT-131", "BT-129", "BT-146", "BT-149"],
    "PEPPOL-EN16931-R046": ["BT-146", "BT-148", "BT-147"],
    "PEPPOL-EN16931-R110": ["BT-134", "BT-73"],
    "PEPPOL-EN16931-R111": ["BT-135", "BT-74"],
    "PEPPOL-EN16931-R061": ["BT-89"],
}

MANUAL: Mapping[str, tuple[str, str]] = {
    "BR-51": (
        "The invoice shows more of the payment card number (BT-87) than card security "
        "rules allow (at most the first 6 and last 4 digits). Ask the sender to mask it.",
        "Die Rechnung zeigt mehr von der „Nummer der Zahlungskarte“ (BT-87), als die "
        "Sicherheitsregeln für Karten erlauben (höchstens die ersten 6 und letzten 4 "
        "Ziffern). Bitten Sie den Rechnungssteller, die Nummer zu kürzen.",
    ),
    "BR-DEX-13": (
        "The Third party payment amount (BT-DEX-002) has more than two decimal places. "
        "Ask the sender to round it to whole cents.",
        "Die maximale Anzahl zulässiger Nachkommastellen für „Betrag der Zahlung durch "
        "Dritte“ (BT-DEX-002) ist 2. Bitten Sie den Rechnungssteller, auf volle Cent zu "
        "runden.",
    ),
    "BR-DEX-15": (
        "The file seems to use sub invoice lines, which XRechnung (CII) does not support. "
        "Ask the sender for an invoice without sub lines, or in the XRechnung extension.",
        "Die Datei scheint Unterpositionen zu verwenden, die XRechnung (CII) nicht "
        "unterstützt. Bitten Sie den Rechnungssteller um eine Rechnung ohne "
        "Unterpositionen oder im Format der XRechnung-Extension.",
    ),
    "BR-TMP-CVD-01": (
        "The scheme of the Item classification identifier (BT-158) must come from the "
        "code list UNTDID 7143. Ask the sender to use a listed scheme.",
        "Das Bildungsschema für „Kennung der Artikelklassifizierung“ (BT-158) ist aus der "
        "Codeliste UNTDID 7143 zu wählen. Bitten Sie den Rechnungssteller, ein Schema aus "
        "der Liste zu verwenden.",
    ),
    "PEPPOL-EN16931-R008": (
        "The file contains empty elements (an element without a value). "
        "Ask the sender's software to leave empty elements out.",
        "Die Datei enthält leere Elemente (Elemente ohne Wert). Bitten Sie den "
        "Rechnungssteller, leere Elemente wegzulassen.",
    ),
    "PEPPOL-EN16931-R120": (
        "An Invoice line net amount (BT-131) is not quantity x net price / base quantity "
        "plus line charges minus line allowances. " + _ASK_EN,
        "Ein „Nettobetrag der Rechnungsposition“ (BT-131) entspricht nicht Menge x "
        "Nettopreis / Basismenge zuzüglich Zuschlägen und abzüglich Nachlässen der "
        "Position. " + _ASK_DE,
    ),
    "PEPPOL-EN16931-R046": (
        "An Item net price (BT-146) is not the gross price (BT-148) minus the price "
        "discount (BT-147). " + _ASK_EN,
        "Ein „Nettopreis des Artikels“ (BT-146) ist nicht „Bruttopreis des Artikels“ "
        "(BT-148) abzüglich „Rabatt auf den Artikelpreis“ (BT-147). " + _ASK_DE,
    ),
    "PEPPOL-EN16931-R110": (
        "A line period starts before the invoicing period (BT-73). " + _ASK_EN,
        "Der Leistungszeitraum einer Position beginnt vor dem Rechnungszeitraum (BT-73). "
        + _ASK_DE,
    ),
    "PEPPOL-EN16931-R111": (
        "A line period ends after the invoicing period (BT-74). " + _ASK_EN,
        "Der Leistungszeitraum einer Position endet nach dem Rechnungszeitraum (BT-74). " + _ASK_DE,
    ),
    "PEPPOL-EN16931-R061": (
        "The invoice asks for a direct debit but gives no Mandate reference identifier "
        "(BT-89). Ask the sender to add the mandate reference.",
        "Die Rechnung sieht eine Lastschrift vor, nennt aber keine „Mandatsreferenz“ "
        "(BT-89). Bitten Sie den Rechnungssteller, die Mandatsreferenz zu ergänzen.",
    ),
    "UBL-DT-01": (
        "An amount has more than two decimal places. Ask the sender to round amounts to "
        "whole cents.",
        "Ein Betrag hat mehr als zwei Nachkommastellen. Bitten Sie den Rechnungssteller, "
        "Beträge auf volle Cent zu runden.",
    ),
    "CII-DT-097": (
        "A date is not written as YYYYMMDD (format 102). " + _ASK_EN,
        "Ein Datum ist nicht im Format JJJJMMTT (Format 102) angegeben. " + _ASK_DE,
    ),
}

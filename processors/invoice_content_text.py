"""Traces of an invoice's mandatory items in a PDF's text: labels (German, English,
French, Italian, Dutch, Spanish as the corpus prints them) and shapes (a postal
address, a date, a VAT id). Each returns what it found, quoted as the item's place,
or None. Used by processors/invoice_content.py where the reader found no field."""

from __future__ import annotations

import re
from decimal import Decimal

_I = re.IGNORECASE | re.MULTILINE
_GERMAN = str.maketrans({",": ".", ".": ","})

# "12345 Berlin", "D-80331 München", "75008 Paris", "1010 Wien", "SW1A 1AA", "Street 5".
_ADDRESS = re.compile(
    r"(?:\b(?:[A-Z]{1,2}-)?\d{4,5}[ \t]+[A-ZÄÖÜÉ][\w\-. ]{2,30})"
    r"|(?:\b[\w\-.äöüß]*(?:stra(?:ß|ss)e|str\.|weg|platz|allee|gasse|ring|damm|ufer|chaussee|"
    r"street|road|avenue|lane|rue|via|straat|calle)[ \t]*\d{1,4}[a-z]?\b)"
    r"|(?:\b\d{1,5}[A-Za-z]?,?[ \t]*(?:[A-Z][\w']*[ \t]+){1,4}"
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Boulevard|Blvd|Drive|Dr|Way|Court|Ct)\b)"
    r"|(?:\b[A-Z]{2}[ \t]+\d{5}(?:-\d{4})?\b)"
    r"|(?:\b[A-Z][a-z]+[ \t]+\d{6}\b)",
    re.MULTILINE,
)
_DATE = re.compile(
    r"\b\d{1,2}[./-]\s?\d{1,2}[./-]\s?\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b\d{1,2}\.?\s+(?:jan|feb|m[äa]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-zä]*\.?\s+\d{4}"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s?,?\s+\d{4}"
    r"|\b\d{1,2}(?:er)?\.?\s+[a-zà-ÿ]{3,9}\.?\s+\d{4}\b",
    _I,
)
_OTHER_DATE = re.compile(
    r"leistung|liefer|f[äa]llig|zahlbar|\bdue\b|\bbis\b|until|order|bestell|period|zeitraum|"
    r"delivery|supply|service|versand|ship|valuta|skonto|check[-\s]?(?:in|out)",
    _I,
)
_ISSUE_LABEL = re.compile(
    r"rechnungsdatum|belegdatum|ausstellungsdatum|factuurdatum|invoice\s+date|issue\s+date|"
    r"date\s+of\s+(?:issue|invoice)|date\s+de\s+(?:la\s+)?facture|data\s+(?:della\s+)?fattura|"
    r"fecha\s+de\s+(?:la\s+)?factura|^\s*(?:datum|date|data|fecha)\b|\b(?:datum|date)\s*:|"
    r"facture\s+n.{0,20}\bdu\b",
    _I,
)
_NUMBER_LABEL = re.compile(
    r"rechnungs?[-\s]?(?:nr|nummer|no)|rechnung\s*(?:nr|#)|beleg[-\s]?(?:nr|nummer)|"
    r"invoice\s*(?:no|nr|number|#|id)|facture\s*(?:n[o°º]|num)|fattura\s*n|factuurnummer|"
    r"factura\s*n|document\s*(?:no|number)|gutschrift\s*(?:nr|nummer)",
    _I,
)
_TAX_ID = re.compile(
    r"ust[-.\s]*id|umsatzsteuer[-\s]*id|steuer[-\s]*nr|steuernummer|st\.?[-\s]*nr|"
    r"vat\s*(?:reg|id|no|number)|vat\s*/\s*tin|\bgstin|\btax\s*id|\bvat\b[^\n]{0,12}\d{6,}|tva\s*intra|n[°o]\s*tva|partita\s*iva|btw[-\s]*(?:nr|nummer)|"
    r"\b[A-Z]{2}\s?\d{8,12}\b|\b\d{2,3}/\d{3,4}/\d{4,5}\b",
    re.MULTILINE,
)
_TAX_ID_LABEL_ONLY = re.compile(_TAX_ID.pattern, _I)
_VAT_ID = re.compile(
    r"\b(?:ATU\d{8}|DE\s?\d{9}|(?:BE|BG|CY|CZ|DK|EE|EL|GR|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|"
    r"PL|PT|RO|SE|SI|SK|XI)\s?[0-9A-Z][0-9A-Z .]{6,14}[0-9A-Z])\b"
)
_GOODS = re.compile(
    r"\b(?:pos(?:ition)?\.?|menge|anzahl|stk\.?|st[üu]ck|bezeichnung|beschreibung|artikel|"
    r"leistung|lieferung|produkt|qty|quantity|description|item|items|article|service|services|"
    r"d[ée]signation|quantit[àée]|descrizione|omschrijving|aantal|descripci[oó]n|cantidad|"
    r"einheit|unit|hours|stunden|std\.?)\b",
    _I,
)
_SUPPLY_DATE = re.compile(
    r"leistungs(?:datum|zeitraum|zeit|erbringung|monat)|liefer(?:datum|zeitraum|termin|tag|ung\s+am)|"
    r"datum\s+der\s+(?:lieferung|leistung)|abrechnungs(?:zeitraum|monat)|zeitraum|versand(?:datum|t\s+am)|"
    r"ausgef[üu]hrt\s+am|erbracht\s+(?:am|im)|delivery\s+date|date\s+of\s+(?:supply|delivery|service)|"
    r"service\s+(?:date|period)|supply\s+date|billing\s+period|period|shipping\s+date|ship\s+date|"
    r"date\s+de\s+(?:livraison|prestation)|p[ée]riode|data\s+(?:di\s+)?consegna|periodo|"
    r"leverdatum|fecha\s+de\s+entrega|lieferschein|delivery\s+note|check[-\s]?in|check[-\s]?out|"
    r"arrival|departure|anreise|abreise",
    _I,
)
_NET = re.compile(
    r"netto|nettobetrag|zwischensumme|summe\s+positionen|net\b|subtotal|sub-total|"
    r"total\s+ht|hors\s+taxe|imponibile|excl\.?\s*(?:vat|btw)|steuerpflichtig",
    _I,
)
_RATE = re.compile(r"\b\d{1,2}(?:[.,]\d{1,2})?\s?%")
_VAT_LABEL = re.compile(
    r"\bmwst|\bust\b|umsatzsteuer|mehrwertsteuer|\bvat\b|\btva\b|\biva\b|\bbtw\b|\bgst\b|\btax\b",
    _I,
)
_EXEMPTION = re.compile(
    r"steuerfrei|steuerbefrei|umsatzsteuerfrei|befreit|§\s*4\s*(?:nr|abs)|§\s*19\s*(?:abs|ustg)|"
    r"kleinunternehmer|nicht\s+steuerbar|nicht\s+umsatzsteuerbar|ohne\s+(?:umsatzsteuer|mwst|ust)|"
    r"exempt|exemption|zero[-\s]rated|not\s+subject\s+to\s+vat|outside\s+the\s+scope|"
    r"art(?:icle|ikel|\.)?\s*(?:132|135|138|146|151|196|44|283)|exon[ée]r|"
    r"esente|esclus|vrijgesteld|exento|ausfuhrlieferung|export|"
    r"steuerschuldnerschaft|reverse[-\s]?charge|autoliquidation|inversione\s+contabile|"
    r"verlegd|inversi[oó]n\s+del\s+sujeto|innergemeinschaftlich|intra[-\s]?community|intracommunautaire",
    _I,
)
_REVERSE_CHARGE = re.compile(
    r"steuerschuldnerschaft\s+des\s+leistungsempf[äa]ngers|reverse[-\s]?charge|"
    r"autoliquidation|inversione\s+contabile|btw\s+verlegd|inversi[oó]n\s+del\s+sujeto\s+pasivo|"
    r"innergemeinschaftliche\s+(?:lieferung|leistung)|intra[-\s]?community\s+(?:supply|supplies|"
    r"delivery|acquisition)|livraison\s+intracommunautaire|§\s*13b\s*ustg|art(?:icle|ikel|\.)?\s*"
    r"(?:138|196)\b",
    _I,
)


class TextSigns:
    def __init__(self, text: str) -> None:
        self.text = text

    def _first(self, pattern: re.Pattern[str]) -> str | None:
        match = pattern.search(self.text)
        return " ".join(match.group(0).split()) if match else None

    def addresses(self) -> list[str]:
        seen: list[str] = []
        for match in _ADDRESS.finditer(self.text):
            value = " ".join(match.group(0).split())
            if value not in seen:
                seen.append(value)
        return seen

    def address_near(self, name: str, stop: str | None = None) -> str | None:
        """An address on the line naming `name` or on the few lines under it, before a
        line naming `stop` (the other party)."""
        found = self.addresses_near(name, stop)
        return found[0] if found else None

    def addresses_near(self, name: str, stop: str | None = None, lines_after: int = 6) -> list[str]:
        wanted = name.casefold().strip()
        other = (stop or "").casefold().strip()
        lines = self.text.splitlines()
        found: list[str] = []
        for index, line in enumerate(lines):
            if not wanted or wanted not in line.casefold():
                continue
            block = [line[line.casefold().index(wanted) + len(wanted) :]]
            for after in lines[index + 1 : index + lines_after + 1]:
                if other and other in after.casefold():
                    break
                block.append(after)
            for match in _ADDRESS.finditer("\n".join(block)):
                value = " ".join(match.group(0).split())
                if value not in found:
                    found.append(value)
        return found

    def amount(self, value: Decimal) -> str | None:
        """The amount printed in German or English style, with or without thousands."""
        plain = f"{abs(value):.2f}"
        grouped = f"{abs(value):,.2f}"
        forms = {plain, plain.replace(".", ","), grouped, grouped.translate(_GERMAN)}
        for form in forms:
            if re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d])", self.text):
                return form
        return None

    def has_date(self) -> bool:
        return _DATE.search(self.text) is not None

    def only_other_dates(self) -> bool:
        """Every date printed stands after the label of another date (supply, due,
        order) and no label of an issue date is printed: the issue date is not,
        whatever date a reader took for it."""
        if _ISSUE_LABEL.search(self.text):
            return False
        for match in _DATE.finditer(self.text):
            before = self.text[max(0, match.start() - 30) : match.start()]
            if not _OTHER_DATE.search(before.splitlines()[-1] if before.strip() else ""):
                return False
        return True

    def number_label(self) -> str | None:
        return self._first(_NUMBER_LABEL)

    def tax_id_traces(self) -> str | None:
        return self._first(_TAX_ID_LABEL_ONLY)

    def vat_ids(self) -> list[str]:
        found: list[str] = []
        for match in _VAT_ID.finditer(self.text):
            value = re.sub(r"[^0-9A-Z]", "", match.group(0))
            if value not in found:
                found.append(value)
        return found

    def goods_label(self) -> str | None:
        return self._first(_GOODS)

    def supply_date_label(self) -> str | None:
        return self._first(_SUPPLY_DATE)

    def net_label(self) -> str | None:
        return self._first(_NET)

    def rate(self) -> str | None:
        return self._first(_RATE)

    def vat_label(self) -> str | None:
        return self._first(_VAT_LABEL)

    def exemption_note(self) -> str | None:
        return self._first(_EXEMPTION)

    def reverse_charge_note(self) -> str | None:
        return self._first(_REVERSE_CHARGE)

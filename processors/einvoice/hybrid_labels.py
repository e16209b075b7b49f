"""The labels a printed invoice puts before the five fields the hybrid check compares
(processors/einvoice/hybrid_check.py), in German, English, French and Dutch.

Two strengths per field. A strong label names the field unambiguously ("Rechnungsdatum",
"Amount due"): the value printed right after it is the field, and a different value
there is a mismatch even when the XML value is printed elsewhere. A weak label ("Datum",
"Total") is only consulted when the XML value is printed nowhere on the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_I = re.IGNORECASE


@dataclass(frozen=True, slots=True)
class FieldLabels:
    strong: re.Pattern[str]
    weak: re.Pattern[str] | None
    veto: re.Pattern[str] | None = None
    """A line carrying this is not about the field, whatever label it has ("Total HT")."""


NUMBER = FieldLabels(
    strong=re.compile(
        r"(rechnungs?[- ]?(?:nr|nummer|no)\b\.?|rechnung\s*(?:#|nr\.?|nummer)|"
        r"beleg[- ]?(?:nr|nummer)\b\.?|invoice\s*(?:no\b\.?|number|#|nr\.?)|"
        r"facture\s*n[°o]\.?|num[ée]ro\s*de\s*facture|factuur\s*(?:nr\.?|nummer)|"
        r"factuurnummer)",
        _I,
    ),
    weak=re.compile(r"(\bnr\b\.?|\bno\b\.?|\bnummer\b|\bn°)", _I),
)
ISSUE_DATE = FieldLabels(
    strong=re.compile(
        r"(rechnungsdatum|belegdatum|ausstellungsdatum|invoice\s*date|date\s*of\s*invoice|"
        r"issue\s*date|date\s*of\s*issue|issued\s*(?:at|on)|date\s*de\s*(?:la\s*)?facture|"
        r"date\s*d['\u2019]\s*[ée]mission|factuurdatum|factuur\s*datum)",
        _I,
    ),
    weak=re.compile(r"(\bdatum\b|\bdate\b|\bvom\b|\bdated\b|\bdu\b|\bvan\b)", _I),
    veto=re.compile(
        r"(liefer|leistungs|f[äa]llig|zahlungsziel|due|delivery|livraison|[ée]ch[ée]ance|"
        r"levering|verval|order|bestell|druck|print)",
        _I,
    ),
)
_NOT_GROSS = re.compile(
    r"(netto|\bnet\b(?!\s*[àa]\s*payer)|\bht\b|excl|exkl|ohne|zzgl|zuzügl|without|hors\s*taxe|"
    r"vorauszahlung|anzahlung|prepaid|\bpaid\b|bezahlt|acompte|zwischen|sub\s?-?total)",
    _I,
)
_GROSS_WEAK = re.compile(r"(\btotal\b|\bsumme\b|\btotaal\b|\bbrutto\b|\bgross\b|\bttc\b)", _I)
GROSS = FieldLabels(
    strong=re.compile(
        r"(gesamtbetrag|rechnungsbetrag|bruttobetrag|rechnungssumme|endbetrag|endsumme|"
        r"gesamtsumme|summe\s*brutto|brutto\s*gesamt|grand\s*total|invoice\s*total|"
        r"total\s*(?:amount\s*)?(?:incl\.?|including|inkl\.?)\s*(?:vat|tax)|"
        r"total\s*gross|gross\s*total|total\s*ttc|montant\s*ttc|total\s*toutes\s*taxes|"
        r"totaal\s*incl\.?\s*btw|totaalbedrag)",
        _I,
    ),
    weak=_GROSS_WEAK,
    veto=_NOT_GROSS,
)
AMOUNT_DUE = FieldLabels(
    strong=re.compile(
        r"(zahlbetrag|zu\s*zahlen(?:der\s*betrag)?|offener\s*betrag|restbetrag|"
        r"amount\s*due|balance\s*due|total\s*due|amount\s*payable|amount\s*to\s*pay|"
        r"net\s*[àa]\s*payer|montant\s*[àa]\s*payer|reste\s*[àa]\s*payer|"
        r"te\s*betalen|openstaand\s*bedrag)",
        _I,
    ),
    weak=None,
    veto=re.compile(r"(bereits|already|d[ée]j[àa]|reeds)", _I),
)
AMOUNT_DUE_NOTHING_PAID = FieldLabels(
    strong=AMOUNT_DUE.strong,
    weak=re.compile(f"{GROSS.strong.pattern}|{_GROSS_WEAK.pattern}", _I),
    veto=_NOT_GROSS,
)
"""When the XML says nothing was paid in advance, the gross total printed is the amount
due as well: a page without an amount-due label is checked against its total."""
IBAN = FieldLabels(strong=re.compile(r"\bIBAN\b", _I), weak=None)

_SEPARATORS = "[\\s:=#.()\\[\\]/\\-\u2013€$£*]*"
_QUALIFIERS = (
    r"(?:(?:inkl|incl|including)\.?\s*(?:\d{1,2}(?:[.,]\d{1,2})?\s*%\s*)?"
    r"(?:mwst|ust|vat|tax|tva|btw)|brutto|gross|ttc|eur|usd|gbp|chf)\b\.?"
)
BETWEEN = re.compile(rf"{_SEPARATORS}(?:{_QUALIFIERS}{_SEPARATORS})*", _I)
"""What may stand between a label and its value: separators, a currency and words that
qualify the label ("Gesamtbetrag (inkl. MwSt.) EUR: 1.234,56"); anything else ("Total
VAT", "Summe netto") and the value belongs to something else."""

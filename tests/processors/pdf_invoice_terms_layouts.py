"""Tuning families for the terms and totals real invoices print (issue 36, task
h36totals): a due date a person computes from the payment terms (`Zahlbar innerhalb von
14 Tagen ohne Abzug`, `Netto 30 Tage`, `payable within 30 days`, `Paiement à 30 jours`,
`Betaling binnen 14 dagen`) or reads beside a discount (`2 % Skonto bis ..., netto bis
...`); prepayments and instalments deducted (`Anzahlung`, `abzgl. geleistete
Abschläge`, `Payment received`, `Acompte`, `Solde à payer`, `Reeds betaald`,
`Restbetrag`); totals as two columns of label-value pairs, as a table with several VAT
rates above the items, `Summe netto` / `Subtotal / Tax / Total` / `Totaal excl. / BTW /
incl.`; credit notes printed negative; thousands grouped as each language groups them;
dates spelled with month names. The terms and the layout vary with the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from tests.processors.pdf_invoice_pages import WORDS, Page, footer, items, rate_text
from tests.processors.pdf_invoice_truth import Truth, amount_in, date_in, random_truth

_MONTHS = {
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
           "september", "oktober", "november", "december"),
}  # fmt: skip


def spelled(language: str, day: date) -> str:
    """A date with its month's name: `3. März 2024`, `3 March 2024`, `3 mars 2024`."""
    month = _MONTHS[language][day.month - 1]
    return f"{day.day}. {month} {day.year}" if language == "de" else f"{day.day} {month} {day.year}"


def _days(truth: Truth) -> int:
    return (truth.due_date - truth.issue_date).days


def _variant(truth: Truth, count: int) -> int:
    """Which of `count` variants this seed prints (drawn from the values, so stable)."""
    return (sum(map(ord, truth.number)) + truth.issue_date.day) % count


def _rows(page: Page, x: float, x_end: float, y: float, rows: list[tuple[str, str]]) -> float:
    for label, value in rows:
        page.text(x, y, label)
        page.right(x_end, y, value)
        y += 5
    return y


def _head(page: Page, truth: Truth, title: str, info: list[tuple[str, str]]) -> None:
    """Seller's letterhead, the buyer's address on the left, title and info on the right."""
    page.text(20, 12, truth.seller.name, bold=True, size=13)
    page.text(20, 18, f"{truth.seller.street}, {truth.seller.city}", size=8)
    buyer = truth.buyer
    page.lines(20, 45, [buyer.name, buyer.street, buyer.city])
    page.text(120, 45, title, bold=True, size=12)
    for index, (label, value) in enumerate(info):
        page.text(120, 52 + 5 * index, label)
        page.text(155, 52 + 5 * index, value)


# --- German: terms as text, Skonto, Summe netto/brutto -----------------------------------


def german_terms(truth: Truth) -> bytes:
    """German, the issue date spelled (`3. März 2024`), `Summe netto / MwSt. / Summe
    brutto`, and the due date only in the terms: days to count, or a Skonto line with
    its two dates (the discount's and the net's)."""
    page = Page()
    _head(
        page,
        truth,
        "Rechnung",
        [("Rechnungsnummer", truth.number), ("Datum", spelled("de", truth.issue_date))],
    )
    y = items(page, 80, truth, WORDS["de"])

    def money(value: Decimal) -> str:
        return f"{amount_in('de', value)} EUR"

    rows = [("Summe netto", money(truth.net))]
    rows += [(f"MwSt. {rate_text(r)} %", money(t)) for r, t in truth.taxes().items()]
    rows.append(("Summe brutto", money(truth.gross)))
    y = _rows(page, 110, 190, y + 2, rows)
    days, skonto = _days(truth), date_in("de", truth.issue_date + timedelta(days=7))
    terms = (
        f"Zahlbar innerhalb von {days} Tagen ohne Abzug.",
        f"Zahlungsbedingungen: Netto {days} Tage",
        f"Zahlungsziel: {days} Tage netto ab Rechnungsdatum.",
        f"Bei Zahlung bis {skonto} 2 % Skonto, netto bis {date_in('de', truth.due_date)}.",
        f"Zahlbar bis {skonto} mit 2 % Skonto\nZahlbar bis {date_in('de', truth.due_date)} "
        "ohne Abzug",
    )[_variant(truth, 5)]
    page.lines(20, y + 8, terms.split("\n"))
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


# --- German: VAT table above the items, instalments deducted, Restbetrag ----------------


def german_instalments(truth: Truth) -> bytes:
    """German annual bill: the totals first, as a table by VAT rate (`USt-Satz  Netto
    USt  Brutto`, a `Summe` row), then the instalments paid deducted (`abzgl. geleistete
    Abschläge`, or `abzgl. Anzahlung vom ...`) and the rest due (`Restbetrag`,
    `noch zu zahlen`); the items below; the due date `Fällig am` or spelled."""
    page = Page(size=9)
    _head(
        page,
        truth,
        "Jahresrechnung",
        [("Rechnungs-Nr.", truth.number), ("Rechnungsdatum", date_in("de", truth.issue_date))],
    )
    for x, head in ((60, "USt-Satz"), (105, "Netto"), (145, "USt"), (190, "Brutto")):
        page.right(x, 80, head, bold=True)
    y: float = 85
    taxes = truth.taxes()
    for rate, base in truth.bases().items():
        cells = (f"{rate_text(rate)} %", *(amount_in("de", v) for v in (base, taxes[rate])))
        values = (*cells, amount_in("de", base + taxes[rate]))
        for x, cell in zip((60, 105, 145, 190), values, strict=True):
            page.right(x, y, cell)
        y += 5
    page.text(20, y, "Summe", bold=True)
    sums = (truth.net, truth.vat, truth.gross)
    for x, value in zip((105, 145, 190), sums, strict=True):
        page.right(x, y, amount_in("de", value), bold=True)
    deducted = ("abzgl. geleistete Abschläge", "abzgl. Anzahlung vom 01.02.2023")
    rest = ("Restbetrag", "noch zu zahlen")
    variant = _variant(truth, 2)
    y = _rows(
        page,
        20,
        190,
        y + 7,
        [
            (deducted[variant], f"-{amount_in('de', truth.prepaid)} EUR"),
            (rest[variant], f"{amount_in('de', truth.amount_due)} EUR"),
        ],
    )
    due = (
        f"Fällig am {date_in('de', truth.due_date)}",
        f"Bitte überweisen Sie den Restbetrag bis zum {spelled('de', truth.due_date)}.",
    )[variant]
    page.text(20, y + 3, due)
    items(page, y + 14, truth, WORDS["de"])
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


# --- English: Subtotal / Tax / Total, payment received, Balance due ---------------------


def english_terms(truth: Truth) -> bytes:
    """English in pounds: dates spelled (`3 March 2024`), `Subtotal / Tax / Total`,
    `Payment received`, `Balance due`, and the terms `payable within 30 days` or
    `Net 30`, no due date printed."""
    page = Page()
    _head(
        page,
        truth,
        "INVOICE",
        [("Invoice no.", truth.number), ("Invoice date", spelled("en", truth.issue_date))],
    )
    y = items(page, 80, truth, WORDS["en"])

    def money(value: Decimal) -> str:
        return f"£{amount_in('en', value)}"

    rows = [("Subtotal", money(truth.net)), ("Tax", money(truth.vat))]
    rows.append(("Total", money(truth.gross)))
    if truth.prepaid:
        rows.append(("Payment received", f"-{money(truth.prepaid)}"))
    rows.append(("Balance due", money(truth.amount_due)))
    y = _rows(page, 120, 190, y + 2, rows)
    days = _days(truth)
    terms = (
        f"Payment terms: payable within {days} days of the invoice date.",
        f"Terms: Net {days}",
        f"Please pay within {days} days. Thank you for your business.",
    )[_variant(truth, 3)]
    page.text(20, y + 6, terms)
    footer(page, truth, "VAT Reg. No.", "Bank details")
    return page.bytes()


# --- French: two columns of totals, Acompte, Solde à payer ------------------------------


def french_two_columns(truth: Truth) -> bytes:
    """French: the totals as two columns of label-value pairs (`Total HT`, `TVA`, `Total
    TTC` on the left, `Acompte versé`, `Solde à payer` on the right), space-grouped
    amounts, the date spelled (`Le 3 mars 2024`), the terms `à régler avant le ...` or
    `Paiement à 30 jours`."""
    page = Page(size=9)
    _head(
        page,
        truth,
        f"FACTURE N° {truth.number}",
        [("Date", spelled("fr", truth.issue_date)), ("N° client", "C-" + truth.number[-4:])],
    )
    y = items(page, 80, truth, WORDS["fr"])

    def money(value: Decimal) -> str:
        return f"{amount_in('fr', value)} €"

    left = [("Total HT", money(truth.net))]
    left += [(f"TVA {rate_text(r)} %", money(t)) for r, t in truth.taxes().items()]
    left.append(("Total TTC", money(truth.gross)))
    right = [("Acompte versé", money(truth.prepaid)), ("Solde à payer", money(truth.amount_due))]
    _rows(page, 20, 95, y + 2, left)
    y = max(_rows(page, 115, 190, y + 2, right), y + 2 + 5 * len(left))
    terms = (
        f"Facture à régler avant le {spelled('fr', truth.due_date)}.",
        f"Paiement à {_days(truth)} jours date de facture.",
    )[_variant(truth, 2)]
    page.text(20, y + 6, terms)
    footer(page, truth, "N° TVA")
    return page.bytes()


# --- Dutch: Totaal excl. / BTW / incl., Reeds betaald, te betalen vóór -------------------


def dutch_terms(truth: Truth) -> bytes:
    """Dutch: `Totaal excl. BTW / BTW 21% / Totaal incl. BTW`, `Reeds betaald`, `Nog te
    betalen`, the terms `te betalen voor 3 april 2024` or `binnen 14 dagen`."""
    page = Page()
    _head(
        page,
        truth,
        "FACTUUR",
        [("Factuurnummer", truth.number), ("Factuurdatum", spelled("nl", truth.issue_date))],
    )
    y = items(page, 80, truth, WORDS["nl"])

    def money(value: Decimal) -> str:
        return f"€ {amount_in('nl', value)}"

    rows = [("Totaal excl. BTW", money(truth.net))]
    rows += [(f"BTW {rate_text(r)}%", money(t)) for r, t in truth.taxes().items()]
    rows += [("Totaal incl. BTW", money(truth.gross)), ("Reeds betaald", money(truth.prepaid))]
    rows.append(("Nog te betalen", money(truth.amount_due)))
    y = _rows(page, 110, 190, y + 2, rows)
    terms = (
        f"Wij verzoeken u het bedrag te betalen voor {spelled('nl', truth.due_date)}.",
        f"Betaling binnen {_days(truth)} dagen na factuurdatum.",
    )[_variant(truth, 2)]
    page.text(20, y + 6, terms)
    footer(page, truth, "BTW-nummer")
    return page.bytes()


# --- English credit note: negative amounts with thousands, dates spelled ----------------


def english_credit(truth: Truth) -> bytes:
    """An English credit note: every amount negative (`-1,234.56`), the date spelled
    month first (`March 3, 2024`), `Total credit`, refunded `within 14 days`."""
    page = Page()
    _head(
        page,
        truth,
        "CREDIT NOTE",
        [
            ("Credit note no.", truth.number),
            ("Date", f"{_MONTHS['en'][truth.issue_date.month - 1]} {truth.issue_date.day}, "
                     f"{truth.issue_date.year}"),
        ],
    )  # fmt: skip
    y = items(page, 80, truth, WORDS["en"])

    def money(value: Decimal) -> str:
        return f"{amount_in('en', value)} EUR"

    rows = [("Net amount", money(truth.net)), ("VAT", money(truth.vat))]
    rows.append(("Total credit", money(truth.gross)))
    y = _rows(page, 120, 190, y + 2, rows)
    page.text(20, y + 6, f"We will refund the amount within {_days(truth)} days.")
    footer(page, truth, "VAT No.", "Bank")
    return page.bytes()


# --- values -----------------------------------------------------------------------------


def large(country: str, prepaid: str = "0") -> Callable[[str], Truth]:
    """Values from the seed with quantities large enough for thousands groups, and a
    share of the gross paid before (`prepaid`, 0 for none)."""

    def truth(seed: str) -> Truth:
        drawn = random_truth(seed, country)
        lines = tuple(replace(line, quantity=line.quantity * 3) for line in drawn.lines)
        drawn = replace(drawn, lines=lines)
        share = Decimal(prepaid)
        return replace(drawn, prepaid=(drawn.gross * share).quantize(Decimal("0.01")))

    return truth


def credit(seed: str) -> Truth:
    return random_truth(seed, "GB", credit_note=True, currency="EUR")


__all__ = [
    "credit",
    "dutch_terms",
    "english_credit",
    "english_terms",
    "french_two_columns",
    "german_instalments",
    "german_terms",
    "large",
    "spelled",
]

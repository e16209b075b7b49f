"""Documents at the invoice boundary (issue 36), generated in German and English: ones
that look like invoices and are not (delivery notes, orders, quotes, payment
reminders, account statements: numbers, dates, parties, item tables, often totals and
bank data) and invoices that mention what the others are called (an order and a
delivery note referenced, credit notes: Gutschrift, Avoir, credit note with negative
amounts). Sent as `auto`, an invoice must come back an invoice and the others an
other document."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from tests.processors.hybrid_layouts import english_long_date
from tests.processors.pdf_invoice_layouts import TUNING, _window
from tests.processors.pdf_invoice_pages import WORDS, Page, footer, items, totals
from tests.processors.pdf_invoice_truth import Truth, amount_in, date_in, random_truth


@dataclass(frozen=True, slots=True)
class Boundary:
    name: str
    invoice: bool  # what the document is
    render: Callable[[str], bytes]  # a seed -> the PDF

    def document(self, seed: int) -> bytes:
        return self.render(f"{self.name}:{seed}")


def _letter(truth: Truth, title: str, fields: list[tuple[str, str]]) -> tuple[Page, float]:
    """A German business letter up to its subject: letterhead, window, fields right."""
    page = Page()
    page.text(125, 12, truth.seller.name, bold=True, size=13)
    _window(page, 45, truth)
    for index, (label, value) in enumerate(fields):
        page.text(120, 45 + index * 5, label)
        page.text(158, 45 + index * 5, value)
    page.text(20, 98, title, bold=True, size=13)
    return page, 106


def lieferschein(seed: str) -> bytes:
    truth = random_truth(seed, "DE")
    fields = [("Lieferschein-Nr.", truth.delivery_note), ("Datum", date_in("de", truth.issue_date)),
              ("Ihre Bestellung", truth.order)]  # fmt: skip
    page, y = _letter(truth, f"Lieferschein {truth.delivery_note}", fields)
    page.text(20, y, "Wir liefern Ihnen heute folgende Artikel:")
    for index, line in enumerate(truth.lines, start=1):
        page.text(20, y + 6 + index * 5, f"{index}   {line.description}")
        page.right(150, y + 6 + index * 5, f"{line.quantity.normalize():f} Stück")
    page.text(20, y + 40, "Ware erhalten: ______________________  (Unterschrift)")
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def bestellung(seed: str) -> bytes:
    truth = random_truth(seed, "DE")
    fields = [("Bestell-Nr.", truth.order), ("Datum", date_in("de", truth.issue_date)),
              ("Liefertermin", date_in("de", truth.due_date))]  # fmt: skip
    page, y = _letter(truth, f"Bestellung Nr. {truth.order}", fields)
    page.text(20, y, "hiermit bestellen wir zu Ihren Bedingungen:")
    y = totals(page, items(page, y + 8, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(20, y + 6, "Bitte bestätigen Sie den Auftrag und nennen Sie uns den Liefertermin.")
    return page.bytes()


def angebot(seed: str) -> bytes:
    truth = random_truth(seed, "DE")
    fields = [("Angebots-Nr.", "AN-" + truth.number), ("Datum", date_in("de", truth.issue_date)),
              ("Gültig bis", date_in("de", truth.due_date))]  # fmt: skip
    page, y = _letter(truth, "Angebot", fields)
    page.text(20, y, "gerne bieten wir Ihnen an:")
    y = totals(page, items(page, y + 8, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(20, y + 6, "Wir freuen uns auf Ihren Auftrag. Dieses Angebot ist freibleibend.")
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def mahnung(seed: str) -> bytes:
    truth = random_truth(seed, "DE")
    fields = [("Kunden-Nr.", "K-" + truth.order[-5:]), ("Datum", date_in("de", truth.due_date))]
    page, y = _letter(truth, "Zahlungserinnerung - 1. Mahnung", fields)
    gross = amount_in("de", truth.gross)
    page.lines(20, y, [
        f"unsere Rechnung Nr. {truth.number} vom {date_in('de', truth.issue_date)} über "
        f"{gross} EUR ist noch offen.",
        "Sicher haben Sie die Zahlung nur übersehen.",
    ])  # fmt: skip
    rows = (("Offener Rechnungsbetrag", truth.gross), ("Mahngebühr", Decimal("5.00")),
            ("Zu zahlender Betrag", truth.gross + 5))  # fmt: skip
    for index, (label, value) in enumerate(rows):
        page.text(20, y + 16 + index * 5, label)
        page.right(150, y + 16 + index * 5, f"{amount_in('de', value)} EUR")
    page.text(20, y + 36, "Bitte überweisen Sie den Betrag innerhalb von 7 Tagen.")
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def kontoauszug(seed: str) -> bytes:
    """A supplier's statement of the customer's account: invoices, payments, balance."""
    truth = random_truth(seed, "DE")
    fields = [("Kunden-Nr.", "K-" + truth.order[-5:]), ("Stand", date_in("de", truth.due_date))]
    page, y = _letter(truth, "Kontoauszug / Offene Posten", fields)
    rows = [(f"Rechnung {truth.number}", truth.issue_date, truth.gross),
            ("Zahlung, danke", truth.due_date, -truth.gross / 2)]  # fmt: skip
    for index, (text, day, value) in enumerate(rows):
        page.text(20, y + index * 5, date_in("de", day))
        page.text(50, y + index * 5, text)
        page.right(150, y + index * 5, amount_in("de", value.quantize(Decimal("0.01"))))
    page.text(20, y + 14, "Saldo zu unseren Gunsten", bold=True)
    page.right(150, y + 14, amount_in("de", (truth.gross / 2).quantize(Decimal("0.01"))))
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def _english(truth: Truth, title: str, fields: list[tuple[str, str]]) -> tuple[Page, float]:
    page = Page()
    seller = truth.seller
    page.lines(20, 15, [seller.name, seller.street, seller.city])
    page.text(130, 15, title, bold=True, size=14)
    for index, (label, value) in enumerate(fields):
        page.text(130, 24 + index * 5, label, bold=True)
        page.text(160, 24 + index * 5, value)
    page.lines(20, 50, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    return page, 75


def delivery_note(seed: str) -> bytes:
    truth = random_truth(seed, "GB")
    fields = [("Note No.", truth.delivery_note), ("Date", english_long_date(truth.issue_date)),
              ("Your order", truth.order)]  # fmt: skip
    page, y = _english(truth, "DELIVERY NOTE", fields)
    for index, line in enumerate(truth.lines, start=1):
        page.text(20, y + index * 5, f"{index}   {line.description}")
        page.right(150, y + index * 5, f"{line.quantity.normalize():f} pcs")
    page.text(20, y + 35, "Received in good condition: ____________________")
    return page.bytes()


def purchase_order(seed: str) -> bytes:
    truth = random_truth(seed, "GB")
    page, y = _english(truth, "PURCHASE ORDER", [("PO Number", truth.order),
                       ("Date", english_long_date(truth.issue_date)),
                       ("Deliver by", english_long_date(truth.due_date))])  # fmt: skip
    y = totals(page, items(page, y, truth, WORDS["en"]), truth, WORDS["en"], "GBP")
    page.text(20, y + 6, "Please confirm this order and quote the PO number on your invoice.")
    return page.bytes()


def quotation(seed: str) -> bytes:
    truth = random_truth(seed, "GB")
    page, y = _english(truth, "QUOTATION", [("Quote No.", "Q-" + truth.number),
                       ("Date", english_long_date(truth.issue_date)),
                       ("Valid until", english_long_date(truth.due_date))])  # fmt: skip
    y = totals(page, items(page, y, truth, WORDS["en"]), truth, WORDS["en"], "GBP")
    page.text(20, y + 6, "This quotation is not a request for payment.")
    return page.bytes()


def payment_reminder(seed: str) -> bytes:
    truth = random_truth(seed, "GB")
    page, y = _english(truth, "PAYMENT REMINDER", [("Account", truth.order[-5:]),
                       ("Date", english_long_date(truth.due_date))])  # fmt: skip
    page.lines(20, y, [
        f"Our invoice {truth.number} of {english_long_date(truth.issue_date)} for "
        f"GBP {amount_in('en', truth.gross)} is now overdue.",
        f"Please pay the outstanding balance of GBP {amount_in('en', truth.gross)} within 7 days.",
    ])  # fmt: skip
    return page.bytes()


def account_statement(seed: str) -> bytes:
    truth = random_truth(seed, "GB")
    page, y = _english(truth, "STATEMENT", [("Account", truth.order[-5:]),
                       ("Statement date", english_long_date(truth.due_date))])  # fmt: skip
    rows = (("Opening balance", Decimal("0.00")), (f"Invoice {truth.number}", truth.gross),
            ("Payment received", -truth.gross), ("Closing balance", Decimal("0.00")))  # fmt: skip
    for index, (text, value) in enumerate(rows):
        page.text(20, y + index * 5, text)
        page.right(150, y + index * 5, amount_in("en", value))
    return page.bytes()


def avoir(seed: str) -> bytes:
    """A French credit note: "Avoir N° ...", negative amounts, the invoice it cancels."""
    truth = random_truth(seed, "FR", credit_note=True)
    page = Page()
    page.lines(20, 15, [truth.seller.name, truth.seller.street, truth.seller.city])
    page.lines(115, 40, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    page.text(20, 70, f"AVOIR N° {truth.number}", bold=True, size=13)
    page.text(20, 77, f"Date : {date_in('fr', truth.issue_date)} - sur facture {truth.order}")
    totals(page, items(page, 88, truth, WORDS["fr"]), truth, WORDS["fr"])
    page.text(20, 275, f"N° TVA intracommunautaire {truth.seller.vat_id}")
    return page.bytes()


def english_credit_note(seed: str) -> bytes:
    truth = random_truth(seed, "GB", credit_note=True)
    page, y = _english(truth, "CREDIT NOTE", [("Credit note No.", truth.number),
                       ("Date", english_long_date(truth.issue_date)),
                       ("Against invoice", truth.order)])  # fmt: skip
    totals(page, items(page, y, truth, WORDS["en"]), truth, WORDS["en"], "GBP")
    page.text(20, 275, f"VAT Reg. No. {truth.seller.vat_id}")
    return page.bytes()


def _family(name: str) -> Callable[[str], bytes]:
    family = next(f for f in TUNING if f.name == name)
    return lambda seed: family.render(family.truth(f"boundary-{seed}"))


def _invoice_with_delivery_note(seed: str) -> bytes:
    """An English invoice whose header names the delivery note and purchase order."""
    truth = random_truth(seed, "GB")
    page, y = _english(truth, "INVOICE", [("Invoice No.", truth.number),
                       ("Date", english_long_date(truth.issue_date)), ("PO Number", truth.order),
                       ("Delivery note", truth.delivery_note)])  # fmt: skip
    totals(page, items(page, y + 5, truth, WORDS["en"]), truth, WORDS["en"], "GBP")
    return page.bytes()


BOUNDARY: tuple[Boundary, ...] = (
    Boundary("lieferschein", False, lieferschein),
    Boundary("bestellung", False, bestellung),
    Boundary("angebot", False, angebot),
    Boundary("mahnung", False, mahnung),
    Boundary("kontoauszug", False, kontoauszug),
    Boundary("delivery_note", False, delivery_note),
    Boundary("purchase_order", False, purchase_order),
    Boundary("quotation", False, quotation),
    Boundary("payment_reminder", False, payment_reminder),
    Boundary("account_statement", False, account_statement),
    Boundary("rechnung_mit_bestellung", True, _family("order_references")),
    Boundary("gutschrift", True, _family("credit_note")),
    Boundary("avoir", True, avoir),
    Boundary("credit_note_en", True, english_credit_note),
    Boundary("invoice_with_delivery_note", True, _invoice_with_delivery_note),
)

"""Generated plain PDF invoices with known truth (issue 36): the tuning families. Each
family draws its values from a seed (pdf_invoice_truth.py) and prints them in its own
layout; the measurement (pdf_accuracy.py) compares what the reader makes of the PDF
with the `Invoice` the values give. Seeded, deterministic, no embedded XML.

The held-out families are in pdf_invoice_heldout.py; `FAMILIES` here lists both, each
marked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from decimal import Decimal

from processors.invoice_model import Invoice
from tests.processors.hybrid_layouts import english_long_date
from tests.processors.pdf_invoice_more_layouts import (
    form_view,
    letter_place_date,
    summary_row,
    with_disbursement,
)
from tests.processors.pdf_invoice_pages import WORDS, Page, footer, items, totals
from tests.processors.pdf_invoice_party_layouts import PARTY_FAMILIES
from tests.processors.pdf_invoice_terms_layouts import (
    credit,
    dutch_terms,
    english_credit,
    english_terms,
    french_two_columns,
    german_instalments,
    german_terms,
    large,
)
from tests.processors.pdf_invoice_truth import (
    Truth,
    amount_in,
    date_in,
    grouped_iban,
    random_truth,
)

Render = Callable[[Truth], bytes]


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    truth: Callable[[str], Truth]  # values from a seed
    render: Render
    held_out: bool = False

    def document(self, seed: int) -> tuple[str, bytes, Invoice]:
        truth = self.truth(f"{self.name}:{seed}")
        return f"{self.name} seed {seed}", self.render(truth), truth.invoice()


def _window(page: Page, y: float, truth: Truth) -> None:
    """A DIN 5008 address window at `y` (27 mm form A, 45 mm form B): the return
    address in small print, then the buyer."""
    seller = truth.seller
    page.text(20, y, f"{seller.name} · {seller.street} · {seller.city}", size=7)
    buyer = truth.buyer
    page.lines(20, y + 8, [buyer.name, f"z. Hd. {truth.contact}", buyer.street, buyer.city])


def din5008_form_a(truth: Truth) -> bytes:
    """German letter, form A: window at 27 mm, an information block right of it with
    the number, customer number and date, a table and a totals block, the footer."""
    page = Page()
    page.text(125, 12, truth.seller.name, bold=True, size=13)
    _window(page, 27, truth)
    info = [
        ("Rechnungs-Nr.", truth.number),
        ("Kunden-Nr.", "K-10" + truth.number[-3:]),
        ("Datum", date_in("de", truth.issue_date)),
        ("Leistungsdatum", date_in("de", truth.issue_date)),
    ]
    for index, (label, value) in enumerate(info):
        page.text(125, 32 + index * 5, label)
        page.text(158, 32 + index * 5, value)
    page.text(20, 80, "Rechnung", bold=True, size=13)
    page.text(20, 88, f"Sehr geehrte/r {truth.contact},")
    page.text(20, 93, "wir berechnen Ihnen für unsere Leistungen:")
    y = totals(page, items(page, 102, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(20, y + 6, f"Zahlbar ohne Abzug bis {date_in('de', truth.due_date)}.")
    footer(page, truth, "USt-IdNr.", "Sparkasse")
    return page.bytes()


def din5008_form_b(truth: Truth) -> bytes:
    """German letter, form B: letterhead on top, window at 45 mm, a reference line
    ("Ihr Zeichen, Ihre Nachricht vom, Unser Zeichen, Datum"), the subject
    "Rechnung Nr. ... vom ...", the customer's order in the text."""
    page = Page()
    page.text(20, 12, truth.seller.name, bold=True, size=15)
    page.text(20, 19, f"{truth.seller.street} | {truth.seller.city} | Tel. 030 987654")
    _window(page, 45, truth)
    heads = ("Ihr Zeichen", "Ihre Nachricht vom", "Unser Zeichen", "Datum")
    values = (truth.contact.split()[-1][:3].upper(), "", "vk-jm", date_in("de", truth.issue_date))
    for index, (head, value) in enumerate(zip(heads, values, strict=True)):
        page.text(20 + index * 42, 96, head, size=7)
        page.text(20 + index * 42, 100, value)
    page.text(
        20, 110, f"Rechnung Nr. {truth.number} vom {date_in('de', truth.issue_date)}", bold=True
    )
    page.text(20, 117, f"Ihre Bestellung {truth.order}")
    y = totals(page, items(page, 126, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(20, y + 6, f"Bitte überweisen Sie den Betrag bis zum {date_in('de', truth.due_date)}")
    page.text(20, y + 11, f"auf unser Konto IBAN {grouped_iban(truth.iban)}.")
    footer(page, truth, "USt-ID:", "Volksbank")
    return page.bytes()


def english_bill_to(truth: Truth) -> bytes:
    """English: seller top left, INVOICE top right with number and dates, "Bill to" and
    "Ship to" side by side, totals in pounds, bank details at the foot."""
    page = Page()
    seller = truth.seller
    page.lines(20, 15, [seller.name, seller.street, seller.city, f"VAT Reg. No. {seller.vat_id}"])
    page.text(140, 15, "INVOICE", bold=True, size=16)
    details = (
        ("Invoice No.", truth.number),
        ("Invoice Date", english_long_date(truth.issue_date)),
        ("Due Date", english_long_date(truth.due_date)),
    )
    for index, (label, value) in enumerate(details):
        page.text(130, 26 + index * 5, label, bold=True)
        page.text(158, 26 + index * 5, value)
    page.text(20, 50, "Bill to", bold=True)
    page.text(110, 50, "Ship to", bold=True)
    address = [truth.buyer.name, truth.buyer.street, truth.buyer.city]
    page.lines(20, 55, address)
    page.lines(110, 55, [truth.contact, *address[1:]])
    y = totals(page, items(page, 80, truth, WORDS["en"]), truth, WORDS["en"], "GBP")
    page.text(20, y + 8, "Payment terms: 30 days. Please quote the invoice number.")
    page.lines(20, 262, ["Bank details", f"Account name: {seller.name}",
                         f"IBAN: {grouped_iban(truth.iban)}   SWIFT/BIC: {truth.bic}",
                         seller.register])  # fmt: skip
    return page.bytes()


def french_facture(truth: Truth) -> bytes:
    """French: "Facture N°", dates with slashes, Total HT / TVA / Total TTC, an acompte
    and "Net à payer" when one was paid, SIRET and TVA intracommunautaire at the foot."""
    page = Page()
    seller = truth.seller
    page.lines(20, 15, [seller.name, seller.street, seller.city], step=5)
    page.text(115, 40, "Client :", bold=True)
    page.lines(115, 45, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    page.text(20, 70, f"FACTURE N° {truth.number}", bold=True, size=13)
    page.text(20, 77, f"Date : {date_in('fr', truth.issue_date)}")
    page.text(80, 77, f"Échéance : {date_in('fr', truth.due_date)}")
    page.text(20, 82, f"Votre commande : {truth.order}")
    y = totals(page, items(page, 92, truth, WORDS["fr"]), truth, WORDS["fr"])
    page.text(20, y + 6, "Conditions de paiement : virement à réception.")
    page.lines(20, 268, [f"{seller.name} - {seller.register} - N° TVA intracommunautaire "
                         f"{seller.vat_id}", f"IBAN {grouped_iban(truth.iban)} - BIC {truth.bic}"],
               step=4)  # fmt: skip
    return page.bytes()


def dutch_factuur(truth: Truth) -> bytes:
    """Dutch: labels left, values right of them, btw rows and "Te betalen"."""
    page = Page()
    seller = truth.seller
    page.text(20, 15, seller.name, bold=True, size=14)
    page.lines(20, 22, [seller.street, seller.city, seller.register, f"Btw-nr: {seller.vat_id}"])
    page.lines(120, 22, ["Factuur aan:", truth.buyer.name, truth.buyer.street, truth.buyer.city])
    page.text(20, 55, "FACTUUR", bold=True, size=14)
    for index, (label, value) in enumerate(
        (
            ("Factuurnummer", truth.number),
            ("Factuurdatum", date_in("nl", truth.issue_date)),
            ("Vervaldatum", date_in("nl", truth.due_date)),
        )
    ):
        page.text(20, 63 + index * 5, f"{label}:")
        page.text(55, 63 + index * 5, value)
    y = totals(page, items(page, 85, truth, WORDS["nl"]), truth, WORDS["nl"])
    page.text(20, y + 6, f"Gelieve te betalen op IBAN {grouped_iban(truth.iban)} t.n.v. "
              f"{seller.name} o.v.v. het factuurnummer.")  # fmt: skip
    return page.bytes()


def table_heavy(truth: Truth) -> bytes:
    """German, everything in tables: header fields as a row of columns, charges and
    allowances under the items, a VAT breakdown table (rate, base, tax) of two rates,
    then the sums."""
    page = Page(size=8.5)
    page.text(20, 12, truth.seller.name, bold=True, size=12)
    page.lines(20, 30, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    heads = ("Rechnungsnummer", "Rechnungsdatum", "Kundennummer", "Fällig am")
    cells = (truth.number, date_in("de", truth.issue_date), "40" + truth.number[-4:],
             date_in("de", truth.due_date))  # fmt: skip
    for index, (head, cell) in enumerate(zip(heads, cells, strict=True)):
        page.text(20 + index * 43, 55, head, bold=True)
        page.text(20 + index * 43, 60, cell)
    page.text(20, 68, "Rechnung", bold=True, size=12)
    y = items(page, 76, truth, WORDS["de"])

    def amount(value: Decimal) -> str:
        return amount_in("de", value)

    for label, value in (("Zuschlag Fracht", truth.charge), ("Abschlag Rabatt", -truth.allowance)):
        page.text(32, y, label)
        page.right(190, y, amount(value))
        y += 5
    page.text(20, y + 2, "Steuersatz", bold=True)
    page.right(110, y + 2, "Nettobetrag", bold=True)
    page.right(150, y + 2, "Steuerbetrag", bold=True)
    for index, (rate, base) in enumerate(truth.bases().items()):
        row_y = y + 7 + index * 5
        page.text(20, row_y, f"{rate.normalize():f} %")
        page.right(110, row_y, amount(base))
        page.right(150, row_y, amount(truth.taxes()[rate]))
    y += 10 + 5 * len(truth.bases())
    for label, value in (("Summe netto", truth.net), ("Summe USt.", truth.vat),
                         ("Rechnungsbetrag", truth.gross)):  # fmt: skip
        page.text(110, y, label, bold=label == "Rechnungsbetrag")
        page.right(190, y, f"{amount(value)} EUR")
        y += 5
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def credit_note(truth: Truth) -> bytes:
    """German credit note (Gutschrift) for returned goods: negative amounts, the invoice
    it corrects named, the amount refunded to the buyer."""
    page = Page()
    page.text(125, 12, truth.seller.name, bold=True, size=13)
    _window(page, 27, truth)
    page.text(20, 80, f"Gutschrift Nr. {truth.number}", bold=True, size=13)
    page.text(20, 87, f"Datum: {date_in('de', truth.issue_date)}")
    page.text(20, 92, f"zur Rechnung Nr. {truth.order} (Rücksendung)")
    y = totals(page, items(page, 100, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(
        20, y + 6, f"Den Betrag erstatten wir bis {date_in('de', truth.due_date)} auf Ihr Konto."
    )
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def order_references(truth: Truth) -> bytes:
    """A German invoice that names the buyer's order and the delivery note: "Rechnung
    gemäß Bestellung Nr. ...", "Lieferschein-Nr.", "Bestellung:" in the header fields."""
    page = Page()
    page.text(20, 12, truth.seller.name, bold=True, size=14)
    _window(page, 45, truth)
    issued = date_in("de", truth.issue_date)
    fields = (("Rechnungsnummer:", truth.number), ("Rechnungsdatum:", issued),
              ("Bestellung:", truth.order), ("Lieferschein:", truth.delivery_note))  # fmt: skip
    for index, (label, value) in enumerate(fields):
        page.text(120, 45 + index * 5, label)
        page.text(155, 45 + index * 5, value)
    page.text(20, 98, "Rechnung", bold=True, size=13)
    page.text(20, 105, f"Rechnung gemäß Bestellung Nr. {truth.order}, geliefert mit "
              f"Lieferschein Nr. {truth.delivery_note}.")  # fmt: skip
    y = totals(page, items(page, 114, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(20, y + 6, f"Fällig am {date_in('de', truth.due_date)}.")
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def label_value(truth: Truth) -> bytes:
    """Label-value pairs, each party a block: "Verkäufer / Name: ...", "Käufer / Name:
    ...", then invoice data and a totals list in the same style."""
    page = Page()
    y = 15.0
    page.text(20, y, "Rechnung", bold=True, size=14)
    blocks = (
        ("Verkäufer", truth.seller.name, truth.seller.street, truth.seller.city),
        ("Käufer", truth.buyer.name, truth.buyer.street, truth.buyer.city),
    )
    for heading, name, street, city in blocks:
        y += 9
        page.text(20, y, heading, bold=True)
        for label, value in (("Name:", name), ("Straße:", street), ("Ort:", city)):
            y += 5
            page.text(20, y, label)
            page.text(50, y, value)
    pairs = (("Rechnungsnummer:", truth.number),
             ("Rechnungsdatum:", date_in("de", truth.issue_date)),
             ("Fälligkeitsdatum:", date_in("de", truth.due_date)),
             ("USt-IdNr. Verkäufer:", truth.seller.vat_id),
             ("IBAN:", grouped_iban(truth.iban)))  # fmt: skip
    y += 4
    for label, value in pairs:
        y += 5
        page.text(20, y, label)
        page.text(60, y, value)
    totals(page, items(page, y + 10, truth, WORDS["de"]), truth, WORDS["de"])
    return page.bytes()


def prepayment(truth: Truth) -> bytes:
    """A German final invoice (Schlussrechnung) after a down payment: gross, less the
    down payment, "Zahlbetrag"."""
    page = Page()
    page.text(20, 12, truth.seller.name, bold=True, size=14)
    _window(page, 45, truth)
    page.text(120, 45, f"Schlussrechnung Nr. {truth.number}")
    page.text(120, 50, f"Datum: {date_in('de', truth.issue_date)}")
    page.text(20, 98, "Schlussrechnung", bold=True, size=13)
    y = totals(page, items(page, 106, truth, WORDS["de"]), truth, WORDS["de"])
    page.text(20, y + 6, f"Zahlbar bis {date_in('de', truth.due_date)} ohne Abzug.")
    footer(page, truth, "USt-IdNr.")
    return page.bytes()


def _with(country: str, **options: object) -> Callable[[str], Truth]:
    return lambda seed: random_truth(seed, country, **options)


def with_prepayment(truth: Truth) -> Truth:
    return replace(truth, prepaid=(truth.gross * Decimal("0.3")).quantize(Decimal("0.01")))


def with_two_rates(truth: Truth, rate: str = "7") -> Truth:
    """At least two VAT rates: a line at `rate` added when the lines have one."""
    if len({line.rate for line in truth.lines}) > 1:
        return truth
    extra = replace(truth.lines[0], description="Versand", rate=Decimal(rate))
    return replace(truth, lines=(*truth.lines, extra))


def _french(seed: str) -> Truth:
    truth = random_truth(seed, "FR")
    return with_prepayment(truth) if truth.issue_date.day % 2 else truth


_CHARGES = {"charge": Decimal("12.50"), "allowance": Decimal("20.00")}

TUNING: tuple[Family, ...] = (
    Family("din5008_form_a", _with("DE"), din5008_form_a),
    Family("din5008_form_b", _with("DE"), din5008_form_b),
    Family("english_bill_to", _with("GB"), english_bill_to),
    Family("french_facture", _french, french_facture),
    Family("dutch_factuur", _with("NL"), dutch_factuur),
    Family("table_heavy", lambda s: with_two_rates(_with("DE", **_CHARGES)(s)), table_heavy),
    Family("credit_note", _with("DE", credit_note=True), credit_note),
    Family("order_references", _with("DE"), order_references),
    Family("label_value", _with("DE"), label_value),
    Family("prepayment", lambda s: with_prepayment(random_truth(s, "DE")), prepayment),
    Family("summary_row", lambda s: with_disbursement(random_truth(s, "FR")), summary_row),
    Family("letter_place_date", _with("DE"), letter_place_date),
    Family("form_view", _with("DE"), form_view),
    Family("german_terms", large("DE"), german_terms),
    Family("german_instalments", large("DE", "0.6"), german_instalments),
    Family("english_terms", large("GB", "0.25"), english_terms),
    Family("french_two_columns", large("FR", "0.3"), french_two_columns),
    Family("dutch_terms", large("NL", "0.4"), dutch_terms),
    Family("english_credit", credit, english_credit),
    *(Family(name, truth, render) for name, truth, render in PARTY_FAMILIES),
)


def documents(families: tuple[Family, ...], seeds: range) -> Iterator[tuple[str, bytes, Invoice]]:
    for family in families:
        for seed in seeds:
            yield family.document(seed)

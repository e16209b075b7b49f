"""More tuning families (issue 36), each standing for a class of layout the corpus's
stripped hybrids showed the reader missing:

- `summary_row`: totals printed as a row of column heads over their values (`TOTAL HT
  TOTAL TVA TOTAL TTC` over `100,00 4,90 104,90`), below a VAT detail table with an
  exempt 0 % row, the item table's own `TOTAL HT` and rate columns above; the buyer's
  contact person over its name (`M. Jan Schröder`), its VAT id under `Vos identifiants`
  printed first, the seller's at the foot only;
- `letter_place_date`: a German letter dated by place and date (`München, den
  01.11.2024`) instead of a date label, a print stamp with date and time at the foot
  (`Datum: 30.10.2024 Zeit: 04:59:13`), the letterhead's last lines running into form
  A's window while the address sits in form B's, a branch of the seller at the top right;
- `form_view`: a structured view of an invoice (the XRechnung visualisation's layout):
  headings `Informationen zum Käufer`, each label on its own line with its value under
  it, labels without a value.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

from tests.processors.pdf_invoice_pages import WORDS, Page, items, rate_text
from tests.processors.pdf_invoice_truth import Line, Truth, amount_in, date_in, grouped_iban


def with_disbursement(truth: Truth) -> Truth:
    """A line at 0 % beside the taxed ones: disbursements (débours), exempt from VAT."""
    disbursement = Line("Débours", Decimal(1), Decimal("60.00"), Decimal(0))
    return replace(truth, lines=(*truth.lines, disbursement))


def summary_row(truth: Truth) -> bytes:
    """French: party columns (the buyer's contact person over its name), an item table
    with `TOTAL HT` and `TVA` columns, a `Détail
    TVA` table (code, rate, base, tax; an exempt row at 0 %), then the totals as three
    column heads over one row of values, the legal mentions in between on the left."""
    page = Page(size=8)
    seller, buyer = truth.seller, truth.buyer
    page.lines(20, 14, [seller.name, seller.street, seller.city, f"SIRET : {seller.register}"])
    page.text(120, 14, f"FACTURE N° : {truth.number}", bold=True)
    page.text(120, 19, f"Date : {date_in('fr', truth.issue_date)}")
    page.text(120, 26, "CLIENT :", bold=True)
    page.lines(120, 30, [f"M. {truth.contact}", buyer.name, buyer.street, buyer.city])
    page.text(120, 50, "Vos identifiants", bold=True)
    page.lines(122, 54, ["GLN : 3654789851", f"N° TVA : {buyer.vat_id}"], step=4)

    def amount(value: Decimal) -> str:
        return amount_in("fr", value)

    y = items(page, 60, truth, WORDS["fr"])
    page.text(20, y + 2, "Détail TVA (motif si exonération, code E)", bold=True)
    for x, head in ((120, "Code"), (140, "Taux"), (168, "Base TVA"), (190, "Montant TVA")):
        page.right(x, y + 2, head, bold=True)
    taxes = truth.taxes()
    rows = [(rate, base, taxes[rate]) for rate, base in truth.bases().items()]
    for index, (rate, base, tax) in enumerate(rows):
        row_y = y + 7 + index * 4
        if not rate:
            page.text(20, row_y, "VATEX-EU-79-C     DEBOURS")  # exempt: disbursements
        page.right(120, row_y, "S" if rate else "E")
        page.right(140, row_y, f"{rate:.2f} %".replace(".", ","))
        page.right(168, row_y, amount(base))
        page.right(190, row_y, amount(tax))
    y += 10 + 4 * len(rows)
    net, vat = truth.net, truth.vat
    for x, head in ((140, "TOTAL HT"), (165, "TOTAL TVA"), (190, "TOTAL TTC")):
        page.right(x, y, head, bold=True)
    page.text(20, y, "Tout retard de paiement engendre une pénalité exigible à compter")
    page.text(20, y + 4, "de la date d'échéance. Indemnité forfaitaire : 40 €.")
    for x, value in ((140, net), (165, vat), (190, net + vat)):
        page.right(x, y + 9, amount(value))
    page.text(120, y + 15, "Montant déjà payé :")
    page.right(190, y + 15, amount(truth.prepaid))
    page.text(20, y + 21, f"Date d'échéance :   {date_in('fr', truth.due_date)}")
    page.text(120, y + 21, "NET A PAYER", bold=True)
    page.right(190, y + 21, f"{amount(truth.amount_due)} EUR", bold=True)
    page.text(20, y + 28, f"IBAN : {grouped_iban(truth.iban)} - BIC : {truth.bic}")
    page.text(40, 285, f"{seller.name} - {seller.register} - N° TVA : {seller.vat_id}", size=7)
    return page.bytes()


def letter_place_date(truth: Truth) -> bytes:
    """German letter, form B: the letterhead down to form A's window (managing directors,
    register, VAT id), a branch address at the top right, the return address with commas,
    the info block dated `<town>, den <date>`, a totals table, and at the foot a print
    stamp with another date and a time."""
    page = Page(size=8.5)
    seller = truth.seller
    town = seller.city.split(" ", 1)[1]
    head = [seller.name, f"{seller.street}, {seller.city}", "Tel. 089/99822-0, Fax 089/99823-0",
            "Geschäftsführer: Uwe Hildinger (Vors.),", "Martin Stremplat",
            f"Sitz der Gesellschaft: {town}, {seller.register.split(' ', 2)[-1]}",
            f"USt-IdNr. {seller.vat_id}"]  # fmt: skip
    page.lines(60, 10, head, step=3.6)
    page.lines(140, 10, ["Geschäftsstelle Sonderkunden", seller.street, seller.city,
                         "Tel.: 089/99822-0"], step=3.6)  # fmt: skip
    page.text(22, 46, f"{seller.name.split()[0]}, {seller.street}, {seller.city}", size=6.5)
    buyer = truth.buyer
    page.lines(25, 62, [buyer.name, f"z. Hd. {truth.contact}", buyer.street, buyer.city])
    info = (("Debitorennummer:", "63/" + truth.number[-5:]), ("Rechnungsnummer:", truth.number),
            (f"{town}, den", date_in("de", truth.issue_date)), ("Seite:", "1"))  # fmt: skip
    for index, (label, value) in enumerate(info):
        page.text(120, 58 + index * 4, label)
        page.text(155, 58 + index * 4, value)
    page.text(95, 82, "Rechnung", bold=True, size=11)
    y = items(page, 92, truth, WORDS["de"])
    page.text(20, y + 2, "Gesamtbeträge", bold=True)
    for x, title in ((130, "Netto EUR"), (160, "MwSt. EUR"), (190, "Brutto EUR")):
        page.right(x, y + 2, title)
    y += 7
    for rate, base in truth.bases().items():
        tax = truth.taxes()[rate]
        page.right(100, y, f"{rate_text(rate)} % MwSt.:")
        for x, cell in ((130, base), (160, tax), (190, base + tax)):
            page.right(x, y, amount_in("de", cell))
        y += 4
    page.right(100, y + 2, "Summe gesamt")
    page.right(190, y + 2, amount_in("de", truth.gross))
    due = date_in("de", truth.due_date)
    page.text(20, y + 10, f"Rechnungsbetrag zahlbar ohne Abzug bis zum {due}.")
    printed = truth.issue_date - timedelta(days=2)
    page.text(20, 280, f"Bankverbindung: IBAN {grouped_iban(truth.iban)}   BIC {truth.bic}", size=7)
    page.text(135, 280, f"Datum:  {date_in('de', printed)}  Zeit:  04:59:13  Seite: 1", size=7)
    return page.bytes()


def form_view(truth: Truth) -> bytes:
    """The layout of a structured view: headed sections, each label on its line and its
    value indented under it, labels of empty fields left standing."""
    page = Page(size=8)
    y = 12.0

    def field(label: str, value: str = "") -> None:
        nonlocal y
        page.text(22, y, label)
        y += 4
        if value:
            page.text(26, y, value)
            y += 4

    def heading(text: str) -> None:
        nonlocal y
        y += 2
        page.text(20, y, text, bold=True, size=10)
        y += 6

    buyer, seller = truth.buyer, truth.seller
    heading("Informationen zum Käufer")
    field("Leitweg-ID:")
    field("Name:", buyer.name)
    field("Straße / Hausnummer:", buyer.street)
    field("PLZ / Ort:", buyer.city)
    field("E-Mail-Adresse:")
    heading("Informationen zum Verkäufer")
    field("Firmenname:", seller.name)
    field("Straße / Hausnummer:", seller.street)
    field("PLZ / Ort:", seller.city)
    field("Umsatzsteuer-ID:", seller.vat_id)
    heading("Rechnungsdaten")
    field("Rechnungsnummer:", truth.number)
    field("Rechnungsdatum:", date_in("de", truth.issue_date))
    field("Währung:", truth.currency)
    field("Bestellnummer:")
    heading("Gesamtbeträge der Rechnung")
    rows = (("Summe aller Positionen", "netto", truth.net), ("Summe Nachlässe", "netto", None),
            ("Gesamtsumme", "netto", truth.net), ("Summe Umsatzsteuer", "", truth.vat),
            ("Gesamtsumme", "brutto", truth.gross), ("Gezahlter Betrag", "brutto", None),
            ("Fälliger Betrag", "brutto", truth.amount_due))  # fmt: skip
    for label, kind, value in rows:
        page.text(22, y, label)
        page.text(100, y, kind)
        if value is not None:
            page.right(190, y, amount_in("de", value))
        y += 4
    heading("Zahlungsdaten")
    field("Fälligkeitsdatum:", date_in("de", truth.due_date))
    field("IBAN:", grouped_iban(truth.iban))
    field("BIC:", truth.bic)
    return page.bytes()

"""Tuning families for the parties (issue 36): placements of seller and buyer that real
invoices use and the other families do not. Each varies its fonts, positions, labels and
names with its values (a seed), so the reader is tuned on the class, not on one page:

- `side_bar`: the seller's data in a side bar at the right or left edge (name, address,
  contact, VAT id, register, bank), the buyer's address block without a label, with a
  department or c/o line under the name;
- `window_right`: the recipient's address in a window on the right (DIN 5008 form B
  mirrored, the Swiss and French letter), a salutation line (`Firma`, `Herr`, `Madame`)
  or a contact person with it, the seller's letterhead on the left;
- `buyer_labels`: a labelled buyer block in one of six languages (`Rechnungsempfänger:`,
  `Käufer` over `Name: ...`, `Bill to`, `Client`, `Acheteur`, `Destinataire`, `Klant`,
  `Cliente`, `Facturar a`), the label over the block or on the name's line;
- `two_columns`: a header of two columns, `Verkäufer | Käufer` (or `Seller | Buyer`),
  each party's block under its head;
- `footer_seller`: the seller named only in the footer (register line, VAT id, bank),
  the buyer in a window without a return address, its own VAT id under its address with
  the same label as the seller's;
- `logo_seller`: the seller's name only as a big word at the top (a logo set in type),
  its address at the foot without the name;
- `payment_part`: the Swiss letter's payment part at the foot, `Konto / Zahlbar an` (the
  seller) beside `Zahlbar durch` (the buyer), the recipient in a window on the right;
- `site_address`: a craftsman's invoice, a building site's address under `Bauvorhaben:`
  beside the window (an address, but no party's).

Names come with the legal forms real invoices print (`GmbH & Co. KG`, `S.à r.l.`,
`B.V.`, `S.L.`, `S.p.A.`) and long ones are split over two lines where a page has
little room (the name is both lines, joined by a space).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from decimal import Decimal

from tests.processors.hybrid_layouts import english_long_date
from tests.processors.pdf_invoice_pages import WORDS, Page, items, rate_text, totals
from tests.processors.pdf_invoice_truth import (
    Truth,
    amount_in,
    date_in,
    grouped_iban,
    random_truth,
)

_NAMES = (
    "Hoffmann Anlagenbau GmbH & Co. KG", "Schreinerei Vogt GmbH & Co. KG",
    "Luxtrade Services S.à r.l.", "Groenveld Installaties B.V.",
    "Distribuciones Navarro S.L.", "Officine Marchetti S.p.A.",
    "Kessler Medizintechnik GmbH", "Nordlicht Energie AG", "Atelier Blanc S.A.",
    "Bergmann & Partner mbB", "Meyer Haustechnik e.K.", "Fischer Logistik UG",
)  # fmt: skip
_PLACES = (("Bahnhofstraße 5", "70173 Stuttgart"), ("Rue du Rhône 42", "1204 Genève"),
           ("Ringstraße 88", "90402 Nürnberg"), ("Marktplatz 3", "01067 Dresden"))  # fmt: skip
_DEPARTMENTS = ("Abteilung Einkauf", "Kreditorenbuchhaltung", "c/o Regus Business Centre",
                "Rechnungseingang", "c/o Steuerbüro Lang", "Abt. Buchhaltung")  # fmt: skip


def _rng(truth: Truth, salt: str) -> random.Random:
    """A variant drawn from the invoice's values: the same seed draws the same page."""
    return random.Random(f"{salt}:{truth.number}:{truth.issue_date}")


def party_truth(country: str) -> Callable[[str], Truth]:
    """Values for `country` with both names drawn from the party names (legal forms)."""

    def truth(seed: str) -> Truth:
        base = random_truth(seed, country)
        rng = random.Random(f"names:{seed}")
        seller, buyer = rng.sample(_NAMES, 2)
        street, city = rng.choice([place for place in _PLACES if place[0] != base.seller.street])
        return replace(
            base,
            seller=replace(base.seller, name=seller),
            buyer=replace(base.buyer, name=buyer, street=street, city=city),
        )

    return truth


def split_name(name: str, width: int = 24) -> list[str]:
    """A long name over two lines, broken before its legal form (or its last words)."""
    if len(name) <= width:
        return [name]
    for form in (" GmbH & Co. KG", " S.à r.l.", " S.p.A.", " B.V.", " S.L.", " GmbH"):
        if name.endswith(form):
            return [name[: -len(form)], form.strip()]
    head, _, tail = name.rpartition(" ")
    return [head, tail]


def _body(page: Page, y: float, truth: Truth, language: str = "de") -> float:
    """Items, totals, due date and IBAN from `y`; the y below."""
    words = WORDS[language]
    y = totals(page, items(page, y, truth, words), truth, words)
    due = _date(language, truth.due_date)
    page.text(20, y + 5, {"de": f"Zahlbar bis {due} ohne Abzug.", "en": f"Due date: {due}",
                          "fr": f"Échéance : {due}"}[language])  # fmt: skip
    return y + 10


def _date(language: str, value: date) -> str:
    """English dates in words (day and month are not told apart by their order)."""
    return english_long_date(value) if language == "en" else date_in(language, value)


def _header(page: Page, x: float, y: float, truth: Truth, language: str = "de") -> None:
    title, number, dated = {"de": ("Rechnung", "Rechnungsnummer:", "Rechnungsdatum:"),
                            "en": ("Invoice", "Invoice No.:", "Invoice date:"),
                            "fr": ("Facture", "Facture N° :", "Date :")}[language]  # fmt: skip
    page.text(x, y, title, bold=True, size=14)
    page.text(x, y + 8, f"{number} {truth.number}")
    page.text(x, y + 13, f"{dated} {_date(language, truth.issue_date)}")


def side_bar(truth: Truth) -> bytes:
    """The seller's data stacked in a narrow bar at one edge, the rest of the page beside
    it; the buyer's block top left of the content, without a label or (in English) under
    `Invoice to`. The English bar is an Irish company's (an Eircode, `VAT No.`)."""
    rng = _rng(truth, "side_bar")
    language = rng.choice(("de", "en"))
    page = Page(size=rng.choice((8.5, 9, 9.5)))
    right = rng.random() < 0.5
    bar, content = (165.0, 18.0) if right else (10.0, 52.0)
    for index, text in enumerate(_bar(truth, language)):
        if text:
            page.text(bar, 20 + index * 4, text, size=7, bold=index == 0)
    buyer = truth.buyer
    block = [buyer.name, rng.choice(_DEPARTMENTS), buyer.street, buyer.city]
    if language == "en":
        block = [rng.choice(("Invoice to", "")), buyer.name, buyer.street, buyer.city]
    page.lines(content, rng.choice((40, 45, 50)), [line for line in block if line])
    _header(page, content, 80, truth, language)
    _narrow_body(page, 105, truth, content, language)
    return page.bytes()


def _bar(truth: Truth, language: str) -> list[str]:
    seller, iban = truth.seller, grouped_iban(truth.iban)
    if language == "en":
        return [*split_name(seller.name, 22), "12 Grafton Street", "Dublin 2", "D02 X285", "",
                "Phone +353 1 555 0100", "accounts@example.ie", "", "VAT No.", seller.vat_id,
                "", "Company Reg. 654321", "", "IBAN", iban[:22], iban[22:],
                f"BIC {truth.bic}"]  # fmt: skip
    return [*split_name(seller.name, 22), seller.street, seller.city, "",
            "Tel. +49 89 4711-0", "info@example.com", "", "USt-IdNr.", seller.vat_id,
            "", seller.register[:24], "", "IBAN", iban[:22], iban[22:],
            f"BIC {truth.bic}"]  # fmt: skip


def _narrow_body(page: Page, y: float, truth: Truth, left: float, language: str) -> None:
    """Items, totals and terms in a content column from `left`, 140 mm wide."""
    right, words = left + 140, WORDS[language]

    def amount(value: Decimal) -> str:
        return f"{amount_in(language, value)} €"

    page.text(left, y, words.item_head[1], bold=True)
    page.right(right, y, words.item_head[4], bold=True)
    for line in truth.lines:
        y += 5
        page.text(left, y, f"{line.quantity.normalize():f} x {line.description}")
        page.right(right, y, amount(line.net))
    rows = [(words.net, truth.net)]
    rows += [(words.vat.format(rate=rate_text(rate)), tax) for rate, tax in truth.taxes().items()]
    rows.append((words.gross, truth.gross))
    y += 4
    for label, value in rows:
        y += 5
        page.text(right - 65, y, label, bold=label == words.gross)
        page.right(right, y, amount(value))
    due = _date(language, truth.due_date)
    terms = {"de": f"Zahlbar bis {due} ohne Abzug.", "en": f"Due date: {due}"}[language]
    page.text(left, y + 10, terms)


_ADDRESSING = {
    "de": (("Firma", ""), ("Herrn {}", "Frau {}", "z. Hd. Herrn {}")),
    "fr": (("Société", ""), ("Madame {}", "Monsieur {}", "M. {}")),
    "en": (("Messrs", ""), ("Attn: Mr {}", "Mrs {}", "Ms {}")),
    "it": (("Spett.le", ""), ("Sig.ra {}", "Att.ne {}")),
}
"""A line addressing the company over its name, and one addressing its contact."""


def window_right(truth: Truth) -> bytes:
    """The Swiss, French and Italian letter: sender top left, the recipient in a window
    on the right, a line addressing the company (`Firma`, `Spett.le`, `Messrs`) over the
    name on some pages, a contact person under it (`Herrn`, `Madame`, `Attn: Mr`)."""
    rng = _rng(truth, "window_right")
    language = rng.choice(tuple(_ADDRESSING))
    page = Page(size=rng.choice((9, 9.5, 10)))
    seller = truth.seller
    page.text(20, 15, seller.name, bold=True, size=rng.choice((12, 14)))
    page.lines(20, 22, [seller.street, seller.city, f"MWST/TVA {seller.vat_id}"], step=4)
    buyer = truth.buyer
    companies, people = _ADDRESSING[language]
    first, contact = rng.choice(companies), rng.choice(people).format(truth.contact)
    block = [first, *split_name(buyer.name), contact, buyer.street, buyer.city]
    page.lines(118, rng.choice((45, 50, 55)), [line for line in block if line])
    y = rng.choice((90, 95))
    place = seller.city.split(" ", 1)[1]
    written = "en" if language in ("en", "it") else language
    page.text(118, y, f"{place}, {_date(written, truth.issue_date)}")
    _header(page, 20, y + 8, truth, written)
    _body(page, y + 30, truth, written)
    page.text(20, 282, f"IBAN {grouped_iban(truth.iban)}  BIC {truth.bic}", size=7)
    return page.bytes()


_BUYER_LABELS = (
    ("de", "Rechnungsempfänger:"), ("de", "Käufer"), ("en", "Bill to"), ("en", "Client"),
    ("fr", "Acheteur"), ("fr", "Destinataire"), ("en", "Klant"), ("en", "Cliente"),
    ("en", "Facturar a"),
)  # fmt: skip


def buyer_labels(truth: Truth) -> bytes:
    """A labelled buyer block: the label over the block, or on the name's line, or over
    `Name:` lines; the seller's block under no label at the top left."""
    rng = _rng(truth, "buyer_labels")
    language, label = rng.choice(_BUYER_LABELS)
    page = Page(size=rng.choice((8.5, 9, 10)))
    seller, buyer = truth.seller, truth.buyer
    page.lines(20, 15, [seller.name, seller.street, seller.city, f"VAT {seller.vat_id}"], 4.2)
    x, y = rng.choice(((20, 50), (115, 20), (115, 45)))
    style = rng.choice(("over", "inline", "fields"))
    if style == "inline":
        page.text(x, y, label, bold=True)
        page.text(x + 32, y, buyer.name)
        page.lines(x + 32, y + 4.5, [buyer.street, buyer.city])
    elif style == "fields":
        page.text(x, y, label.rstrip(":"), bold=True)
        for index, (name, value) in enumerate(
            (("Name:", buyer.name), ("Straße:", buyer.street), ("Ort:", buyer.city))
        ):
            page.text(x, y + 5 + index * 4.5, name)
            page.text(x + 18, y + 5 + index * 4.5, value)
    else:
        page.text(x, y, label, bold=True)
        page.lines(x, y + 5, [buyer.name, buyer.street, buyer.city])
    _header(page, 20, 78, truth, language)
    _body(page, 100, truth, language)
    page.text(20, 280, f"IBAN {grouped_iban(truth.iban)}  {seller.register}", size=7)
    return page.bytes()


def two_columns(truth: Truth) -> bytes:
    """Two columns under a header row, `Verkäufer | Käufer` or `Seller | Buyer`; names
    split over two lines where the column is narrow."""
    rng = _rng(truth, "two_columns")
    language = rng.choice(("de", "en"))
    heads = {"de": ("Verkäufer", "Käufer"), "en": ("Seller", "Buyer")}[language]
    page = Page(size=rng.choice((8.5, 9)))
    _header(page, 20, 12, truth, language)
    columns = ((20.0, truth.seller, heads[0]), (rng.choice((100.0, 110.0)), truth.buyer, heads[1]))
    for x, company, head in columns:
        page.text(x, 38, head, bold=True)
        page.rule(43, x, x + 70)
        lines = [*split_name(company.name, 26), company.street, company.city]
        page.lines(x, 45, lines)
    page.text(20, 72, f"USt-IdNr. {truth.seller.vat_id}")
    _body(page, 82, truth, language)
    page.text(20, 280, f"IBAN {grouped_iban(truth.iban)}  BIC {truth.bic}", size=7)
    return page.bytes()


def footer_seller(truth: Truth) -> bytes:
    """The seller only in the footer: a line of name, address and register, a line of
    VAT id and bank; the buyer in a window at form A without a return address."""
    rng = _rng(truth, "footer_seller")
    page = Page(size=rng.choice((9, 9.5)))
    buyer = truth.buyer
    page.lines(25, 30, [buyer.name, rng.choice(_DEPARTMENTS), buyer.street, buyer.city])
    page.text(25, 52, f"USt-IdNr. {buyer.vat_id}")  # the buyer's, labelled as the seller's
    _header(page, 125, 30, truth)
    _body(page, 90, truth)
    seller = truth.seller
    page.rule(272)
    page.text(20, 274, f"{seller.name} · {seller.street} · {seller.city} · {seller.register}",
              size=6.5)  # fmt: skip
    page.text(20, 278, f"USt-IdNr. {seller.vat_id} · IBAN {grouped_iban(truth.iban)} · "
              f"BIC {truth.bic}", size=6.5)  # fmt: skip
    return page.bytes()


def logo_seller(truth: Truth) -> bytes:
    """The seller's name only as a big word at the top (its logo set in type); its
    address and VAT id at the foot without the name; the buyer in the form B window."""
    rng = _rng(truth, "logo_seller")
    page = Page(size=9.5)
    seller, buyer = truth.seller, truth.buyer
    x = rng.choice((20, 110))
    page.text(x, 14, seller.name, bold=True, size=rng.choice((18, 20, 22)))
    page.lines(25, 50, [*split_name(buyer.name), buyer.street, buyer.city])
    _header(page, 125, 50, truth)
    _body(page, 100, truth)
    page.rule(272)
    page.text(20, 274, f"{seller.street}, {seller.city} · Tel. 0800 555 12 12", size=7)
    page.text(20, 278, f"USt-IdNr. {seller.vat_id} · IBAN {grouped_iban(truth.iban)}", size=7)
    return page.bytes()


def payment_part(truth: Truth) -> bytes:
    """The Swiss letter with a payment part at the foot: the recipient in a window on the
    right, and under a perforation `Konto / Zahlbar an` (the seller, again) beside
    `Zahlbar durch` (the buyer, again), the seller's letterhead set small at the top."""
    rng = _rng(truth, "payment_part")
    page = Page(size=rng.choice((9, 9.5)))
    seller, buyer = truth.seller, truth.buyer
    page.lines(20, 12, [seller.name, seller.street, seller.city, f"UID {seller.vat_id}"], 4)
    page.lines(118, 45, [buyer.name, rng.choice(_DEPARTMENTS), buyer.street, buyer.city])
    _header(page, 20, 80, truth)
    _body(page, 100, truth)
    page.rule(192)
    page.text(20, 196, "Empfangsschein", bold=True, size=11)
    x = rng.choice((70, 80))
    page.text(x, 196, "Zahlteil", bold=True, size=11)
    for left in (20, x + 55):
        page.text(left, 204, "Konto / Zahlbar an", bold=True, size=6)
        page.lines(left, 208, [grouped_iban(truth.iban), seller.name, seller.street,
                               seller.city], step=3.5)  # fmt: skip
        page.text(left, 226, "Zahlbar durch", bold=True, size=6)
        page.lines(left, 230, [buyer.name, buyer.street, buyer.city], step=3.5)
    page.text(20, 250, f"Währung  Betrag   EUR  {amount_in('de', truth.amount_due)}", size=8)
    return page.bytes()


def site_address(truth: Truth) -> bytes:
    """A craftsman's invoice: the letterhead's name big with its address small under it,
    the buyer in the form A window, and the building site's address beside it under
    `Bauvorhaben:` (another address, no party's)."""
    rng = _rng(truth, "site_address")
    page = Page(size=9.5)
    seller, buyer = truth.seller, truth.buyer
    page.text(20, 10, seller.name, bold=True, size=rng.choice((14, 16)))
    page.text(20, 18, "Meisterbetrieb für Sanitär · Heizung · Solar", size=7.5)
    page.text(22, 27, f"{seller.name} · {seller.street} · {seller.city}", size=6)
    window = [rng.choice(("Firma", "")), buyer.name, buyer.street, buyer.city]
    page.lines(22, 32, [line for line in window if line])
    page.text(120, 32, "Bauvorhaben:", bold=True)
    page.lines(120, 37, ["Neubau Einfamilienhaus", "Am Lindenhof 9", "82041 Oberhaching"])
    _header(page, 20, 80, truth)
    _body(page, 100, truth)
    page.text(20, 275, f"{seller.register} · USt-IdNr. {seller.vat_id}", size=7)
    page.text(20, 279, f"IBAN {grouped_iban(truth.iban)} · BIC {truth.bic}", size=7)
    return page.bytes()


PARTY_FAMILIES = (
    ("side_bar", party_truth("DE"), side_bar),
    ("window_right", party_truth("FR"), window_right),
    ("buyer_labels", party_truth("DE"), buyer_labels),
    ("two_columns", party_truth("DE"), two_columns),
    ("footer_seller", party_truth("DE"), footer_seller),
    ("logo_seller", party_truth("DE"), logo_seller),
    ("payment_part", party_truth("DE"), payment_part),
    ("site_address", party_truth("DE"), site_address),
)
"""Name, values from a seed, drawing: registered with the tuning set (pdf_invoice_layouts)."""

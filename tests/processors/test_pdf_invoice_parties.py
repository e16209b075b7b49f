"""Seller and buyer read by layout (issue 36, docs/pdf_invoices.md "Parties by layout"):
address blocks placed by region, neighbours and labels, and the text's party lines, each
on a small page or text. The whole pages are the tuning families of
pdf_invoice_party_layouts.py."""

from __future__ import annotations

import pytest

from processors.pdf_invoices.fields import read_invoice
from processors.pdf_invoices.parties import buyer_name, legal_form_line, seller_name
from processors.pdf_invoices.party_blocks import PartyBlock, party_blocks
from processors.pdf_invoices.party_choice import with_parties
from processors.pdf_layout.lines import PageLayout
from processors.pdf_text import read_pdf_text
from processors.results.evidence import EvidenceField
from tests.processors.pdf_accuracy import low_fields, read_pdf
from tests.processors.pdf_invoice_layouts import TUNING
from tests.processors.pdf_invoice_pages import Page


def _blocks(page: Page) -> dict[str, PartyBlock]:
    words = read_pdf_text(page.bytes(), "tesseract", 1, with_words=True).words or ()
    return {block.name: block for block in party_blocks(PageLayout.of(words[0]))}


def test_a_side_bar_with_the_senders_own_data_is_the_seller() -> None:
    page = Page(size=9)
    bar = ["Hoffmann Anlagenbau", "GmbH & Co. KG", "Ringstraße 88", "90402 Nürnberg", "",
           "Tel. 0911 4711-0", "info@hoffmann.example", "USt-IdNr. DE123456789",
           "IBAN DE02 1203 0000 0000 2020 51"]  # fmt: skip
    for index, text in enumerate(bar):
        page.text(165, 20 + index * 4, text, size=7)
    page.lines(20, 45, ["Nordlicht Energie AG", "c/o Steuerbüro Lang", "Marktplatz 3",
                        "01067 Dresden"])  # fmt: skip
    blocks = _blocks(page)
    seller, buyer = blocks["Hoffmann Anlagenbau GmbH & Co. KG"], blocks["Nordlicht Energie AG"]
    assert seller.seller > seller.buyer
    assert buyer.buyer > buyer.seller  # the c/o line is not its name


def test_a_window_on_the_right_is_the_buyers_and_its_salutation_no_name() -> None:
    page = Page()
    page.lines(20, 15, ["Atelier Blanc S.A.", "Rue du Rhône 42", "1204 Genève"])
    page.lines(118, 50, ["Firma", "Kessler Medizintechnik GmbH", "Herrn Jan Schröder",
                         "Bahnstraße 5", "70173 Stuttgart"])  # fmt: skip
    blocks = _blocks(page)
    assert set(blocks) == {"Atelier Blanc S.A.", "Kessler Medizintechnik GmbH"}
    assert blocks["Kessler Medizintechnik GmbH"].buyer >= 2
    assert blocks["Atelier Blanc S.A."].seller >= 2


def test_a_payment_part_and_a_site_place_their_addresses_by_their_labels() -> None:
    page = Page(size=8)
    page.text(20, 200, "Konto / Zahlbar an", bold=True)
    page.lines(20, 204, ["Fischer Logistik UG", "Marktplatz 3", "01067 Dresden"])
    page.text(100, 200, "Zahlbar durch", bold=True)
    page.lines(100, 204, ["Meyer Haustechnik e.K.", "Ringstraße 88", "90402 Nürnberg"])
    page.text(120, 40, "Bauvorhaben:", bold=True)
    page.lines(120, 45, ["Neubau Einfamilienhaus", "Am Lindenhof 9", "82041 Oberhaching"])
    blocks = _blocks(page)
    assert blocks["Fischer Logistik UG"].seller > blocks["Fischer Logistik UG"].buyer
    assert blocks["Meyer Haustechnik e.K."].buyer > blocks["Meyer Haustechnik e.K."].seller
    site = blocks["Neubau Einfamilienhaus"]
    assert site.buyer < 0 and site.seller < 2  # neither party's


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Distribuciones Navarro", "S.L.", "Calle Mayor 21"], "Distribuciones Navarro S.L."),
        (["To: ACME Ltd", "Harper & Lane Ltd"], "Harper & Lane Ltd"),
        (["Spett.le Rossi Forniture S.r.l.", "Luxtrade Services S.à r.l."],
         "Luxtrade Services S.à r.l."),
        (["(c) AWV e.V. 2020", "Bergmann & Partner mbB"], "Bergmann & Partner mbB"),
        (["Kunde Digital KG", "Weg 1"], "Kunde Digital KG"),
    ],
)  # fmt: skip
def test_the_texts_first_company_skips_the_buyers_and_joins_a_legal_form(
    lines: list[str], expected: str
) -> None:
    assert legal_form_line(lines) == expected


@pytest.mark.parametrize(
    ("lines", "buyer"),
    [
        (["Spett.le", "Rossi Forniture S.r.l.", "Via Roma 15"], "Rossi Forniture S.r.l."),
        (["Käufer           Hoffmann Anlagenbau GmbH", "Marktplatz 3"], "Hoffmann Anlagenbau GmbH"),
        (["Cessionario/committente", "Denominazione: Bianchi S.p.A."], "Bianchi S.p.A."),
        (["Messrs", "Groenveld Installaties", "B.V.", "Mrs Anna Rossi"],
         "Groenveld Installaties B.V."),
        (["     Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen", "     Firma",
          "     Kessler GmbH", "     Bahnstr. 4"], "Kessler GmbH"),
        (["   Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen",
          "                                                 Bauvorhaben:"], None),
    ],
)  # fmt: skip
def test_the_buyer_under_its_label_or_the_return_address(
    lines: list[str], buyer: str | None
) -> None:
    assert buyer_name(lines) == buyer


def test_a_seller_label_of_another_language_names_the_seller() -> None:
    assert seller_name(["Cedente/prestatore", "Denominazione: Rossi S.r.l."]) == "Rossi S.r.l."
    assert seller_name(["Remit to:", "Harper & Lane Ltd", "14 High Street"]) == "Harper & Lane Ltd"


def test_a_vat_id_under_the_buyers_address_is_the_buyers() -> None:

    family = next(family for family in TUNING if family.name == "footer_seller")
    _, pdf, expected = family.document(1)
    outcome = read_pdf(pdf)
    assert not isinstance(outcome, str)
    result = outcome.result.invoice  # type: ignore[attr-defined]
    assert result.seller.vat_id == expected.seller.vat_id
    assert "seller.vatId" in low_fields(outcome.data)  # told by the layout: doubted


def test_one_name_read_for_both_parties_is_doubted_on_both() -> None:
    text = "Rechnung\nVerkäufer: ACME GmbH\nKäufer: ACME GmbH\nGesamtbetrag 119,00\n"
    reading = with_parties(read_invoice(text), (), text)
    assert reading.invoice.seller.name == reading.invoice.buyer.name == "ACME GmbH"
    assert {EvidenceField.SELLER_NAME, EvidenceField.BUYER_NAME} <= set(reading.doubts)

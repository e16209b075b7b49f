"""Classes of layout the corpus's stripped hybrids showed the reader missing (issue 36,
docs/pdf_invoices.md "Third round"), each read from a small text; the tuning families in
pdf_invoice_more_layouts.py draw them as whole pages."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from processors.base import CompanyProfile, DocumentType, ProcessingContext
from processors.pdf_invoices.fields import read_invoice
from processors.pipeline import read_document
from processors.results.evidence import EvidenceField
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice


def test_a_letter_dated_by_place_and_not_by_its_print_stamp() -> None:
    text = (
        "Rechnungsnummer:   2015738820\nMünchen, den       01.11.2024\nRechnung\n"
        "Nettobetrag: 376,37\nMwSt. 19 %: 71,51\nSumme gesamt 447,88\n"
        "Datum:  30.10.2024  Zeit:  04:59:13  Seite:  1\n"
    )
    reading = read_invoice(text)
    assert reading.invoice.issue_date == date(2024, 11, 1)
    assert EvidenceField.ISSUE_DATE in reading.doubts  # a generic label: read, and doubted


def test_a_form_view_names_the_buyer_under_its_name_label() -> None:
    text = (
        "Informationen zum Käufer\n  Leitweg-ID:\n  Name:\n    Theodor Est\n"
        "  Straße / Hausnummer:\n    Bahnstr. 42\nInformationen zum Verkäufer\n"
        "Firmenname:\n  Bei Spiel GmbH\nRechnungsnummer:\n  RE-17\n"
    )
    reading = read_invoice(text)
    assert (reading.invoice.buyer.name, reading.invoice.seller.name) == (
        "Theodor Est",
        "Bei Spiel GmbH",
    )


def test_totals_as_column_heads_over_their_row_prefer_a_vat_above_zero() -> None:
    text = (
        "Facture N° F-17\n"
        "Désignation                     TOTAL HT     TVA\n"
        "Prestation                         60,00    0,00%\n"
        "Papier                             40,00   12,25%\n"
        "Détail TVA      Code    Taux      Base TVA     Montant TVA\n"
        "                 S     12,25%       40,00        4,90\n"
        "                 E      0,00%       60,00        0,00\n"
        "Pénalités de retard            TOTAL HT     TOTAL TVA     TOTAL TTC\n"
        "Indemnité forfaitaire : 40 €.\n"
        "                                 100,00          4,90        104,90\n"
        "NET A PAYER                                                104,90 EUR\n"
    )
    totals = read_invoice(text).invoice.totals
    assert (totals.net, totals.vat, totals.gross) == (
        Decimal("100.00"),
        Decimal("4.90"),
        Decimal("104.90"),
    )


def test_vat_rows_grouped_by_spaces_sum_grouped() -> None:
    text = (
        "FACTURE N° 2024026973\nDate : 02/07/2024\n"
        "Total HT          25 807,37 €\nTVA 20 %           3 165,29 €\n"
        "TVA 10 %             998,09 €\nTotal TTC         29 970,75 €\n"
    )
    totals = read_invoice(text).invoice.totals
    assert (totals.net, totals.vat, totals.gross) == (
        Decimal("25807.37"),
        Decimal("4163.38"),
        Decimal("29970.75"),
    )


def test_a_contact_person_over_the_company_is_not_the_buyer() -> None:
    head = "Facture N° F-17\nDate : 03/02/2024\nClient :\n"
    company = read_invoice(head + "M. Jan Schröder\nÉditions Lefèvre SARL\n4 avenue Foch\n")
    person = read_invoice(head + "Mme Marie Laurent\n12 rue de la République\n69002 Lyon\n")
    assert company.invoice.buyer.name == "Éditions Lefèvre SARL"
    assert person.invoice.buyer.name == "Mme Marie Laurent"  # a person buys, at her address


@pytest.mark.parametrize(
    "vat_id",
    [
        "ATU13585627",  # Austria: a U before the digits
        "SE123456789001",  # Sweden: twelve digits
        "ESX2482300W",  # Spain: letters at either end
        "FRXX303265045",  # France: two check characters
        "IE6388047V",  # Ireland: a letter at the end
        "CY10259033P",  # Cyprus
        "EL094259216",  # Greece
    ],
)
def test_a_seller_vat_id_in_its_member_states_own_form_is_read(vat_id: str) -> None:
    """Found by the VAT id status table's test: a German invoice of an Austrian supplier
    came without its VAT id, the pattern knew only country letters and digits."""
    spec = replace(SAMPLE_INVOICE, seller_vat_id=vat_id)
    context = ProcessingContext(
        DocumentType.SUPPLIER_INVOICE, "upload", CompanyProfile(name="Kunde Digital KG")
    )
    data = read_document(german_invoice(spec), context).data
    assert data["invoice"]["seller"]["vatId"] == vat_id

"""The pure half of the supplier bank account check (processors/bank_accounts.py)."""

from __future__ import annotations

import pytest

from processors.bank_accounts import (
    AccountWarning,
    account_warnings,
    payee_ibans,
    supplier_country,
    supplier_key,
)
from processors.invoice_model import (
    Address,
    Invoice,
    InvoiceType,
    Party,
    PaymentMeans,
    Totals,
)


def test_the_supplier_is_its_vat_id_else_tax_number_else_its_name() -> None:
    assert supplier_key(Party(name="X", vat_id="de 136 695 976", tax_number="1")) == (
        "vat:DE136695976"
    )
    assert supplier_key(Party(name="X", tax_number="181/815/08155")) == "tax:18181508155"
    assert supplier_key(Party(name="Müller & Söhne GmbH")) == "name:mullersohnegmbh"
    assert supplier_key(Party(name=" MÜLLER & SÖHNE  GMBH.")) == "name:mullersohnegmbh"
    assert supplier_key(Party()) is None


def test_the_payee_ibans_are_compacted_once_each_and_a_debited_account_is_not_one() -> None:
    means = (
        PaymentMeans(payee_iban="DE89 3704 0044 0532 0130 00"),
        PaymentMeans(payee_iban="DE89370400440532013000"),
        PaymentMeans(payer_iban="DE02120300000000202051"),
    )
    invoice = Invoice(
        number="1",
        invoice_type=InvoiceType.INVOICE,
        type_code="380",
        issue_date=None,
        currency="EUR",
        seller=Party(name="S"),
        buyer=Party(name="B"),
        totals=Totals(),
        payment_means=means,
    )
    assert payee_ibans(invoice) == ("DE89370400440532013000",)


@pytest.mark.parametrize(
    ("party", "country"),
    [
        (Party(address=Address(country_code="at"), vat_id="DE136695976"), "AT"),
        (Party(vat_id="EL094259216"), "GR"),
        (Party(vat_id="XI980780684"), "GB"),
        (Party(name="only a name"), None),
    ],
)
def test_the_suppliers_country(party: Party, country: str | None) -> None:
    assert supplier_country(party) == country


def test_warnings_need_an_earlier_iban_or_another_country() -> None:
    iban = "DE02120300000000202051"
    assert account_warnings(iban, set(), "DE") == ()  # a first invoice: nothing to compare
    assert account_warnings(iban, {iban}, "DE") == ()
    assert account_warnings(iban, {"DE89370400440532013000"}, "DE") == (AccountWarning.NEW_IBAN,)
    assert account_warnings(iban, set(), "AT") == (AccountWarning.FOREIGN_IBAN,)
    assert account_warnings(iban, set(), None) == ()

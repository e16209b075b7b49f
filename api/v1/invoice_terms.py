"""Which EN 16931 business term (BT-/BG- id) each field of an invoice result holds, by
its JSON path in the result's `data`. The names come from the semantic model
(processors/einvoice/business_terms.py), so a description reads "Invoice number (BT-1)".
Fields EN 16931 has no term for (`invoiceType`, the direction) are not listed."""

from __future__ import annotations

from processors.einvoice.business_terms import term


def _party(path: str, group: str, terms: dict[str, str]) -> dict[str, str]:
    return {path: group} | {f"{path}.{key}": term_id for key, term_id in terms.items()}


TERMS: dict[str, str] = {
    "invoice.number": "BT-1",
    "invoice.issueDate": "BT-2",
    "invoice.typeCode": "BT-3",
    "invoice.currency": "BT-5",
    "invoice.dueDate": "BT-9",
    "invoice.buyerReference": "BT-10",
    "invoice.contractReference": "BT-12",
    "invoice.orderReference": "BT-13",
    "invoice.paymentTerms": "BT-20",
    "invoice.notes": "BT-22",
    "invoice.precedingInvoiceReference": "BT-25",
    **_party(
        "invoice.seller",
        "BG-4",
        {
            "name": "BT-27",
            "tradingName": "BT-28",
            "legalRegistrationId": "BT-30",
            "vatId": "BT-31",
            "taxNumber": "BT-32",
            "electronicAddress": "BT-34",
            "address": "BG-5",
            "address.lines": "BT-35",
            "address.city": "BT-37",
            "address.postalCode": "BT-38",
            "address.subdivision": "BT-39",
            "address.countryCode": "BT-40",
        },
    ),
    **_party(
        "invoice.buyer",
        "BG-7",
        {
            "name": "BT-44",
            "tradingName": "BT-45",
            "legalRegistrationId": "BT-47",
            "vatId": "BT-48",
            "electronicAddress": "BT-49",
            "address": "BG-8",
            "address.lines": "BT-50",
            "address.city": "BT-52",
            "address.postalCode": "BT-53",
            "address.subdivision": "BT-54",
            "address.countryCode": "BT-55",
        },
    ),
    "invoice.totals": "BG-22",
    "invoice.totals.lineTotal": "BT-106",
    "invoice.totals.allowanceTotal": "BT-107",
    "invoice.totals.chargeTotal": "BT-108",
    "invoice.totals.net": "BT-109",
    "invoice.totals.vat": "BT-110",
    "invoice.totals.gross": "BT-112",
    "invoice.totals.prepaid": "BT-113",
    "invoice.totals.rounding": "BT-114",
    "invoice.totals.amountDue": "BT-115",
    "invoice.vatBreakdown": "BG-23",
    "invoice.vatBreakdown.taxableAmount": "BT-116",
    "invoice.vatBreakdown.taxAmount": "BT-117",
    "invoice.vatBreakdown.categoryCode": "BT-118",
    "invoice.vatBreakdown.rate": "BT-119",
    "invoice.vatBreakdown.exemptionReason": "BT-120",
    "invoice.lines": "BG-25",
    "invoice.lines.lineId": "BT-126",
    "invoice.lines.quantity": "BT-129",
    "invoice.lines.unitCode": "BT-130",
    "invoice.lines.netAmount": "BT-131",
    "invoice.lines.netUnitPrice": "BT-146",
    "invoice.lines.vatCategoryCode": "BT-151",
    "invoice.lines.vatRate": "BT-152",
    "invoice.lines.name": "BT-153",
    "invoice.lines.description": "BT-154",
    "invoice.paymentMeans": "BG-16",
    "invoice.paymentMeans.typeCode": "BT-81",
    "invoice.paymentMeans.reference": "BT-83",
    "invoice.paymentMeans.payeeIban": "BT-84",
    "invoice.paymentMeans.payeeAccountName": "BT-85",
    "invoice.paymentMeans.payeeBic": "BT-86",
    "invoice.paymentMeans.mandateReference": "BT-89",
    "invoice.paymentMeans.payerIban": "BT-91",
}


def term_description(path: str) -> str | None:
    """ "Invoice number (BT-1)" for the field at this path, None without a term."""
    term_id = TERMS.get(path)
    if term_id is None:
        return None
    found = term(term_id)
    assert found is not None, f"{term_id} is not in the EN 16931 semantic model"
    return f"{found.en} ({term_id})"
